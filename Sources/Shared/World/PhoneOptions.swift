import Foundation

/// How a phone is set up for a run, beyond the scenario.
public struct PhoneOptions: Sendable {
    /// The folder holding the phone's disk; nil makes a fresh temporary one, removed after the run.
    public var diskRoot: URL?
    /// A folder of PNG files to serve instead of generated posters.
    public var postersDirectory: URL?
    /// What work costs.
    public var costs = CostModel()
    /// Whether to keep the trace events (needed for `--trace` and pictures).
    public var keepsTrace = true
    /// Whether to keep a snapshot of the screen, pixels included, at every stop, when it filled or when the
    /// user left it unfilled (for `--screens` and `--export`); long benchmark runs turn it off so memory
    /// does not grow with the script.
    public var keepsStopSnapshots = true

    /// The defaults: a temporary disk, generated posters, default costs, trace kept.
    public init() {}
}
