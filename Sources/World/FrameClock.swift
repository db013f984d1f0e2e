import Report
import Runtime

/// The main thread's frames: the vsync grid of the screen's refresh rate, when the next frame is due, the
/// timer that wakes the main thread for it, and which frames were late while the user scrolled (counted by
/// a `HitchLedger` into the recorder).
final class FrameClock {
    /// When each vsync falls: the refresh period as an exact fraction of microseconds.
    let vsync: Int64Fraction
    private let recorder: Recorder
    private var hitchLedger: HitchLedger
    /// Whether frames are being drawn: from the first frame the app needed until the main thread rests.
    private(set) var isRunning = false
    /// The vsync the next frame is due at (the presentation of the last frame, once frames run).
    private(set) var nextFrameDue: Int64 = 0
    /// The time the armed frame timer fires, if one is armed.
    private var timer: Int64?

    init(refreshRate: Int, recorder: Recorder) {
        vsync = Int64Fraction(numerator: 1_000_000, denominator: Int64(max(1, refreshRate)))
        hitchLedger = HitchLedger(vsync: vsync)
        self.recorder = recorder
    }

    /// The app needs a frame at `now`: if frames were stopped, the first is due at the next vsync.
    func start(at now: Int64) {
        guard !isRunning else { return }
        isRunning = true
        nextFrameDue = vsync.atOrAfter(now)
    }

    /// The app needs no more frames (the main thread goes to rest), or a new launch begins.
    func stop() {
        isRunning = false
    }

    /// Makes `wake` run at `time` on `scheduler`, unless a timer for that time is armed already.
    func armTimer(at time: Int64, on scheduler: Scheduler, wake: @escaping () -> Void) {
        guard timer != time else { return }
        timer = time
        scheduler.schedule(at: time) { [self] in
            if timer == time { timer = nil }
            wake()
        }
    }

    /// The vsync at which work that finished at `time` is on screen (the one after it).
    func presentation(afterWorkEndingAt time: Int64) -> Int64 {
        vsync.atOrAfter(time + 1)
    }

    /// The vsync at which the due frame, whose work ended at `end`, is presented: never before one vsync
    /// after it was due.
    func presentation(ofFrameEndingAt end: Int64) -> Int64 {
        max(vsync.atOrAfter(end), vsync.add(nextFrameDue, frames: 1))
    }

    /// The finger touched down at `time`: a scroll interval opens, unless one is open.
    func touchDown(at time: Int64) {
        hitchLedger.touchDown(at: time)
    }

    /// The due frame was presented at `presented`, with a finger that landed at `pendingTouch` (before the
    /// presentation, but not yet taken in by the app): records the frame's hitch if it was late in a scroll
    /// interval, closes the interval when the frame shows the table at rest (`showsRest`), and makes the
    /// next frame due at `presented`.
    func presented(at presented: Int64, pendingTouch: Int64?, showsRest: Bool) {
        if let pendingTouch { hitchLedger.touchDown(at: pendingTouch) }
        if let late = hitchLedger.frame(due: nextFrameDue, presented: presented) {
            recorder.hitch(lateFrom: late.start, presented: late.end)
        }
        if showsRest, pendingTouch == nil { endScrolling(at: presented) }
        nextFrameDue = presented
    }

    /// Closes the open scroll interval at `time` (the table at rest, a relaunch, or the end of the run).
    func endScrolling(at time: Int64) {
        if let interval = hitchLedger.rest(at: time) {
            recorder.scrollInterval(from: interval.start, to: interval.end)
        }
    }
}

/// A period that is a fraction of microseconds (1/60 s is 16666⅔ µs), so vsync times never drift.
struct Int64Fraction {
    /// Microseconds per `denominator` periods.
    let numerator: Int64
    /// Periods per `numerator` microseconds.
    let denominator: Int64

    /// The first period boundary at or after a time.
    func atOrAfter(_ time: Int64) -> Int64 {
        let index = (time * denominator + numerator - 1) / numerator
        return index * numerator / denominator
    }

    /// The boundary `frames` periods after a boundary.
    func add(_ boundary: Int64, frames: Int64) -> Int64 {
        let index = (boundary * denominator + numerator - 1) / numerator
        return (index + frames) * numerator / denominator
    }
}
