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
