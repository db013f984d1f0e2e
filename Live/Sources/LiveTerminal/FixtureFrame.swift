import Imaging

/// A frame whose every cell is known, for checking that a terminal shows what `TableRenderer` sent:
/// `LiveTerminalFixture` draws it in a real terminal and the tests read it back.
///
/// The table is scrolled half a row down, so row 0 shows only its lower half; row 1 shows the
/// placeholder with its spinner, row 2 the failure picture, row 3 a poster under a wide-character title.
/// Each poster is exactly the renderer's poster size in pixels, every pixel different: red from the
/// column, green from the pixel row, blue from the table row.
public enum FixtureFrame {
    /// The grey of the placeholder and the red of the failure picture, one pixel each, as the live
    /// images are.
    public static let placeholderGrey = RGBA(red: 200, green: 200, blue: 200)
    public static let failureRed = RGBA(red: 90, green: 0, blue: 0)

    /// The text the status line starts with.
    public static let status = "fixture frame"

    public static var frame: TableFrame {
        TableFrame(
            rows: [
                TableFrame.Row(
                    index: 0, title: "Alpha", shows: .image, picture: poster(row: 0), spinning: false),
                TableFrame.Row(
                    index: 1, title: "Waiting", shows: .placeholder, picture: filled(placeholderGrey),
                    spinning: true),
                TableFrame.Row(
                    index: 2, title: "Gone", shows: .failed, picture: filled(failureRed), spinning: false),
                TableFrame.Row(
                    index: 3, title: "霸王别姬", shows: .image, picture: poster(row: 3), spinning: false),
            ],
            topRow: 0.5, screenRows: 3.5, status: status, spinnerStep: 3)
    }

    /// The poster of a table row, exactly the renderer's poster size.
    public static func posterBitmap(row: Int) -> Bitmap {
        let columns = TableRenderer.posterColumns
        let pixels = TableRenderer.posterLines * 2
        var bytes: [UInt8] = []
        for y in 0..<pixels {
            for x in 0..<columns {
                bytes += [UInt8(x * 20), UInt8(y * 15), UInt8(40 + row * 60), 255]
            }
        }
        return Bitmap(width: columns, height: pixels, rgba: bytes)
    }

    private static func poster(row: Int) -> TableFrame.Picture {
        TableFrame.Picture(bitmap: posterBitmap(row: row), owner: nil)
    }

    private static func filled(_ color: RGBA) -> TableFrame.Picture {
        TableFrame.Picture(bitmap: Bitmap(width: 1, height: 1, filledWith: color), owner: nil)
    }
}
