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
    /// Which gesture the app is taking in.
    private let cursor: GestureCursor

    /// Whether the app has taken in the touch-down of the gesture it has not finished taking in.
    var gestureBegun: Bool { cursor.begun }

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
        cursor = GestureCursor(gestures: timeline.gestures)
    }

    /// A new launch of the app: it takes in the gestures that start from now on, none begun.
    func launched() {
        cursor.launched(at: scheduler.now)
    }

    /// Whether the gesture at `index` is still to be taken in (so its touch-down should wake the app).
    func awaits(gesture index: Int) -> Bool {
        cursor.awaits(gesture: index)
    }

    /// Whether a finger has landed that the app has not taken in yet.
    var hasTouchWaiting: Bool { cursor.hasTouchWaiting(at: scheduler.now) }

    /// The touch-down of the next gesture the app has not taken in yet, if the finger landed before `time`.
    func pendingTouchDown(before time: Int64) -> Int64? {
        cursor.pendingTouchDown(before: time)
    }

    /// Delivers every touch that arrived up to now, in order, in one pass, as UIKit does when the main
    /// thread comes back to its run loop: a gesture whose finger lifted meanwhile ends (or starts
    /// decelerating) here, and one that came to rest meanwhile ends too. The table moves with each, and
    /// the delegate hears each; the rows are laid out once, after. `wasIdle` tells whether the main thread
    /// was waiting for work at a time.
    ///
    /// A touch-down that landed while the main thread was idle, waiting for this frame, after a gesture
    /// that ends in this pass is taken in at the next frame: the table that came to rest is on screen for a
    /// frame first, and work the stop started gets going. (Touches that landed while the main thread was
    /// busy were queued, and are delivered in this pass.)
    func deliverTouches(table: TableView, controller: TableViewController, wasIdle: (Int64) -> Bool) {
        cursor.deliver(
            now: { scheduler.now }, to: Touches(driver: self, table: table, controller: controller),
            waitsForNextPass: wasIdle)
    }

    /// The calls a gesture makes to the table and its delegate, with the recorder's scroll states and the
    /// main thread's cost of each delegate callback.
    private struct Touches: GestureReceiver {
        let driver: ScrollDriver
        let table: TableView
        let controller: TableViewController

        func touchDown(_ gesture: GestureTimeline.Gesture) {
            driver.screen.leaveOpenStop(at: gesture.start, table: table, now: driver.scheduler.now)
            driver.frames.touchDown(at: gesture.start)
            table.isDragging = true
            driver.recorder.event(.scrollState(.dragging))
            driver.spendOnMain(driver.delegateCallback)
            controller.scrollViewWillBeginDragging(table)
        }

        func scroll(to offset: Double) {
            table.scroll(to: offset)
        }

        func fingerLifted(_ gesture: GestureTimeline.Gesture) {
            // UIKit asks where the table will stop while the finger is still down; the one callback cost
            // covers the pair.
            controller.scrollViewWillEndDragging(
                table, withVelocity: gesture.velocity, targetContentOffset: gesture.restOffset)
            table.isDragging = false
            table.isDecelerating = gesture.decelerates
            driver.recorder.event(.scrollState(gesture.decelerates ? .decelerating : .idle))
            driver.spendOnMain(driver.delegateCallback)
            controller.scrollViewDidEndDragging(table, willDecelerate: gesture.decelerates)
        }

        func decelerationEnded(_ gesture: GestureTimeline.Gesture) {
            table.isDecelerating = false
            driver.recorder.event(.scrollState(.idle))
            driver.spendOnMain(driver.delegateCallback)
            controller.scrollViewDidEndDecelerating(table)
        }

        func gestureFinished(_ gesture: GestureTimeline.Gesture) {
            driver.screen.tableCameToRest(at: gesture.end)
        }
    }

    /// Blocks the calling simulated thread (the main thread) for a UIKit-like cost.
    private func spendOnMain(_ micros: Int64) {
        SimulatedThread.current?.sleep(for: micros)
    }
}
