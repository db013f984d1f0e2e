import Shared

/// What the harness (and the tests) need to run this step.
enum StepInfo: WorkbookStep {
    static let name = "Step3IdleOnly"
    static let summary =
        "loads posters only while the table is still, and cancels work for rows that left the screen"

    /// Makes the app's first screen; the harness calls it on the simulated main thread at each launch.
    static func makeApp(_ options: RunOptions) -> TableViewController {
        ListViewController(concurrency: options.concurrency ?? 1)
    }
}
