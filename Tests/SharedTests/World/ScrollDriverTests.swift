import Shared
import Testing

@testable import Report
@testable import Runtime
@testable import Scenarios
@testable import World

/// The phone's scroll driver on its own: which gesture the app takes in next, and when a finger that
/// landed is waiting. (How the table moves and the delegate hears it is in `WorldTests`.)
extension WorldTests {
    /// A fling after 0.3 s, then a drag after a pause: two gestures on a 200-row table.
    static func makeDriver() -> (ScrollDriver, Scheduler) {
        let scheduler = Scheduler()
        let recorder = Recorder(scheduler: scheduler, keepsTrace: true)
        let timeline = GestureTimeline(
            actions: [
                .wait(microseconds: 300_000), .fling(toRow: 20), .wait(microseconds: 200_000),
                .drag(toRow: 5, microseconds: 300_000),
            ],
            rows: 200, rowHeight: 88, viewport: 667)
        let driver = ScrollDriver(
            timeline: timeline, scheduler: scheduler, recorder: recorder,
            screen: ScreenAudit(
                recorder: recorder, movies: [], server: PosterServer(), keepsStopSnapshots: false),
            frames: FrameClock(refreshRate: 60, recorder: recorder), delegateCallback: 50)
        return (driver, scheduler)
    }

    @Test(
        "Before its touch-down a gesture is awaited but not waiting, and is pending only from its touch-down on"
    )
    func gesturePendingFromTouchDown() throws {
        let (driver, scheduler) = Self.makeDriver()
        driver.launched()
        let start = try #require(driver.timeline.gestures.first).start
        #expect(start == 300_000)
        #expect(driver.awaits(gesture: 0) && driver.awaits(gesture: 1))
        #expect(!driver.hasTouchWaiting)
        #expect(driver.pendingTouchDown(before: start) == nil)
        #expect(driver.pendingTouchDown(before: start + 1) == start)
        scheduler.run(until: start)
        #expect(driver.hasTouchWaiting)
        #expect(!driver.gestureBegun)
    }

    @Test("A launch after a touch-down skips that gesture and awaits the next one")
    func launchAfterTouchDownSkipsGesture() throws {
        let (driver, scheduler) = Self.makeDriver()
        let gestures = driver.timeline.gestures
        try #require(gestures.count == 2)
        scheduler.run(until: gestures[0].start + 1)
        driver.launched()
        #expect(!driver.awaits(gesture: 0))
        #expect(driver.awaits(gesture: 1))
        #expect(!driver.hasTouchWaiting)
        #expect(driver.pendingTouchDown(before: gestures[1].start + 1) == gestures[1].start)
        // After the last touch-down, a launch awaits nothing.
        scheduler.run(until: gestures[1].start + 1)
        driver.launched()
        #expect(!driver.awaits(gesture: 1))
        #expect(driver.pendingTouchDown(before: .max) == nil)
    }

}
