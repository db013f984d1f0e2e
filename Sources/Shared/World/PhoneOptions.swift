import Foundation

/// How a phone is set up for a run, beyond the scenario.
package struct PhoneOptions: Sendable {
    /// The folder holding the phone's disk; nil makes a fresh temporary one, removed after the run.
    package var diskRoot: URL?
    /// A folder of PNG files to serve instead of generated posters.
    package var postersDirectory: URL?
    package var costs = CostModel()
    /// Whether to keep the trace events (needed for `--trace` and pictures).
    package var keepsTrace = true
    /// Whether to keep a snapshot of the screen, pixels included, at every stop, when it filled or when the
    /// user left it unfilled (for `--screens` and `--export`). The snapshots grow with the script, so the
    /// command line keeps them only when an output needs them; without them a run's memory stays flat
    /// however long it plays.
    package var keepsStopSnapshots = true

    /// The defaults: a temporary disk, generated posters, default costs, trace kept.
    package init() {}
}
