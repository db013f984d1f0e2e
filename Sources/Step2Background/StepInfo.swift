import Shared

/// What the harness (and the tests) need to run this step.
enum StepInfo: WorkbookStep {
    static let name = "Step2Background"
    static let summary = "downloads and filters posters on two operation queues, off the main thread"

    /// Makes the app's first screen; the harness calls it on the simulated main thread at each launch.
    static func makeApp(_ options: RunOptions) -> TableViewController {
        ListViewController(concurrency: options.concurrency ?? 1)
    }
}
