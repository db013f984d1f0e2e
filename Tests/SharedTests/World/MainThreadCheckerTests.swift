import Foundation
import Shared
import TestSupport
import Testing

@testable import Runtime
@testable import UI
@testable import World

/// The main thread checker of the look-alike UIKit: a call to the table from another simulated thread is
/// counted and traced with its method and thread, as Xcode's Main Thread Checker reports it; the same
/// calls from the main thread are not.
@Suite("The main thread checker counts table calls made off the main thread")
struct MainThreadCheckerTests {
    @Test(
        "Table calls from a queue's worker are counted and traced; the same calls from the main queue are not"
    )
    func callsOffTheMainThreadAreCounted() throws {
        let log = Log()
        let result = try play(testScenario("checker", rows: 20), log: log) { app in
            let queue = OperationQueue()
            queue.addOperation {
                // Off the main thread: three calls the checker must see.
                _ = app.tableView.indexPathsForVisibleRows
                _ = app.tableView.cellForRow(at: IndexPath(row: 0, section: 0))
                app.tableView.reloadRows(at: [IndexPath(row: 0, section: 0)], with: .fade)
                OperationQueue.main.addOperation {
                    // On the main thread: none.
                    log.note("main")
                    _ = app.tableView.indexPathsForVisibleRows
                    app.tableView.reloadRows(at: [IndexPath(row: 1, section: 0)], with: .fade)
                    app.tableView.reloadData()
                }
            }
        }
        #expect(log.first("main") != nil)
        #expect(result.metrics.mainThreadCheckerViolations == 3)
        let events = result.events("main_thread_violation")
        #expect(
            events.map { $0.text("method") } == [
                "indexPathsForVisibleRows", "cellForRow(at:)", "reloadRows(at:with:)",
            ])
        #expect(events.allSatisfy { $0.text("thread") != "main" && $0.text("thread") != nil })
        #expect(result.metrics.entries.last?.key == "main_thread_checker_violations")
    }

    /// A step's in-progress map, as the steps declare theirs.
    final class Operations: @unchecked Sendable {
        @MainThreadOnly("downloadsInProgress") var downloadsInProgress: [Int: String] = [:]
    }

    @Test(
        "A map the steps keep on the main thread is checked too: a change from a worker is counted and named")
    func mapsOffTheMainThreadAreCounted() throws {
        let log = Log()
        let operations = Operations()
        let result = try play(testScenario("maps", rows: 20), log: log) { _ in
            // On the main thread: none.
            operations.downloadsInProgress[1] = "one"
            let queue = OperationQueue()
            queue.addOperation {
                // Off the main thread: a read and a write, each seen.
                operations.downloadsInProgress.removeValue(forKey: 1)
                OperationQueue.main.addOperation {
                    log.note("main")
                    operations.downloadsInProgress[2] = "two"
                }
            }
        }
        #expect(log.first("main") != nil)
        #expect(operations.downloadsInProgress == [2: "two"])
        #expect(result.metrics.mainThreadCheckerViolations == 2)
        let events = result.events("main_thread_violation")
        #expect(events.map { $0.text("method") } == ["downloadsInProgress", "downloadsInProgress"])
        #expect(events.allSatisfy { $0.text("thread") != "main" && $0.text("thread") != nil })
    }

    @Test("An app that keeps the table on the main thread has no violation")
    func anAppOnTheMainThreadHasNone() throws {
        let result = try play(
            testScenario(
                "clean", rows: 40,
                actions: [.wait(microseconds: 200_000), .drag(toRow: 20, microseconds: 1_000_000)])
        ) { ScriptApp(log: Log()) }
        #expect(result.metrics.mainThreadCheckerViolations == 0)
        #expect(result.events("main_thread_violation").isEmpty)
    }
}
