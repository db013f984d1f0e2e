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
