import Foundation
import Imaging
import LiveTerminal
import Testing
import Text

/// The live table's frames, read back cell by cell by a small terminal interpreter (`TerminalGrid`).
@Suite struct TableRendererTests {
    /// Checks every cell of `FixtureFrame` as `grid` shows it, drawn at the full level: each poster line on
    /// screen with its two pixels a cell, the text beside it, and the status line below the table.
    static func expectFixture(in grid: TerminalGrid, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = TableRenderer.posterLines
        let start = TableRenderer.posterStart
        // Scrolled half a row: row 0's lower half on lines 0-3, then rows 1, 2 and 3 a poster high each.
        let expected: [(line: Int, row: Int, posterLine: Int)] =
            (0..<4).map { (line: $0, row: 0, posterLine: $0 + 4) }
            + (1...3).flatMap { row in
                (0..<lines).map { (line: 4 + (row - 1) * lines + $0, row: row, posterLine: $0) }
            }
        for (line, row, posterLine) in expected {
            let cells = grid.lines.indices.contains(line) ? grid.lines[line] : []
            guard cells.count >= start + TableRenderer.posterColumns else {
                Issue.record("line \(line) has \(cells.count) cells", sourceLocation: sourceLocation)
                continue
            }
            for column in 0..<TableRenderer.posterColumns {
                let top: RGBA
                var bottom: RGBA?
                switch row {
                case 1: (top, bottom) = (FixtureFrame.placeholderGrey, FixtureFrame.placeholderGrey)
                case 2: (top, bottom) = (FixtureFrame.failureRed, FixtureFrame.failureRed)
                default:
                    let poster = FixtureFrame.posterBitmap(row: row)
                    top = poster.pixel(x: column, y: posterLine * 2)
                    bottom = poster.pixel(x: column, y: posterLine * 2 + 1)
                }
                // The lower half of each row's last line is the gap between rows.
                if posterLine == lines - 1 { bottom = nil }
                let cell = cells[start + column]
                #expect(
                    cell.character == "▀", "line \(line) column \(column)", sourceLocation: sourceLocation)
                #expect(
                    cell.foreground == top, "line \(line) column \(column)", sourceLocation: sourceLocation)
                #expect(
                    cell.background == bottom, "line \(line) column \(column)", sourceLocation: sourceLocation
                )
            }
            let after = cells.dropFirst(start + TableRenderer.posterColumns)
            #expect(after.allSatisfy { $0.background == nil }, "line \(line)", sourceLocation: sourceLocation)
        }
        let beside = { (line: Int) in
            String(grid.text(ofLine: line).dropFirst(start + TableRenderer.posterColumns))
                .trimmingCharacters(in: .whitespaces)
        }
        // Row 0's text lines are scrolled off; its line 4 and below carry no text.
        #expect((0..<4).allSatisfy { beside($0).isEmpty }, sourceLocation: sourceLocation)
        #expect(beside(4) == "Waiting", sourceLocation: sourceLocation)
        #expect(beside(5) == "spinner ⠸", sourceLocation: sourceLocation)
        #expect(beside(6) == "row 1", sourceLocation: sourceLocation)
        #expect(beside(12) == "Gone", sourceLocation: sourceLocation)
        #expect(beside(13) == "failed", sourceLocation: sourceLocation)
        #expect(beside(20) == "霸王别姬", sourceLocation: sourceLocation)
        #expect(beside(21) == "image", sourceLocation: sourceLocation)
        #expect(
            grid.text(ofLine: 28).hasPrefix(FixtureFrame.status + " · 24-bit colour"),
            sourceLocation: sourceLocation)
        #expect(grid.lines.count == 29, sourceLocation: sourceLocation)
    }

    static func grid(_ bytes: [UInt8]) -> TerminalGrid {
        TerminalGrid(String(decoding: bytes, as: UTF8.self))
    }

    @Test func everyCellOfAFrameShowsItsPixelsAndItsTextWhereTheScrollOffsetPutsIt() {
        let bytes = TableRenderer().render(FixtureFrame.frame, level: .full, columns: 100, lines: 40)
        Self.expectFixture(in: Self.grid(bytes))
    }

    @Test func aTerminalShorterThanTheTableShowsItsTopAndTheStatusOnItsLastLine() {
        let bytes = TableRenderer().render(FixtureFrame.frame, level: .full, columns: 100, lines: 10)
        let grid = Self.grid(bytes)
        #expect(grid.lines.count == 10)
        #expect(grid.text(ofLine: 9).hasPrefix(FixtureFrame.status))
        #expect(grid.text(ofLine: 4).hasSuffix("  Waiting"))
    }

    @Test func aTitleWiderThanTheTerminalIsCutAtAWholeCharacterAndLosesItsControlCharacters() {
        var frame = FixtureFrame.frame
        frame.rows[1].title = "Wait\u{1B}[2Jing"
        frame.rows[3].title = "霸王别姬霸王别姬"
        // 24 columns leave 8 for the text beside a 12-column poster: four wide characters.
        let grid = Self.grid(TableRenderer().render(frame, level: .full, columns: 24, lines: 40))
        #expect(grid.text(ofLine: 20).hasSuffix("  霸王别姬"))
        #expect(grid.text(ofLine: 4).hasSuffix("  Wait[2Ji"))
        #expect(grid.lines.allSatisfy { $0.count <= 24 })
    }

    @Test func theFallbackLevelsDrawIn256ColoursAndThenWithPostersHalfAsLarge() {
        let renderer = TableRenderer()
        let cube = Self.grid(renderer.render(FixtureFrame.frame, level: .colors256, columns: 100, lines: 40))
        let poster = FixtureFrame.posterBitmap(row: 3)
        for column in 0..<TableRenderer.posterColumns {
            let top = poster.pixel(x: column, y: 0)
            #expect(
                cube.lines[20][TableRenderer.posterStart + column].foreground
                    == TerminalGrid.cubeColor(TerminalPalette.cubeIndex(top)))
        }
        #expect(cube.text(ofLine: 28).hasPrefix(FixtureFrame.status + " · 256 colours"))
        let small = Self.grid(
            renderer.render(FixtureFrame.frame, level: .smallPosters, columns: 100, lines: 40))
        // Rows 4 lines high: row 0's lower half on lines 0-1, row 3 from line 10, the status on line 14.
        #expect(small.text(ofLine: 10) == "  " + String(repeating: "▀", count: 6) + "  霸王别姬")
        #expect(
            small.text(ofLine: 14).hasPrefix(FixtureFrame.status + " · 256 colours, half rate, small posters")
        )
        #expect(small.lines.count == 15)
    }

    @Test func aShorterFrameWrittenOverALongerOneLeavesNothingOfIt() {
        let renderer = TableRenderer()
        var short = FixtureFrame.frame
        short.rows = [short.rows[1]]
        short.screenRows = 1
        let long = renderer.render(FixtureFrame.frame, level: .full, columns: 100, lines: 40)
        let grid = Self.grid(long + renderer.render(short, level: .full, columns: 100, lines: 40))
        #expect(grid.lines.count == TableRenderer.posterLines + 1)
        #expect(grid.text(ofLine: 4).hasSuffix("  Waiting"))
        #expect(grid.text(ofLine: 0).isEmpty)
    }

    @Test func aPosterLargerThanItsCellsIsScaledOnceAndItsCellsRememberedWhileItStaysOnScreen() {
        final class Owner: Sendable {}
        let owner = Owner()
        let large = Bitmap(width: 120, height: 160, filledWith: RGBA(red: 10, green: 200, blue: 30))
        let other = Bitmap(width: 120, height: 160, filledWith: RGBA(red: 250, green: 5, blue: 5))
        let renderer = TableRenderer()
        func frame(_ bitmap: Bitmap) -> TableFrame {
            let picture = TableFrame.Picture(bitmap: bitmap, owner: owner)
            return TableFrame(
                rows: [
                    TableFrame.Row(index: 0, title: "A", shows: .image, picture: picture, spinning: false)
                ],
                topRow: 0, screenRows: 1, status: "", spinnerStep: 0)
        }
        let first = Self.grid(renderer.render(frame(large), level: .full, columns: 80, lines: 24))
        #expect(first.lines[0][TableRenderer.posterStart].foreground == RGBA(red: 10, green: 200, blue: 30))
        // The same owner names the same pixels: its cells are not scaled again (a different bitmap under
        // the same owner would break that promise, and shows the cells remembered).
        let second = Self.grid(renderer.render(frame(other), level: .full, columns: 80, lines: 24))
        #expect(second.lines[0][TableRenderer.posterStart].foreground == RGBA(red: 10, green: 200, blue: 30))
        // Off screen for one frame, it is forgotten.
        _ = renderer.render(
            TableFrame(rows: [], topRow: 0, screenRows: 1, status: "", spinnerStep: 0), level: .full,
            columns: 80,
            lines: 24)
        let third = Self.grid(renderer.render(frame(other), level: .full, columns: 80, lines: 24))
        #expect(third.lines[0][TableRenderer.posterStart].foreground == RGBA(red: 250, green: 5, blue: 5))
    }
}
