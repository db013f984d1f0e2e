import Report
import Runtime
import Scenarios
import UI

/// The user's scrolling as the app sees it: takes the scenario's gestures in, in order, at the frames the
/// main thread draws, moving the table and telling its delegate, as UIKit delivers touches.
final class ScrollDriver {
    /// The scenario's gestures and system events on its timeline.
    let timeline: GestureTimeline
    private let scheduler: Scheduler
    private let recorder: Recorder
    private let screen: ScreenAudit
    private let frames: FrameClock
    /// What a delegate callback costs the main thread.
    private let delegateCallback: Int64
    /// The gesture the app has not finished taking in.
    private var nextGesture = 0
    /// Whether the app has taken in the touch-down of `nextGesture`.
    private(set) var gestureBegun = false

    init(
        timeline: GestureTimeline, scheduler: Scheduler, recorder: Recorder, screen: ScreenAudit,
        frames: FrameClock, delegateCallback: Int64
    ) {
        self.timeline = timeline
        self.scheduler = scheduler
        self.recorder = recorder
        self.screen = screen
        self.frames = frames
        self.delegateCallback = delegateCallback
    }

    /// A new launch of the app: it takes in the gestures that start from now on, none begun.
    func launched() {
        nextGesture = timeline.gestures.firstIndex { $0.start >= scheduler.now } ?? timeline.gestures.count
        gestureBegun = false
    }

    /// Whether the gesture at `index` is still to be taken in (so its touch-down should wake the app).
    func awaits(gesture index: Int) -> Bool {
        nextGesture <= index
    }

    /// Whether a finger has landed that the app has not taken in yet.
    var hasTouchWaiting: Bool {
        nextGesture < timeline.gestures.count && timeline.gestures[nextGesture].start <= scheduler.now
    }

    /// The touch-down of the next gesture the app has not taken in yet, if the finger landed before `time`.
    func pendingTouchDown(before time: Int64) -> Int64? {
        guard !gestureBegun, nextGesture < timeline.gestures.count else { return nil }
        let start = timeline.gestures[nextGesture].start
        return start < time ? start : nil
    }

    /// Delivers every touch that arrived up to now, in order, in one pass, as UIKit does when the main
    /// thread comes back to its run loop: a gesture whose finger lifted meanwhile ends (or starts
    /// decelerating) here, and one that came to rest meanwhile ends too. The table moves with each, and
    /// the delegate hears each; the rows are laid out once, after. `wasIdle` tells whether the main thread
    /// was waiting for work at a time.
    func deliverTouches(table: TableView, controller: TableViewController, wasIdle: (Int64) -> Bool) {
        while nextGesture < timeline.gestures.count {
            let gesture = timeline.gestures[nextGesture]
            let now = scheduler.now
            guard gesture.start <= now else { break }
            if !gestureBegun {
                gestureBegun = true
                screen.leaveOpenStop(at: gesture.start, table: table, now: now)
                frames.touchDown(at: gesture.start)
                table.isDragging = true
                recorder.event(.scrollState(.dragging))
                spendOnMain(delegateCallback)
                controller.scrollViewWillBeginDragging(table)
            }
            if now < gesture.release {
                table.scroll(to: gesture.offset(at: now))
                break
            }
            if table.isDragging {
                table.scroll(to: gesture.releaseOffset)
                // UIKit asks where the table will stop while the finger is still down; the one
                // callback cost covers the pair.
                controller.scrollViewWillEndDragging(
                    table, withVelocity: gesture.velocity, targetContentOffset: gesture.restOffset)
                table.isDragging = false
                table.isDecelerating = gesture.decelerates
                recorder.event(.scrollState(gesture.decelerates ? .decelerating : .idle))
                spendOnMain(delegateCallback)
                controller.scrollViewDidEndDragging(table, willDecelerate: gesture.decelerates)
                if !gesture.decelerates {
                    finishGesture(gesture)
                    if nextTouchWaitsForNextFrame(wasIdle: wasIdle) { break }
                    continue
                }
            }
            if now < gesture.end {
                table.scroll(to: gesture.offset(at: now))
                break
            }
            table.scroll(to: gesture.restOffset)
            table.isDecelerating = false
            recorder.event(.scrollState(.idle))
            spendOnMain(delegateCallback)
            controller.scrollViewDidEndDecelerating(table)
            finishGesture(gesture)
            if nextTouchWaitsForNextFrame(wasIdle: wasIdle) { break }
        }
    }

    /// Whether the next touch-down, though it has landed, is taken in at the next frame: it landed while
    /// the main thread was idle, waiting for this frame, so the table that came to rest just now is on
    /// screen for a frame first, and work the stop started gets going. (Touches that landed while the main
    /// thread was busy were queued, and are delivered in this pass.)
    private func nextTouchWaitsForNextFrame(wasIdle: (Int64) -> Bool) -> Bool {
        guard nextGesture < timeline.gestures.count else { return false }
        return wasIdle(timeline.gestures[nextGesture].start)
    }

    /// The gesture is over: the table came to rest at its end on the scenario's timeline, which opens a stop.
    private func finishGesture(_ gesture: GestureTimeline.Gesture) {
        nextGesture += 1
        gestureBegun = false
        screen.tableCameToRest(at: gesture.end)
    }

    /// Blocks the calling simulated thread (the main thread) for a UIKit-like cost.
    private func spendOnMain(_ micros: Int64) {
        SimulatedThread.current?.sleep(for: micros)
    }
}
