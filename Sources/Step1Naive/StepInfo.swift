import Shared

/// What the harness (and the tests) need to run this step.
enum StepInfo: WorkbookStep {
    static let name = "Step1Naive"
    static let summary = "downloads, decodes and filters every poster synchronously on the main thread"

    /// Makes the app's first screen; the harness calls it on the simulated main thread at each launch.
    static func makeApp(_ options: RunOptions) -> TableViewController {
        ListViewController()
    }
}
