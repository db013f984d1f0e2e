import Imaging

/// One frame of the live table, as the main thread saw it: the rows on screen with what each cell shows,
/// how far the table is scrolled, and a status line. It holds references to the cells' immutable pictures,
/// never copies of their pixels, so taking one costs the main thread next to nothing; `TableRenderer`
/// scales the pictures and writes the escape codes, on the render thread.
public struct TableFrame: Sendable {
    /// What a cell shows, in the words the reports use.
    public enum Shows: Sendable {
        case image, placeholder, failed
        /// No image at all (a cell the app has not given one).
        case nothing
    }

    /// A cell's picture: its pixels and the object they belong to.
    public struct Picture: Sendable {
        public let bitmap: Bitmap
        /// The image the pixels belong to, immutable: the renderer remembers its scaled cells by this
        /// object's identity while it holds the object. Nil: scaled again every frame.
        public let owner: (any AnyObject & Sendable)?

        public init(bitmap: Bitmap, owner: (any AnyObject & Sendable)?) {
            self.bitmap = bitmap
            self.owner = owner
        }
    }

    /// One visible row.
    public struct Row: Sendable {
        public var index: Int
        public var title: String
        public var shows: Shows
        public var picture: Picture?
        /// Whether the cell's spinner is turning.
        public var spinning: Bool

        public init(index: Int, title: String, shows: Shows, picture: Picture?, spinning: Bool) {
            self.index = index
            self.title = title
            self.shows = shows
            self.picture = picture
            self.spinning = spinning
        }
    }

    public var rows: [Row]
    /// How far the table is scrolled, in rows from the top (the content offset over the row height).
    public var topRow: Double
    /// How many rows the phone's screen is high.
    public var screenRows: Double
    /// The live figures for the line below the table.
    public var status: String
    /// Turns the spinners: one glyph further each step.
    public var spinnerStep: Int

    public init(rows: [Row], topRow: Double, screenRows: Double, status: String, spinnerStep: Int) {
        self.rows = rows
        self.topRow = topRow
        self.screenRows = screenRows
        self.status = status
        self.spinnerStep = spinnerStep
    }
}
