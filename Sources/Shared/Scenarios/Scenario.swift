/// A scripted session on the simulated phone: the catalog size, the network and screen, and the user's gestures.
///
/// Read from the scenario text format (see `ScenarioParser`); built-in scenarios ship as resources.
public struct Scenario: Sendable, Equatable {
    /// The scenario's name: a built-in's name, or the file name without its extension.
    public var name: String
    /// Where it was read from (a built-in's resource name or the file path), for messages.
    public var source: String
    /// Catalog rows used; the catalog repeats with new titles past its end.
    public var rows: Int = 200
    /// The seed given in the file, if any; `--seed` overrides it.
    public var seed: UInt64?
    /// The simulated network.
    public var network = NetworkSettings()
    /// The simulated screen.
    public var screen = ScreenSettings()
    /// Faults the server injects.
    public var faults = FaultSettings()
    /// Writes the disk accepts before it is full and fails every further write (`disk full-after=N`);
    /// nil for a disk that never fills.
    public var diskFullAfterWrites: Int?
    /// The user's actions, in order.
    public var actions: [ScenarioAction] = []

    /// Makes an empty scenario with default settings.
    public init(name: String, source: String) {
        self.name = name
        self.source = source
    }
}

/// One line of a scenario's script: what the user (or the system) does next.
public enum ScenarioAction: Sendable, Equatable {
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
public struct NetworkSettings: Sendable, Equatable {
    /// Base round-trip latency before the first byte, in microseconds.
    public var rttMicroseconds: Int64 = 120_000
    /// Extra latency drawn uniformly from `0..<jitter` per request, in microseconds.
    public var jitterMicroseconds: Int64 = 30_000
    /// The bottleneck link, bytes per second, shared equally by active transfers.
    public var bandwidthBytesPerSecond: Int64 = 1_000_000
    /// Connection slots per host.
    public var connectionsPerHost: Int = 6
    /// How long a client waits for a response before giving up, in microseconds.
    public var timeoutMicroseconds: Int64 = 10_000_000

    /// The defaults: 120 ms, 30 ms jitter, 1000 KB/s, 6 connections, 10 s timeout.
    public init() {}
}

/// The simulated screen.
public struct ScreenSettings: Sendable, Equatable {
    /// Viewport height in points.
    public var height: Int = 667
    /// Row height in points.
    public var rowHeight: Int = 88
    /// Display refresh rate in hertz: 60 or 120.
    public var refreshRate: Int = 60

    /// The defaults: 667-point viewport, 88-point rows, 60 Hz.
    public init() {}
}

/// Faults the simulated server injects, each a share of requests (per mille) chosen by seeded draws.
public struct FaultSettings: Sendable, Equatable {
    /// Requests that never answer: the client gives up after its timeout.
    public var timeoutPerMille: Int = 0
    /// Requests refused at connection time.
    public var refusedPerMille: Int = 0
    /// Requests answered with status 500.
    public var serverErrorPerMille: Int = 0
    /// Responses whose body is cut short.
    public var truncatedPerMille: Int = 0
    /// Responses whose body has flipped bytes.
    public var corruptPerMille: Int = 0
    /// A host that is much slower than the others, if any.
    public var slowHost: SlowHost?

    /// No faults.
    public init() {}

    /// Whether any fault is configured.
    public var isEmpty: Bool { self == FaultSettings() }
}

/// A host whose answers take `factor` times the usual latency (the slow host of the flaky scenario).
public struct SlowHost: Sendable, Equatable {
    /// The host name, as in the catalog's URLs.
    public var host: String
    /// How many times slower it is (at least 1).
    public var factor: Int

    /// Makes a slow host.
    public init(host: String, factor: Int) {
        self.host = host
        self.factor = factor
    }
}
