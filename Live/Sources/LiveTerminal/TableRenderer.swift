import Imaging
import LiveLock
import Text

/// Draws a `TableFrame` as a terminal's bytes: each row's picture in half-block cells (`▀`, the upper pixel
/// in front, the lower one behind; the lower half of a row's last line left blank, a gap between rows)
/// with its title, what the cell shows and its spinner beside it, placed
/// by the table's scroll offset so that a row partly scrolled off shows only its lines still on screen,
/// then a reversed status line that names the terminal's fallback level. A frame starts at the top left
/// corner and clears what an earlier, longer frame left, so frames can be written one over another. Only
/// the rows that fit the terminal (less one line for the status) are drawn.
///
/// It remembers each picture's scaled cells while the picture stays on screen, so a poster is scaled once
/// when it arrives, not every frame.
public final class TableRenderer: Sendable {
    /// A poster's size in terminal cells at the full levels: one pixel wide, two high, each.
    public static let posterColumns = 12
    public static let posterLines = 8

    /// The spinner's glyphs, one a step of its turn.
    public static let spinnerGlyphs = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

    /// Where a row's poster begins on each of its lines: after two spaces.
    public static let posterStart = 2

    private struct Key: Hashable {
        let owner: ObjectIdentifier
        let columns: Int
    }

    private struct Scaled {
        /// Held so that `Key`'s identity cannot be reused by another picture while it is remembered.
        let owner: any AnyObject & Sendable
        let cells: Bitmap
    }

    private let scaled = Mutex<[Key: Scaled]>([:])

    public init() {}

    /// The poster size at `level`: half as wide and high at `.smallPosters`.
    public static func posterSize(at level: TerminalFallback.Level) -> (columns: Int, lines: Int) {
        level >= .smallPosters ? (posterColumns / 2, posterLines / 2) : (posterColumns, posterLines)
    }

    /// The frame's bytes at `level` for a terminal of `columns` × `lines` cells.
    public func render(_ frame: TableFrame, level: TerminalFallback.Level, columns: Int, lines: Int)
        -> [UInt8]
    {
        let palette: TerminalPalette = level == .full ? .trueColor : .ansi256
        let poster = Self.posterSize(at: level)
        let columns = max(1, columns)
        var pictures: [Int: Bitmap] = [:]
        var kept: [Key: Scaled] = [:]
        for row in frame.rows {
            pictures[row.index] = cells(for: row, size: poster, keeping: &kept)
        }
        // Only the pictures of this frame stay remembered.
        scaled.withLock { $0 = kept }

        var out: [UInt8] = []
        out.reserveCapacity(64 * 1024)
        out.append(contentsOf: "\u{1B}[H".utf8)
        let tableLines = max(0, min(lines - 1, Int((frame.screenRows * Double(poster.lines)).rounded(.up))))
        var rowAt: [Int: (row: TableFrame.Row, line: Int)] = [:]
        for row in frame.rows {
            let top = Int(((Double(row.index) - frame.topRow) * Double(poster.lines)).rounded())
            for line in 0..<poster.lines where (0..<tableLines).contains(top + line) {
                rowAt[top + line] = (row, line)
            }
        }
        let posterColumns = min(poster.columns, max(0, columns - Self.posterStart))
        let textColumns = max(0, columns - Self.posterStart - poster.columns - 2)
        let spinner = Self.spinnerGlyphs[((frame.spinnerStep % 10) + 10) % 10]
        for screenLine in 0..<tableLines {
            if let (row, line) = rowAt[screenLine], let picture = pictures[row.index] {
                out.append(contentsOf: "  ".utf8)
                // The lower half of a row's last line is left to the terminal's background: a gap, so
                // that rows of one colour (placeholders) do not run together.
                let gap = line == poster.lines - 1
                var last: (top: RGBA, bottom: RGBA?)?
                for column in 0..<posterColumns {
                    let top = picture.pixel(x: column, y: line * 2)
                    let bottom = gap ? nil : picture.pixel(x: column, y: line * 2 + 1)
                    if last?.top != top { out.append(contentsOf: palette.foreground(top).utf8) }
                    if last == nil || last?.bottom != bottom {
                        out.append(contentsOf: (bottom.map(palette.background) ?? "\u{1B}[49m").utf8)
                    }
                    last = (top, bottom)
                    out.append(contentsOf: "▀".utf8)
                }
                out.append(contentsOf: "\u{1B}[0m".utf8)
                let beside: String
                switch line {
                case 0: beside = row.title
                case 1: beside = Self.showsWord(row) + (row.spinning ? " \(spinner)" : "")
                case 2: beside = "row \(row.index)"
                default: beside = ""
                }
                if !beside.isEmpty, textColumns > 0 {
                    out.append(contentsOf: ("  " + Self.cut(beside, toWidth: textColumns)).utf8)
                }
            }
            out.append(contentsOf: "\u{1B}[K\r\n".utf8)
        }
        let status = frame.status + " · " + Self.levelWords(level)
        out.append(
            contentsOf: ("\u{1B}[7m" + Self.cut(status, toWidth: columns) + "\u{1B}[0m\u{1B}[K\u{1B}[J").utf8)
        return out
    }

    /// The row's picture scaled to `size`, in pixels (`size.lines` × 2 high): a remembered one when the
    /// same picture was scaled for an earlier frame. A row with no picture gets the terminal's black.
    private func cells(
        for row: TableFrame.Row, size: (columns: Int, lines: Int), keeping kept: inout [Key: Scaled]
    ) -> Bitmap {
        guard let picture = row.picture else {
            return Bitmap(
                width: size.columns, height: size.lines * 2, filledWith: RGBA(red: 0, green: 0, blue: 0))
        }
        guard let owner = picture.owner else {
            return Thumbnail.scaled(picture.bitmap, width: size.columns, height: size.lines * 2)
        }
        let key = Key(owner: ObjectIdentifier(owner), columns: size.columns)
        if let known = kept[key] ?? scaled.withLock({ $0[key] }) {
            kept[key] = known
            return known.cells
        }
        let cells = Thumbnail.scaled(picture.bitmap, width: size.columns, height: size.lines * 2)
        kept[key] = Scaled(owner: owner, cells: cells)
        return cells
    }

    /// What a cell shows, in the simulator's words: image, placeholder or failed, with `+spinner` while
    /// its spinner turns (a placeholder with a spinner is `spinner`).
    static func showsWord(_ row: TableFrame.Row) -> String {
        switch row.shows {
        case .image: row.spinning ? "image+spinner" : "image"
        case .failed: row.spinning ? "failed+spinner" : "failed"
        case .placeholder: row.spinning ? "spinner" : "placeholder"
        case .nothing: row.spinning ? "spinner" : "nothing"
        }
    }

    /// What the terminal is drawn with at `level`.
    static func levelWords(_ level: TerminalFallback.Level) -> String {
        switch level {
        case .full: "24-bit colour"
        case .colors256: "256 colours"
        case .halfRate: "256 colours, half rate"
        case .smallPosters: "256 colours, half rate, small posters"
        }
    }

    /// The text's first characters that fit in `width` terminal cells, without its control characters (so
    /// that a title cannot move the cursor or change the colours).
    static func cut(_ text: String, toWidth width: Int) -> String {
        var kept = ""
        var used = 0
        for character in text {
            if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                continue
            }
            let cells = DisplayWidth.of(String(character))
            if used + cells > width { break }
            kept.append(character)
            used += cells
        }
        return kept
    }
}
