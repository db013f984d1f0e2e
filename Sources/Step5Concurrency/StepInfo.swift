import Shared

/// What the harness (and the tests) need to run this step.
enum StepInfo: WorkbookStep {
    static let name = "Step5Concurrency"
    static let summary = "the same app as step 4 in Swift concurrency: async loads, an actor, a task per cell"
    /// What `--without` may turn off here.
    static let techniques = Technique.allCases.map(\.rawValue)

    /// Makes the app's first screen; the harness calls it on the simulated main thread at each launch.
    static func makeApp(_ options: RunOptions) -> TableViewController {
        let turnedOff = options.without.compactMap(Technique.init(rawValue:))
        return ListViewController(
            techniques: Set(Technique.allCases).subtracting(turnedOff), concurrency: options.concurrency)
    }
}
