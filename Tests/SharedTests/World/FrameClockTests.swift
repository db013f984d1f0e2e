import Shared
import Testing

@testable import Report
@testable import Runtime
@testable import World

/// The phone's frame clock on its own: when frames are due, the frame timer, and hitches and scroll
/// intervals as they reach the recorder.
extension WorldTests {
    /// A 60 Hz clock and the recorder it reports to.
    static func makeClock() -> (FrameClock, Recorder, Scheduler) {
        let scheduler = Scheduler()
        let recorder = Recorder(scheduler: scheduler, keepsTrace: true)
        return (FrameClock(refreshRate: 60, recorder: recorder), recorder, scheduler)
    }

    @Test(
        "Frames started between vsyncs are due at the next vsync, and frames presented on time count no hitch"
    )
    func framesDueAtNextVsync() {
        let (clock, recorder, _) = Self.makeClock()
        clock.start(at: 10_000)
        #expect(clock.nextFrameDue == clock.vsync.atOrAfter(10_000))
        clock.touchDown(at: 10_000)
        for _ in 0..<20 {
            let due = clock.nextFrameDue
            let presented = clock.presentation(ofFrameEndingAt: due)
            #expect(presented == clock.vsync.add(due, frames: 1))
            clock.presented(at: presented, pendingTouch: nil, showsRest: false)
            #expect(clock.nextFrameDue == presented)
        }
        clock.endScrolling(at: clock.nextFrameDue)
        #expect(recorder.metrics.hitches == 0)
        #expect(recorder.metrics.scrollingMicroseconds == clock.nextFrameDue - 10_000)
    }

    @Test("Starting a running clock again keeps the frame that is due")
    func restartKeepsDueFrame() {
        let (clock, _, _) = Self.makeClock()
        clock.start(at: 0)
        clock.presented(
            at: clock.presentation(ofFrameEndingAt: 40_000), pendingTouch: nil, showsRest: true)
        let due = clock.nextFrameDue
        clock.start(at: 90_000)
        #expect(clock.nextFrameDue == due)
        clock.stop()
        clock.start(at: 90_000)
        #expect(clock.nextFrameDue == clock.vsync.atOrAfter(90_000))
    }

    @Test(
        "A frame blocked past its vsync while scrolling is one hitch, never longer than the scroll interval")
    func blockedFrameIsOneHitch() {
        let (clock, recorder, _) = Self.makeClock()
        clock.start(at: 0)
        clock.touchDown(at: 0)
        let presented = clock.presentation(ofFrameEndingAt: 50_000)
        #expect(presented >= 50_000)
        clock.presented(at: presented, pendingTouch: nil, showsRest: false)
        #expect(recorder.metrics.hitches == 1)
        #expect(recorder.metrics.hitchTimeMicroseconds == presented - clock.vsync.add(0, frames: 1))
        // The next frame, on time, shows the table at rest: the interval closes on it.
        let rest = clock.presentation(ofFrameEndingAt: presented)
        clock.presented(at: rest, pendingTouch: nil, showsRest: true)
        #expect(recorder.metrics.hitches == 1)
        #expect(recorder.metrics.scrollingMicroseconds == rest)
        #expect(recorder.metrics.hitchTimeMicroseconds <= recorder.metrics.scrollingMicroseconds)
    }

    @Test("A finger that landed before a frame showing rest keeps the scroll interval open")
    func fingerKeepsIntervalOpen() {
        let (clock, recorder, _) = Self.makeClock()
        clock.start(at: 0)
        clock.touchDown(at: 0)
        let presented = clock.presentation(ofFrameEndingAt: 0)
        clock.presented(at: presented, pendingTouch: 5_000, showsRest: true)
        #expect(recorder.metrics.scrollingMicroseconds == 0)
        clock.endScrolling(at: 100_000)
        #expect(recorder.metrics.scrollingMicroseconds == 100_000)
        // A frame outside any scroll interval is never a hitch, however late.
        clock.presented(
            at: clock.presentation(ofFrameEndingAt: 900_000), pendingTouch: nil, showsRest: true)
        #expect(recorder.metrics.hitches == 0)
    }

    @Test(
        "Arming the frame timer twice for one vsync wakes the main thread once; a later vsync wakes it again")
    func armingTwiceWakesOnce() {
        let (clock, _, scheduler) = Self.makeClock()
        var wakes: [Int64] = []
        clock.armTimer(at: 16_667, on: scheduler) { wakes.append(scheduler.now) }
        clock.armTimer(at: 16_667, on: scheduler) { wakes.append(scheduler.now) }
        scheduler.run(until: 20_000)
        clock.armTimer(at: 33_334, on: scheduler) { wakes.append(scheduler.now) }
        scheduler.run(until: 40_000)
        #expect(wakes == [16_667, 33_334])
    }

}
