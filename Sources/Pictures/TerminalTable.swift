import Imaging
import Report

/// One frame of the table as a terminal shows it while a step runs live: each visible row's poster in
/// half-block cells (the placeholder grey, the failure red, as on `--screens`) with its title, what the
/// cell shows and its spinner beside it, then one status line. A frame redraws the screen from its top
/// left corner and clears what an earlier, longer frame left, so frames can be written one over another.
package struct TerminalTable: Sendable, Equatable {
    /// A poster's width in terminal columns, one pixel each.
    package var posterColumns = 12
    /// A poster's height in terminal lines, two pixels each.
    package var posterLines = 8
    package var palette = TerminalPalette.trueColor
    /// The terminal's width in columns: longer text is cut to fit.
    package var columns = 80

    /// The spinner's glyphs, one a step of its turn.
    package static let spinnerGlyphs = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

    package init() {}

    /// The frame for `rows`, top to bottom, with `status` below them; `spinnerStep` turns the spinners.
    package func frame(rows: [ScreenRow], status: String, spinnerStep: Int) -> String {
        let clearToEnd = "\u{1B}[K"
        var text = "\u{1B}[H"
        let spinner = Self.spinnerGlyphs[spinnerStep % Self.spinnerGlyphs.count]
        let textColumns = max(0, columns - posterColumns - 4)
        for row in rows {
            let poster = ScreenText.halfBlocks(
                for: row, width: posterColumns, height: posterLines * 2, palette: palette)
            for (index, line) in poster.enumerated() {
                var beside = ""
                if index == 0 {
                    beside = row.title
                } else if index == 1 {
                    beside = ScreenText.showsWord(row) + (row.spinning ? " \(spinner)" : "")
                }
                text += "  " + line + "  " + Self.cut(beside, toWidth: textColumns) + clearToEnd + "\n"
            }
        }
        text += "\u{1B}[7m" + Self.cut(status, toWidth: columns) + "\u{1B}[0m" + clearToEnd + "\u{1B}[J"
        return text
    }

    /// The text's first characters that fit in `width` terminal cells.
    static func cut(_ text: String, toWidth width: Int) -> String {
        var kept = ""
        var used = 0
        for character in text {
            let cells = DisplayWidth.of(String(character))
            if used + cells > width { break }
            kept.append(character)
            used += cells
        }
        return kept
    }
}
