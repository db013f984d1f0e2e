import Foundation
import Shared
import TestSupport
import Testing

@testable import Runtime
@testable import UI
@testable import World

/// A cell that counts what happens to it.
final class CountingCell: TableViewCell {
    /// Rows this cell has been handed out for, in order.
    var rowsShown: [Int] = []
    /// Whether `prepareForReuse()` ran since the cell was last configured.
    var prepared = false
    var prepareCount = 0

    override func prepareForReuse() {
        super.prepareForReuse()
        prepared = true
        prepareCount += 1
    }
}

/// An app whose cells count their lives.
final class ReuseApp: ScriptApp, @unchecked Sendable {
    /// Every distinct cell handed out, in order of first use.
    var cells: [CountingCell] = []
    /// For each `cellForRow`: the row, the cell, whether the cell was reused, and whether it was prepared.
    var handouts: [(row: Int, cell: ObjectIdentifier, reused: Bool, prepared: Bool)] = []
    /// For each `didEndDisplaying`: the row and the cell.
    var endings: [(row: Int, cell: ObjectIdentifier)] = []

    override func viewDidLoad() {
        tableView.register(CountingCell.self, forCellReuseIdentifier: "Cell")
        super.viewDidLoad()
    }

    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = super.tableView(tableView, cellForRowAt: indexPath) as! CountingCell
        let reused = !cell.rowsShown.isEmpty
        if !reused { cells.append(cell) }
        handouts.append((indexPath.row, ObjectIdentifier(cell), reused, cell.prepared))
        cell.prepared = false
        cell.rowsShown.append(indexPath.row)
        return cell
    }

    override func tableView(
        _ tableView: TableView, didEndDisplaying cell: TableViewCell, forRowAt indexPath: IndexPath
    ) {
        super.tableView(tableView, didEndDisplaying: cell, forRowAt: indexPath)
        endings.append((indexPath.row, ObjectIdentifier(cell)))
    }
}

/// The table view: reuse, `prepareForReuse`, `didEndDisplaying`, and wrong-image detection.
extension WorldTests {
    @Test("A long drag recycles about a screen's worth of cells, preparing each one for reuse")
    func longDragRecyclesCells() throws {
        var app: ReuseApp?
        let log = Log()
        let scenario = testScenario(
            "long-drag", rows: 200,
            actions: [.wait(microseconds: 200_000), .drag(toRow: 100, microseconds: 2_000_000)])
        _ = try play(scenario) {
            let made = ReuseApp(log: log)
            app = made
            return made
        }
        let table = try #require(app)
        // At offset 8 800 (row 100 at the top) a 667-point viewport shows rows 100...107.
        let rowsHandedOut = table.handouts.map(\.row)
        #expect(rowsHandedOut == Array(0...107))
        // 667 / 88 is 7.6 rows: at most 9 rows show at once, so about ten cells serve all 108 rows.
        #expect(table.cells.count >= 8 && table.cells.count <= 10)
        // Every reused cell was prepared just before it was handed out again; new ones were not.
        #expect(table.handouts.filter { $0.prepared != $0.reused }.isEmpty)
        let reuses = table.handouts.filter(\.reused).count
        #expect(reuses == 108 - table.cells.count)
        #expect(table.cells.map(\.prepareCount).reduce(0, +) == reuses)
        // Rows 0...99 left the screen, each once, in order, with the very cell that showed them.
        #expect(table.endings.map(\.row) == Array(0...99))
        var cellByRow: [Int: ObjectIdentifier] = [:]
        for handout in table.handouts { cellByRow[handout.row] = handout.cell }
        #expect(table.endings.allSatisfy { cellByRow[$0.row] == $0.cell })
        let visible = table.tableView.indexPathsForVisibleRows?.map(\.row)
        #expect(visible == Array(100...107))
    }

    @Test("A cell showing another row's poster is counted as a wrong image")
    func anotherRowsPosterIsWrongImage() throws {
        let log = Log()
        let movies = testMovies(20)
        nonisolated(unsafe) var shownSource: String?
        let result = try play(testScenario("wrong", rows: 20), movies: movies, log: log) { app in
            let queue = OperationQueue()
            queue.addOperation {
                guard let data = Network.shared.data(contentsOf: movies[0].url!),
                    let poster = Image(data: data)
                else { return }
                OperationQueue.main.addOperation {
                    shownSource = poster.sourceURL
                    log.note("show")
                    // Row 0 gets its own poster; row 1 wrongly gets row 0's too.
                    app.tableView.cellForRow(at: IndexPath(row: 0, section: 0))?.imageView.image =
                        poster
                    app.tableView.cellForRow(at: IndexPath(row: 1, section: 0))?.imageView.image =
                        poster
                }
            }
        }
        #expect(log.first("show") != nil)
        #expect(shownSource == movies[0].urlString)
        #expect(result.metrics.wrongImageEvents == 1)
        let wrong = try #require(result.events("wrong_image").first)
        #expect(wrong.number("row") == 1)
        #expect(wrong.text("url") == movies[0].urlString)
        let images = result.events("cell_image").filter { $0.text("shows") == "image" }
        #expect(Set(images.compactMap { $0.number("row") }) == [0, 1])
        #expect(images.allSatisfy { $0.text("url") == movies[0].urlString })
        #expect(result.finalScreen.rows.prefix(2).map(\.shows) == ["image", "image"])
    }

    @Test(
        "Prefetch calls announce the rows just past the screen in the scroll direction and take back those left behind"
    )
    func prefetchFollowsScrollDirection() throws {
        var app: PrefetchApp?
        let scenario = testScenario(
            "prefetch", rows: 200,
            actions: [
                .wait(microseconds: 200_000), .drag(toRow: 20, microseconds: 1_000_000),
                .wait(microseconds: 500_000),
                .drag(toRow: 5, microseconds: 1_000_000), .wait(microseconds: 500_000),
            ])
        _ = try play(scenario) {
            let made = PrefetchApp(log: Log())
            app = made
            return made
        }
        let table = try #require(app)
        let distance = table.tableView.prefetchDistance
        #expect(distance > 0)
        var outstanding: Set<Int> = []
        var announced: Set<Int> = []
        for call in table.calls {
            switch call.kind {
            case .announce:
                let visible = try #require(call.visible)
                #expect(!call.rows.isEmpty && call.rows.allSatisfy { !visible.contains($0) })
                #expect(
                    call.rows.allSatisfy {
                        $0 >= visible.lowerBound - distance && $0 <= visible.upperBound + distance
                    })
                #expect(
                    outstanding.isDisjoint(with: call.rows), "a row is announced once until it is settled"
                )
                outstanding.formUnion(call.rows)
                announced.formUnion(call.rows)
            case .takeBack:
                #expect(Set(call.rows).isSubset(of: outstanding), "only announced rows are taken back")
                outstanding.subtract(call.rows)
            case .show:
                // A row that comes on screen is settled without a call, as in UIKit.
                outstanding.subtract(call.rows)
            }
        }
        // Resting with row 20 at the top after scrolling down, rows 20...27 show: the next five were announced.
        #expect(Set(28...32).isSubset(of: announced))
        // Back up with row 5 at the top (rows 5...12 show), the rows above are the ones still expected.
        #expect(outstanding == Set(0...4))
    }

}

/// An app that records every prefetch call, with the rows on screen when it came, and every row shown.
final class PrefetchApp: ScriptApp, @unchecked Sendable {
    enum Kind { case announce, takeBack, show }
    /// Each call in order: what it is, its rows, and the visible rows then.
    var calls: [(kind: Kind, rows: [Int], visible: ClosedRange<Int>?)] = []

    override func tableView(_ tableView: TableView, prefetchRowsAt indexPaths: [IndexPath]) {
        calls.append((.announce, indexPaths.map(\.row), visibleRows))
    }

    override func tableView(_ tableView: TableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
        calls.append((.takeBack, indexPaths.map(\.row), visibleRows))
    }

    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        calls.append((.show, [indexPath.row], visibleRows))
        return super.tableView(tableView, cellForRowAt: indexPath)
    }

    private var visibleRows: ClosedRange<Int>? {
        let rows = tableView.indexPathsForVisibleRows?.map(\.row) ?? []
        guard let first = rows.first, let last = rows.last else { return nil }
        return first...last
    }
}
