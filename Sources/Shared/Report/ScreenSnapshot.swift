/// The visible rows at one moment, as the user saw them.
public struct ScreenSnapshot: Sendable {
    /// What moment this is ("end", or the stop it filled or left unfilled).
    public let label: String
    /// Virtual microseconds: the presentation that filled a stop, or the moment the user left it.
    public package(set) var time: Int64
    /// The rows on screen, top to bottom.
    public let rows: [ScreenRow]
    /// When the scroll came to rest, for a stop's snapshot (nil for the end): `time` minus this is the wait.
    public var stoppedAt: Int64? = nil
    /// Whether this stop was left (by a touch-down, a relaunch or the end of the run) before every visible
    /// row showed its final content: the screen then is what the user left behind.
    public var isUnfilled = false

    package init(
        label: String, time: Int64, rows: [ScreenRow], stoppedAt: Int64? = nil, isUnfilled: Bool = false
    ) {
        self.label = label
        self.time = time
        self.rows = rows
        self.stoppedAt = stoppedAt
        self.isUnfilled = isUnfilled
    }
}
