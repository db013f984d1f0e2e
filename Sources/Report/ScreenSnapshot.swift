import Imaging

/// The visible rows at one moment, as the user saw them.
package struct ScreenSnapshot: Sendable {
    /// What moment this is ("end", or the stop it filled or left unfilled).
    package let label: String
    /// Virtual microseconds: the presentation that filled a stop, or the moment the user left it.
    package var time: Int64
    /// The rows on screen, top to bottom.
    package let rows: [ScreenRow]
    /// When the scroll came to rest, for a stop's snapshot (nil for the end): `time` minus this is the wait.
    package var stoppedAt: Int64? = nil
    /// Whether this stop was left (by a touch-down, a relaunch or the end of the run) before every visible
    /// row showed its final content: the screen then is what the user left behind.
    package var isUnfilled = false

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

/// One visible row of a snapshot.
package struct ScreenRow: Sendable, Equatable {
    package let row: Int
    /// The movie's title.
    package let title: String
    /// `image`, `placeholder` or `failed`.
    package let shows: String
    /// The pixel hash of what the cell shows (nil for the placeholder).
    package let imageHash: String?
    /// The row's poster URL as in the catalog.
    package let url: String
    /// Whether the cell's spinner is turning.
    package let spinning: Bool
    /// When the cell shows another row's poster (a mix-up): the title of the row whose poster it is.
    package var wrongPosterOf: String? = nil
    /// Makes the poster's pixels when they are asked for, so that a snapshot holds the picture the cell
    /// showed (shared by every snapshot that shows it), not a copy of its pixels.
    private let pixels: (@Sendable () -> Bitmap)?

    /// The poster's pixels, when it shows one.
    package var bitmap: Bitmap? { pixels?() }

    /// Whether the row has a poster's pixels to give (without making them).
    package var hasPixels: Bool { pixels != nil }

    package init(
        row: Int, title: String, shows: String, imageHash: String?, url: String, spinning: Bool,
        bitmap: Bitmap?, wrongPosterOf: String? = nil
    ) {
        var held: (@Sendable () -> Bitmap)?
        if let bitmap { held = { bitmap } }
        self.init(
            row: row, title: title, shows: shows, imageHash: imageHash, url: url, spinning: spinning,
            pixels: held, wrongPosterOf: wrongPosterOf)
    }

    /// A row whose poster's pixels `pixels` makes when they are asked for.
    package init(
        row: Int, title: String, shows: String, imageHash: String?, url: String, spinning: Bool,
        pixels: (@Sendable () -> Bitmap)?, wrongPosterOf: String? = nil
    ) {
        self.row = row
        self.title = title
        self.shows = shows
        self.imageHash = imageHash
        self.url = url
        self.spinning = spinning
        self.pixels = pixels
        self.wrongPosterOf = wrongPosterOf
    }

    /// Rows are equal when they say the same and show the same pixels (the same `imageHash`).
    package static func == (left: ScreenRow, right: ScreenRow) -> Bool {
        left.row == right.row && left.title == right.title && left.shows == right.shows
            && left.imageHash == right.imageHash && left.url == right.url && left.spinning == right.spinning
            && left.wrongPosterOf == right.wrongPosterOf && left.hasPixels == right.hasPixels
    }
}
