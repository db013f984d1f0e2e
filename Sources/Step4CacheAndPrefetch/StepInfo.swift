import Shared

/// What the harness (and the tests) need to run this step.
enum StepInfo: WorkbookStep {
    static let name = "Step4CacheAndPrefetch"
    static let summary = "adds memory and disk caches, one load per URL, cancel-on-reuse and prefetch"
    /// What `--without` may turn off here (see `Configuration`).
    static let techniques: [Technique] = [
        .memoryCache, .diskCache, .oneLoadPerURL, .cancelOnReuse, .resumeDownloads, .prefetch,
        .diskWhileScrolling, .extraConcurrency, .windowedCancel, .finishStarted, .keepOnScreen,
        .rememberFailures,
    ]

    /// Makes the app's first screen; the harness calls it on the simulated main thread at each launch.
    static func makeApp(_ options: RunOptions) -> TableViewController {
        ListViewController(configuration: Configuration(options: options))
    }
}
