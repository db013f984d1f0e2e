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
