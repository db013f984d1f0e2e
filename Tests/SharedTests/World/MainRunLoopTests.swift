import Shared
import Testing

@testable import Report
@testable import World

/// The app's main thread: what it runs, in which order, and when it parks.
extension WorldTests {
    /// What the main thread was busy with, in order (a launch that took no time is not traced).
    static func busyKinds(_ result: RunResult) -> [String] {
        result.trace.compactMap {
            if case .mainBusy(let kind, _) = $0.kind, kind != "launch" { return kind }
            return nil
        }
    }

    @Test("A block queued while launching runs before the first frame")
    func launchQueuedBlockRunsFirst() throws {
        let log = Log()
        let result = try play(testScenario("block", rows: 20)) {
            let app = ScriptApp(log: log)
            app.onLoad = { _ in OperationQueue.main.addOperation { log.note("block") } }
            return app
        }
        #expect(Array(Self.busyKinds(result).prefix(2)) == ["block", "frame"])
        #expect(log.all("block").count == 1)
    }

    @Test("With nothing moving and nothing queued the main thread parks: a still table draws one frame")
    func idleMainThreadParks() throws {
        let result = try play(testScenario("still", rows: 20)) { ScriptApp(log: Log()) }
        #expect(Self.busyKinds(result) == ["frame"])
    }

    @Test("A moving table gets frame after frame, never two in one 60 Hz period")
    func movingTableGetsOneFramePerPeriod() throws {
        let result = try play(
            testScenario("scroll", rows: 200, actions: [.wait(microseconds: 100_000), .fling(toRow: 40)])
        ) { ScriptApp(log: Log()) }
        let frames = result.trace.filter {
            if case .mainBusy("frame", _) = $0.kind { return true }
            return false
        }
        #expect(frames.count > 10)
        let times = frames.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 16_000 })
    }

}
