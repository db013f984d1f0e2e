/// A scripted session on the simulated phone: the catalog size, the network and screen, and the user's gestures.
///
/// Read from the scenario text format (see `ScenarioParser`); built-in scenarios ship as resources.
package struct Scenario: Sendable, Equatable {
    /// The scenario's name: a built-in's name, or the file name without its extension.
    package var name: String
    /// Where it was read from (a built-in's resource name or the file path), for messages.
    package var source: String
    /// Catalog rows used; the catalog repeats with new titles past its end.
    package var rows: Int = 200
    /// The seed given in the file, if any; `--seed` overrides it.
    package var seed: UInt64?
    package var network = NetworkSettings()
    package var screen = ScreenSettings()
    /// Faults the server injects.
    package var faults = FaultSettings()
    /// Writes the disk accepts before it is full and fails every further write (`disk full-after=N`);
    /// nil for a disk that never fills.
    package var diskFullAfterWrites: Int?
    /// The user's actions, in order.
    package var actions: [ScenarioAction] = []

    /// Makes an empty scenario with default settings.
    package init(name: String, source: String) {
        self.name = name
        self.source = source
    }
}

/// One line of a scenario's script: what the user (or the system) does next.
package enum ScenarioAction: Sendable, Equatable {
    /// Do nothing for a while (microseconds).
    case wait(microseconds: Int64)
    /// Drag with a finger until `row` is at the top, over a duration, and release with no velocity.
    case drag(toRow: Int, microseconds: Int64)
    /// Drag through several rows in turn without lifting the finger (down, then back up, …), spending
    /// equal time on each leg, and release with no velocity at the last one.
    case dragThrough(rows: [Int], microseconds: Int64)
    /// Drag quickly and release; deceleration brings the table to rest with `row` at the top.
    case fling(toRow: Int)
    /// The system sends a memory warning.
    case memoryWarning
    /// The app quits and starts again: memory is gone, the disk cache stays.
    case relaunch
}

/// The simulated network's shape.
package struct NetworkSettings: Sendable, Equatable {
    /// Base round-trip latency before the first byte, in microseconds.
    package var rttMicroseconds: Int64 = 120_000
    /// Extra latency drawn uniformly from `0..<jitter` per request, in microseconds.
    package var jitterMicroseconds: Int64 = 30_000
    /// The bottleneck link, bytes per second, shared equally by active transfers.
    package var bandwidthBytesPerSecond: Int64 = 1_000_000
    /// Connection slots per host.
    package var connectionsPerHost: Int = 6
    /// How long a client waits for a response before giving up, in microseconds.
    package var timeoutMicroseconds: Int64 = 10_000_000

    /// The defaults: 120 ms, 30 ms jitter, 1000 KB/s, 6 connections, 10 s timeout.
    package init() {}
}

/// The simulated screen.
package struct ScreenSettings: Sendable, Equatable {
    /// Viewport height in points.
    package var height: Int = 667
    /// Row height in points.
    package var rowHeight: Int = 88
    /// Display refresh rate in hertz: 60 or 120.
    package var refreshRate: Int = 60

    /// The defaults: 667-point viewport, 88-point rows, 60 Hz.
    package init() {}
}

/// Faults the simulated server injects, each a share of requests (per mille) chosen by seeded draws.
package struct FaultSettings: Sendable, Equatable {
    /// Requests that never answer: the client gives up after its timeout.
    package var timeoutPerMille: Int = 0
    /// Requests refused at connection time.
    package var refusedPerMille: Int = 0
    /// Requests answered with status 500.
    package var serverErrorPerMille: Int = 0
    /// Responses whose body is cut short.
    package var truncatedPerMille: Int = 0
    /// Responses whose body has flipped bytes.
    package var corruptPerMille: Int = 0
    /// A host that is much slower than the others, if any.
    package var slowHost: SlowHost?

    /// No faults.
    package init() {}

    /// Whether any fault is configured.
    package var isEmpty: Bool { self == FaultSettings() }
}

/// A host whose answers take `factor` times the usual latency (the slow host of the flaky scenario).
package struct SlowHost: Sendable, Equatable {
    /// The host name, as in the catalog's URLs.
    package var host: String
    /// How many times slower it is (at least 1).
    package var factor: Int

    /// Makes a slow host.
    package init(host: String, factor: Int) {
        self.host = host
        self.factor = factor
    }
}
