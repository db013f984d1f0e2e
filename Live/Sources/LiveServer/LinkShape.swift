/// What the server does to every answer, in place of the kernel's traffic shaping: each request waits for
/// one of its host's connection slots, then its latency, then its body flows through one link of
/// `bytesPerSecond` that every flowing body shares.
public struct LinkShape: Sendable {
    /// The wait before the first byte of an answer, for a URL and its attempt (0 for the first request
    /// of that URL): a pure function, so that the live run draws what the simulator draws.
    public var latency: @Sendable (_ url: String, _ attempt: Int) -> Duration
    /// The link's capacity, shared by every body flowing at once.
    public var bytesPerSecond: Int
    /// How many requests of one host are answered at once; the others wait their turn, in arrival order.
    public var connectionsPerHost: Int
    /// How long the server holds a request it leaves unanswered (a timeout fault, or a latency longer than
    /// this) before it closes the connection, for a client that cannot be given a timeout of its own
    /// (`Data(contentsOf:)`); a client with a shorter one gives up first.
    public var timeout: Duration
    /// The timeout the clients that have one give up at, counted from their request's arrival: a held
    /// request such a client closes well before it was cancelled, not given up on (nil: every held
    /// request the client closes was given up on).
    public var clientTimeout: Duration?

    public init(
        latency: @escaping @Sendable (_ url: String, _ attempt: Int) -> Duration,
        bytesPerSecond: Int, connectionsPerHost: Int, timeout: Duration = .seconds(60)
    ) {
        self.latency = latency
        self.bytesPerSecond = max(1, bytesPerSecond)
        self.connectionsPerHost = max(1, connectionsPerHost)
        self.timeout = timeout
    }

    /// A link whose every request waits the same `latency`.
    public static func fixed(
        latency: Duration, bytesPerSecond: Int, connectionsPerHost: Int, timeout: Duration = .seconds(60)
    ) -> LinkShape {
        LinkShape(
            latency: { _, _ in latency }, bytesPerSecond: bytesPerSecond,
            connectionsPerHost: connectionsPerHost, timeout: timeout)
    }
}
