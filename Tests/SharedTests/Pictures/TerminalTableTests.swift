import Foundation
import Imaging
import Report
import Testing

@testable import Pictures

/// The live table's frames, read back cell by cell: by a small terminal interpreter, and by tmux.
extension PicturePartsTests {
    /// A poster exactly the table's poster size, every pixel different: red from the column, green from
    /// the pixel row, blue from the table row.
    static func poster(row: Int, columns: Int = 12, pixels: Int = 16) -> Bitmap {
        var bytes: [UInt8] = []
        for y in 0..<pixels {
            for x in 0..<columns {
                bytes += [UInt8(x * 20), UInt8(y * 15), UInt8(40 + row * 100), 255]
            }
        }
        return Bitmap(width: columns, height: pixels, rgba: bytes)
    }

    static func row(_ index: Int, title: String, shows: String = "image", spinning: Bool = false) -> ScreenRow
    {
        ScreenRow(
            row: index, title: title, shows: shows, imageHash: nil, url: "http://img1.example/\(index).png",
            spinning: spinning, bitmap: shows == "image" ? poster(row: index) : nil)
    }

    /// Where a poster's cells begin on each of its lines: after two spaces.
    static let posterStart = 2

    /// Checks that every poster cell of `rows` in `grid` shows its two pixels.
    static func expectPosters(in grid: TerminalGrid, rows: [Int], table: TerminalTable) {
        for (slot, index) in rows.enumerated() {
            let picture = poster(row: index)
            for line in 0..<table.posterLines {
                let cells = grid.lines[slot * table.posterLines + line]
                for column in 0..<table.posterColumns {
                    let cell = cells[posterStart + column]
                    #expect(cell.character == "▀")
                    #expect(cell.foreground == picture.pixel(x: column, y: line * 2))
                    #expect(cell.background == picture.pixel(x: column, y: line * 2 + 1))
                }
            }
        }
    }

    @Test func everyPosterCellShowsItsUpperPixelInFrontAndItsLowerPixelBehind() {
        let table = TerminalTable()
        let frame = table.frame(
            rows: [Self.row(0, title: "Alpha"), Self.row(1, title: "Beta")], status: "live", spinnerStep: 0)
        let grid = TerminalGrid(frame)
        Self.expectPosters(in: grid, rows: [0, 1], table: table)
        #expect(grid.text(ofLine: 0).hasSuffix("  Alpha"))
        #expect(grid.text(ofLine: table.posterLines).hasSuffix("  Beta"))
        #expect(grid.text(ofLine: 2 * table.posterLines) == "live")
        #expect(grid.lines.count == 2 * table.posterLines + 1)
    }

    @Test func aPlaceholderIsGreyAFailureRedAndEachSaysWhatItIs() {
        let table = TerminalTable()
        let frame = table.frame(
            rows: [
                Self.row(0, title: "Waiting", shows: "placeholder"),
                Self.row(1, title: "Gone", shows: "failed"),
            ],
            status: "", spinnerStep: 0)
        let grid = TerminalGrid(frame)
        let placeholder = grid.lines[0][Self.posterStart]
        let failure = grid.lines[table.posterLines][Self.posterStart]
        #expect(placeholder.foreground == RGBA(red: 200, green: 200, blue: 204))
        #expect(failure.foreground == RGBA(red: 214, green: 40, blue: 40))
        #expect(grid.text(ofLine: 1).hasSuffix("  placeholder"))
        #expect(grid.text(ofLine: table.posterLines + 1).hasSuffix("  failed"))
    }

    @Test func aSpinningRowsSpinnerTurnsFromOneFrameToTheNext() {
        let table = TerminalTable()
        let rows = [Self.row(0, title: "Loading", shows: "placeholder", spinning: true)]
        let first = TerminalGrid(table.frame(rows: rows, status: "", spinnerStep: 0)).text(ofLine: 1)
        let second = TerminalGrid(table.frame(rows: rows, status: "", spinnerStep: 1)).text(ofLine: 1)
        #expect(first.hasSuffix("spinner ⠋"))
        #expect(second.hasSuffix("spinner ⠙"))
    }

    @Test func aTitleWiderThanTheTerminalIsCutAtAWholeCharacter() {
        var table = TerminalTable()
        table.columns = 24
        // 24 columns leave 8 for the title beside a 12-column poster: four wide characters.
        let frame = table.frame(rows: [Self.row(0, title: "霸王别姬霸王别姬")], status: "", spinnerStep: 0)
        #expect(TerminalGrid(frame).text(ofLine: 0).hasSuffix("  霸王别姬"))
    }

    @Test func aShorterFrameWrittenOverALongerOneLeavesNothingOfIt() {
        let table = TerminalTable()
        let long = table.frame(
            rows: (0..<3).map { Self.row($0, title: "Row \($0) with a long title") }, status: "first",
            spinnerStep: 0)
        let short = table.frame(rows: [Self.row(0, title: "Row 0")], status: "second", spinnerStep: 0)
        let grid = TerminalGrid(long + short)
        #expect(grid.lines.count == table.posterLines + 1)
        #expect(grid.text(ofLine: 0).hasSuffix("  Row 0"))
        #expect(grid.text(ofLine: table.posterLines) == "second")
    }

    @Test func theCubePaletteNamesTheNearestOfItsSixLevelsOnEachChannel() {
        #expect(TerminalPalette.cubeIndex(RGBA(red: 0, green: 0, blue: 0)) == 16)
        #expect(TerminalPalette.cubeIndex(RGBA(red: 255, green: 255, blue: 255)) == 231)
        #expect(TerminalPalette.cubeIndex(RGBA(red: 95, green: 135, blue: 175)) == 16 + 36 + 12 + 3)
        #expect(TerminalPalette.cubeIndex(RGBA(red: 50, green: 200, blue: 230)) == 16 + 36 * 1 + 6 * 4 + 4)
        var table = TerminalTable()
        table.palette = .ansi256
        let grid = TerminalGrid(table.frame(rows: [Self.row(0, title: "A")], status: "", spinnerStep: 0))
        let picture = Self.poster(row: 0)
        for column in 0..<table.posterColumns {
            let top = picture.pixel(x: column, y: 0)
            let expected = TerminalGrid.cubeColor(TerminalPalette.cubeIndex(top))
            #expect(grid.lines[0][Self.posterStart + column].foreground == expected)
        }
    }

    @Test(.enabled(if: TmuxPane.tmux != nil, "tmux is not installed (.ci/run installs it)"))
    func tmuxShowsEveryPosterCellInTheColoursTheFrameSent() throws {
        let table = TerminalTable()
        let frame = table.frame(
            rows: [Self.row(0, title: "Alpha"), Self.row(1, title: "Beta")], status: "end of frame",
            spinnerStep: 0)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "workbook-tmux-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("frame.txt")
        try Data(frame.utf8).write(to: file)
        let pane = try #require(TmuxPane(running: "printf '\\033[2J'; cat '\(file.path)'; sleep 30"))
        defer { pane.close() }
        let grid = TerminalGrid(pane.capture(waitingFor: "end of frame"))
        #expect(grid.text(ofLine: 2 * table.posterLines).hasPrefix("end of frame"))
        Self.expectPosters(in: grid, rows: [0, 1], table: table)
    }
}
