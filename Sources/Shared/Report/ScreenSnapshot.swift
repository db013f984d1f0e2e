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

/// One visible row of a snapshot.
public struct ScreenRow: Sendable, Equatable {
    /// The row number.
    public let row: Int
    /// The movie's title.
    public let title: String
    /// `image`, `placeholder` or `failed`.
    public let shows: String
    /// The pixel hash of what the cell shows (nil for the placeholder).
    public let imageHash: String?
    /// The row's poster URL as in the catalog.
    public let url: String
    /// Whether the cell's spinner is turning.
    public let spinning: Bool
    /// The poster's pixels, when it shows one.
    public let bitmap: Bitmap?
}
