import Foundation
import Shared
import TestSupport
import Testing

@testable import Report
@testable import Runtime
@testable import UI
@testable import World

/// Frames on the 60 Hz vsync grid: a main thread blocked during a scroll makes a hitch of the right size.
extension WorldTests {
    /// Half a second of rest, then a one-second drag to row 10.
    static let drag = testScenario(
        "drag", rows: 60, actions: [.wait(microseconds: 500_000), .drag(toRow: 10, microseconds: 1_000_000)])

    /// Plays the drag with an app that blocks the main thread once for `block` µs in `scrollViewDidScroll`
    /// (or in `cellForRow` of row `blockRow`), the first time after 900 ms.
    func playDrag(blockInScroll block: Int64 = 0, blockInCellForRow cellBlock: Int64 = 0) throws -> (
        RunResult, Log
    ) {
        let log = Log()
        var blocked = false
        let result = try play(Self.drag) {
            let app = ScriptApp(log: log)
            app.onScroll = { app in
                guard block > 0, !blocked, app.phone.now >= 900_000 else { return }
                blocked = true
                log.note("block")
                SimulatedThread.current!.sleep(for: block)
            }
            app.onCell = { app, _, indexPath in
                guard cellBlock > 0, !blocked, app.phone.now >= 900_000 else { return }
                blocked = true
                log.note("block", Double(indexPath.row))
                SimulatedThread.current!.sleep(for: cellBlock)
            }
            return app
        }
        return (result, log)
    }

    @Test("A drag with light main-thread work has no hitches")
    func lightDragHasNoHitches() throws {
        let (result, log) = try playDrag()
        // Not vacuous: the table really scrolled, frame after frame, and rows came on screen.
        #expect(log.all("didScroll").count >= 50)
        #expect(result.metrics.scrollingMicroseconds >= 1_000_000)
        #expect(log.all("cellForRow").count >= 15)
        #expect(result.metrics.hitches == 0)
        #expect(result.metrics.hitchTimeMicroseconds == 0)
        #expect(result.events("hitch").isEmpty)
    }

    @Test("Blocking scrollViewDidScroll for 40 ms during a drag costs two frames of hitch time")
    func scrollBlockCostsTwoFrames() throws {
        let (result, log) = try playDrag(blockInScroll: 40_000)
        #expect(log.all("block").count == 1)
        // The frame due one period after it began is ready after 40 ms plus under 2 ms of frame work,
        // i.e. between 2 and 3 periods after it began: presented at the third vsync, two periods late.
        let expected = 2 * framePeriod
        #expect(result.metrics.hitches == 1)
        #expect(abs(Double(result.metrics.hitchTimeMicroseconds) - expected) <= framePeriod)
        let hitch = try #require(result.events("hitch").first)
        let milliseconds = try #require(hitch.milliseconds("ms"))
        #expect(abs(milliseconds - expected / 1000) <= framePeriod / 1000)
        // Hitch time per second of scrolling: about 33 ms over a one-second drag.
        let ratio = result.metrics.hitchTimeRatio
        #expect(ratio > 25 && ratio < 40)
    }

    @Test("Blocking cellForRow for 75 ms during a drag costs four frames of hitch time")
    func cellBlockCostsFourFrames() throws {
        let (result, log) = try playDrag(blockInCellForRow: 75_000)
        #expect(log.all("block").count == 1)
        // 75 ms plus frame work is 4.5 to 4.7 periods: presented at the fifth vsync, four periods late.
        let expected = 4 * framePeriod
        #expect(result.metrics.hitches == 1)
        #expect(abs(Double(result.metrics.hitchTimeMicroseconds) - expected) <= framePeriod)
        #expect(result.metrics.longestMainThreadStallMicroseconds >= 75_000)
    }

    @Test("A 40 ms main-queue block during a drag delays the next frames: one period of hitch")
    func mainQueueBlockCostsOnePeriod() throws {
        let log = Log()
        let result = try play(Self.drag, log: log) { _ in
            let timer = OperationQueue()
            timer.addOperation {
                SimulatedThread.current!.sleep(for: 1_005_000 - Phone.current!.now)
                OperationQueue.main.addOperation {
                    log.note("block")
                    SimulatedThread.current!.sleep(for: 40_000)
                }
            }
        }
        let block = try #require(log.first("block"))
        #expect(block.time >= 1_005_000 && block.time < 1_006_000)
        // The frame of vsync 60 (1 000 000 µs) is done by 1 005 000; the block then holds the main thread
        // until about 1 045 000, so the frame due at vsync 61 (1 016 667) ends about 1 046 000 and shows
        // at vsync 63 (1 050 000) instead of 62: one period late.
        #expect(result.metrics.hitches == 1)
        #expect(abs(Double(result.metrics.hitchTimeMicroseconds) - framePeriod) <= framePeriod)
        #expect(abs(Double(result.metrics.hitchTimeMicroseconds) - framePeriod) <= 2)
    }

    @Test("A main-thread block while the table is at rest is no hitch")
    func blockAtRestIsNoHitch() throws {
        let log = Log()
        let result = try play(testScenario("rest", rows: 30, actions: [.wait(microseconds: 500_000)])) {
            let app = ScriptApp(log: log)
            app.onCell = { _, _, indexPath in
                if indexPath.row == 3 { SimulatedThread.current!.sleep(for: 100_000) }
            }
            return app
        }
        #expect(log.all("cellForRow").count >= 8)
        #expect(result.metrics.longestMainThreadStallMicroseconds >= 100_000)
        #expect(result.metrics.hitches == 0)
    }

    @Test("A short block during the same drags is no hang")
    func shortBlockIsNoHang() throws {
        let (result, log) = try playBlockedDrags(block: 100_000)
        #expect(log.all("block").count == 1)
        #expect(result.metrics.longestMainThreadStallMicroseconds >= 100_000)
        #expect(result.metrics.hangs == 0)
        #expect(result.metrics.hangTimeMicroseconds == 0)
        #expect(log.all("willBeginDragging").count == 3)
    }

}

/// Touches that land while the main thread is blocked: queued, then delivered in one pass.
extension WorldTests {
    /// Three drags that all happen while row 0's cell blocks the first layout for `block` µs.
    func playBlockedDrags(block: Int64) throws -> (RunResult, Log) {
        let log = Log()
        let scenario = testScenario(
            "blocked", rows: 60,
            actions: [
                .wait(microseconds: 200_000), .drag(toRow: 10, microseconds: 300_000),
                .drag(toRow: 3, microseconds: 300_000), .drag(toRow: 20, microseconds: 300_000),
                .wait(microseconds: 500_000),
            ])
        var blocked = false
        let result = try play(scenario) {
            let app = ScriptApp(log: log)
            app.onCell = { _, _, indexPath in
                guard !blocked, indexPath.row == 0 else { return }
                blocked = true
                log.note("block")
                SimulatedThread.current!.sleep(for: block)
            }
            return app
        }
        return (result, log)
    }

    @Test("Gestures that happen while the main thread is blocked are delivered together, with one layout")
    func deliveredInOnePass() throws {
        let (result, log) = try playBlockedDrags(block: 2_000_000)
        let begins = log.all("willBeginDragging")
        #expect(begins.count == 3)
        #expect(log.all("didEndDragging").count == 3)
        // All three in the first frame after the block, within a few callbacks' time.
        let first = try #require(begins.first)
        #expect(first.time >= 2_000_000)
        #expect(begins.allSatisfy { $0.time - first.time < 1_000 })
        // One layout, for where the last drag left the table: rows 20 and on, none of the rows in between.
        let laidOut = log.all("cellForRow").filter { $0.time >= first.time }.map { Int($0.value) }
        #expect(!laidOut.isEmpty)
        #expect(laidOut.allSatisfy { $0 >= 20 })
        // The whole scroll interval hid behind the block: it is one long hitch, not none.
        #expect(result.metrics.hitches >= 1)
        #expect(result.metrics.hitchTimeMicroseconds >= 1_000_000)
        #expect(result.metrics.hitchTimeRatio > 50 && result.metrics.hitchTimeRatio <= 1000)
        // And a hang, scrolling or not.
        #expect(result.metrics.hangs == 1)
        #expect(result.metrics.hangTimeMicroseconds >= 2_000_000)
    }

}
