import Imaging
import Report

/// Draws a screen snapshot as a picture of the table: a caption, then each visible row with its
/// thumbnail (the poster scaled down, a grey placeholder or the failure image), its title in the built-in
/// font, what it shows, and a ring where the spinner turns.
enum ScreenRenderer {
    /// The picture's width in pixels.
    static let width = 375
    /// The caption bar's height.
    static let captionHeight = 28
    /// Each row's height.
    static let rowHeight = 88
    /// Where a row's thumbnail box sits, relative to the row's top-left corner.
    static let thumbnailBox = (x: 10, y: 6, width: 56, height: 76)
    /// Where titles begin.
    static let textLeft = 76

    /// The page colour.
    static let background = RGBA(red: 255, green: 255, blue: 255)
    /// The placeholder's grey.
    static let placeholderGrey = RGBA(red: 200, green: 200, blue: 204)
    /// Title ink.
    static let ink = RGBA(red: 28, green: 28, blue: 30)
    /// Secondary text.
    static let secondaryInk = RGBA(red: 120, green: 120, blue: 128)
    /// Separators and the caption bar.
    static let separator = RGBA(red: 226, green: 226, blue: 230)
    /// The failure image's cross.
    static let failureRed = RGBA(red: 214, green: 40, blue: 40)

    /// The picture of a snapshot, with a caption on top.
    static func render(_ snapshot: ScreenSnapshot, caption: String) -> Bitmap {
        let height = captionHeight + max(1, snapshot.rows.count) * rowHeight
        var canvas = Canvas(width: width, height: height, background: background)
        canvas.fill(x: 0, y: 0, width: width, height: captionHeight, separator)
        canvas.text(Canvas.truncated(caption, limit: (width - 16) / 12), x: 8, y: 7, scale: 2, ink)
        for (index, row) in snapshot.rows.enumerated() {
            let top = captionHeight + index * rowHeight
            drawThumbnail(of: row, top: top, on: &canvas)
            let lines = wrap(row.title, width: (width - textLeft - 36) / (BitmapFont.advance * 2), lines: 2)
            for (lineIndex, line) in lines.enumerated() {
                canvas.text(line, x: textLeft, y: top + 12 + lineIndex * 20, scale: 2, ink)
            }
            canvas.text(
                "row \(row.row) - \(ScreenText.showsWord(row))", x: textLeft, y: top + 60, scale: 1,
                secondaryInk)
            if row.spinning {
                canvas.ring(
                    centerX: width - 22, centerY: top + rowHeight / 2, outerRadius: 10, innerRadius: 7,
                    secondaryInk)
            }
            canvas.fill(x: textLeft, y: top + rowHeight - 1, width: width - textLeft, height: 1, separator)
            if let owner = row.wrongPosterOf {
                markWrongPicture(owner: owner, top: top, on: &canvas)
            }
        }
        return canvas.bitmap
    }

    /// A red frame around a cell that shows another row's poster, and whose poster it is.
    static func markWrongPicture(owner: String, top: Int, on canvas: inout Canvas) {
        for inset in 0..<3 {
            canvas.fill(x: inset, y: top + inset, width: width - 2 * inset, height: 1, failureRed)
            canvas.fill(
                x: inset, y: top + rowHeight - 1 - inset, width: width - 2 * inset, height: 1, failureRed)
            canvas.fill(x: inset, y: top + inset, width: 1, height: rowHeight - 2 * inset, failureRed)
            canvas.fill(
                x: width - 1 - inset, y: top + inset, width: 1, height: rowHeight - 2 * inset, failureRed)
        }
        let label = Canvas.truncated(
            "WRONG: poster of " + owner, limit: (width - textLeft - 8) / BitmapFont.advance)
        canvas.text(label, x: textLeft, y: top + 72, scale: 1, failureRed)
    }

    /// Where a poster's thumbnail lands for the row at `index` on screen: centred in the thumbnail box,
    /// keeping the poster's shape.
    static func thumbnailFrame(index: Int, posterWidth: Int, posterHeight: Int) -> (
        x: Int, y: Int, width: Int, height: Int
    ) {
        let size = Thumbnail.fittingSize(
            width: posterWidth, height: posterHeight, box: (thumbnailBox.width, thumbnailBox.height))
        let top = captionHeight + index * rowHeight + thumbnailBox.y
        return (
            thumbnailBox.x + (thumbnailBox.width - size.width) / 2,
            top + (thumbnailBox.height - size.height) / 2,
            size.width, size.height
        )
    }

    /// Draws what the row's image view shows.
    static func drawThumbnail(of row: ScreenRow, top: Int, on canvas: inout Canvas) {
        let box = (
            x: thumbnailBox.x, y: top + thumbnailBox.y, width: thumbnailBox.width, height: thumbnailBox.height
        )
        if let poster = row.bitmap, row.shows == "image" {
            let index = (top - captionHeight) / rowHeight
            let frame = thumbnailFrame(index: index, posterWidth: poster.width, posterHeight: poster.height)
            canvas.draw(
                Thumbnail.scaled(poster, width: frame.width, height: frame.height), x: frame.x, y: frame.y)
        } else if row.shows == "failed" {
            canvas.fill(x: box.x, y: box.y, width: box.width, height: box.height, separator)
            let inset = 14
            canvas.line(
                from: (box.x + inset, box.y + inset + 10),
                to: (box.x + box.width - inset, box.y + box.height - inset - 10),
                thickness: 4, failureRed)
            canvas.line(
                from: (box.x + box.width - inset, box.y + inset + 10),
                to: (box.x + inset, box.y + box.height - inset - 10),
                thickness: 4, failureRed)
        } else {
            canvas.fill(x: box.x, y: box.y, width: box.width, height: box.height, placeholderGrey)
        }
    }

    /// Breaks text into at most `lines` lines of at most `width` characters, at spaces where it can; the
    /// last line ends in `..` when text is left over.
    static func wrap(_ text: String, width: Int, lines: Int) -> [String] {
        var result: [String] = []
        var remaining = Substring(text)
        while !remaining.isEmpty, result.count < lines {
            if remaining.count <= width {
                result.append(String(remaining))
                remaining = ""
                break
            }
            if result.count == lines - 1 {
                result.append(Canvas.truncated(String(remaining), limit: width))
                remaining = ""
                break
            }
            let window = remaining.prefix(width + 1)
            let cut = window.lastIndex(of: " ") ?? remaining.index(remaining.startIndex, offsetBy: width)
            result.append(String(remaining[..<cut]))
            remaining = remaining[cut...].drop { $0 == " " }
        }
        return result
    }
}
