import Imaging

/// One visible row of a snapshot.
public struct ScreenRow: Sendable, Equatable {
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
    /// When the cell shows another row's poster (a mix-up): the title of the row whose poster it is.
    public var wrongPosterOf: String? = nil

    package init(
        row: Int, title: String, shows: String, imageHash: String?, url: String, spinning: Bool,
        bitmap: Bitmap?, wrongPosterOf: String? = nil
    ) {
        self.row = row
        self.title = title
        self.shows = shows
        self.imageHash = imageHash
        self.url = url
        self.spinning = spinning
        self.bitmap = bitmap
        self.wrongPosterOf = wrongPosterOf
    }
}
