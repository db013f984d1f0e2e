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
    /// Whether to keep a snapshot of the screen, pixels included, at every filled stop (for `--screens`
    /// and `--export`). The snapshots grow with the script, so the command line keeps them only when an
    /// output needs them; without them a run's memory stays flat however long it plays.
    public var keepsStopSnapshots = true

    /// The defaults: a temporary disk, generated posters, default costs, trace kept.
    public init() {}
}
