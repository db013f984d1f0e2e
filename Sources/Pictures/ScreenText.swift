import Imaging
import Report
import Text

/// The `--screens` output: the visible rows at every scroll stop that filled and at the end, as text.
///
/// Plain text is identical on every run and diffs cleanly. In colour, each row also gets its poster as a
/// small 24-bit-colour thumbnail drawn with half-block characters (`▀`: the top pixel in the foreground
/// colour, the bottom one in the background colour).
package enum ScreenText {
    /// Thumbnail width in terminal columns (one pixel each).
    static let thumbnailWidth = 8
    /// Thumbnail height in pixels (two per terminal line).
    static let thumbnailHeight = 10

    /// Every screen of a run, one block each, stops first and the end last.
    package static func render(_ result: RunResult, color: Bool) -> String {
        var lines = ["screens · \(result.step) · \(result.scenario) · seed \(result.seed)"]
        for (index, stop) in result.stops.enumerated() {
            lines.append("")
            lines.append(bold(heading(stop, number: index + 1, of: result.stops.count), color: color))
            lines += rowLines(stop, color: color)
        }
        lines.append("")
        lines.append(bold(heading(result.finalScreen, number: nil, of: result.stops.count), color: color))
        lines += rowLines(result.finalScreen, color: color)
        return lines.joined(separator: "\n") + "\n"
    }

    /// A screen's heading: which stop, when the table came to rest, and how long the rows took to fill or,
    /// for a stop the user left before every row showed its poster, how long it was watched unfilled.
    static func heading(_ snapshot: ScreenSnapshot, number: Int?, of count: Int) -> String {
        guard let number else {
            return "end · at \(MetricValue.seconds(snapshot.time).formatted) s"
        }
        guard let stoppedAt = snapshot.stoppedAt else {
            return "stop \(number) of \(count) · filled at \(MetricValue.seconds(snapshot.time).formatted) s"
        }
        return "stop \(number) of \(count) · at rest at \(MetricValue.seconds(stoppedAt).formatted) s · "
            + (snapshot.isUnfilled ? "left unfilled after " : "filled after ")
            + "\(MetricValue.milliseconds(snapshot.time - stoppedAt).formatted) ms"
    }

    /// What a cell shows, in the words the reports use (`shows` in `--json`, `cell_image` in the trace):
    /// image, placeholder or failed, with `+spinner` while its spinner turns (a bare placeholder with
    /// a spinner is `spinner`).
    static func showsWord(_ row: ScreenRow) -> String {
        switch row.shows {
        case "image", "failed": return row.spinning ? "\(row.shows)+spinner" : row.shows
        default: return row.spinning ? "spinner" : "placeholder"
        }
    }

    /// One line per row (plain), or a thumbnail's lines per row with the text beside its first line.
    static func rowLines(_ snapshot: ScreenSnapshot, color: Bool) -> [String] {
        var lines: [String] = []
        for row in snapshot.rows {
            let text =
                "  " + TextReport.leftPad(String(row.row), 4) + "  " + padded(showsWord(row), toWidth: 12)
                + "  "
                + row.title + (row.wrongPosterOf.map { "  <- WRONG PICTURE: the poster of \"\($0)\"" } ?? "")
            guard color else {
                lines.append(text)
                continue
            }
            let thumbnail = halfBlocks(for: row)
            for (index, picture) in thumbnail.enumerated() {
                lines.append("  " + picture + (index == 0 ? text : ""))
            }
        }
        return lines
    }

    /// The row's thumbnail as terminal lines in 24-bit colour, `thumbnailWidth` columns by
    /// `thumbnailHeight` pixels (two a line): the poster, or grey for a placeholder, red for a failure.
    static func halfBlocks(for row: ScreenRow) -> [String] {
        let width = thumbnailWidth
        let height = thumbnailHeight
        let palette = TerminalPalette.trueColor
        let picture: Bitmap
        if let poster = row.bitmap, row.shows == "image" {
            picture = Thumbnail.scaled(poster, width: width, height: height)
        } else {
            let fill =
                row.shows == "failed"
                ? ScreenRenderer.failureRed : ScreenRenderer.placeholderGrey
            picture = Bitmap(width: width, height: height, filledWith: fill)
        }
        var lines: [String] = []
        for line in 0..<(height / 2) {
            var text = ""
            for column in 0..<width {
                let top = picture.pixel(x: column, y: line * 2)
                let bottom = picture.pixel(x: column, y: line * 2 + 1)
                text += palette.foreground(top) + palette.background(bottom) + "▀"
            }
            lines.append(text + "\u{1B}[0m")
        }
        return lines
    }

    /// The text followed by spaces up to `width` terminal cells, so the next column lines up.
    static func padded(_ text: String, toWidth width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
    }

    /// Bold text in colour mode.
    static func bold(_ text: String, color: Bool) -> String {
        color ? "\u{1B}[1m\(text)\u{1B}[0m" : text
    }
}
