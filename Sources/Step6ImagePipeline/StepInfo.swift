import Shared

/// What the harness (and the tests) need to run this step.
enum StepInfo: WorkbookStep {
    static let name = "Step6ImagePipeline"
    static let summary = "step 5 plus what image pipelines add: display-size decoding, retries, resuming"
    /// What `--without` may turn off here.
    static let techniques = Technique.allCases.map(\.rawValue)

    /// Makes the app's first screen; the harness calls it on the simulated main thread at each launch.
    static func makeApp(_ options: RunOptions) -> TableViewController {
        makeApp(options, techniques: .all)
    }

    /// Makes the app with only some of the libraries' techniques (for the ablation table), less those
    /// the command line's `--without` names.
    static func makeApp(_ options: RunOptions, techniques: Techniques) -> TableViewController {
        let techniques = techniques.subtracting(Techniques(options.without))
        return PhoneMainActor.assumeIsolated {
            ListViewController(concurrency: options.concurrency ?? 5, techniques: techniques)
        }
    }
}
