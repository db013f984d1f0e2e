/// The visible rows at one moment, as the user saw them.
public struct ScreenSnapshot: Sendable {
    /// What moment this is ("end", or the stop it filled).
    public let label: String
    /// Virtual microseconds.
    public let time: Int64
    /// The rows on screen, top to bottom.
    public let rows: [ScreenRow]
    /// When the scroll came to rest, for a stop's snapshot (nil for the end): `time` minus this is the wait.
    public var stoppedAt: Int64? = nil
}
