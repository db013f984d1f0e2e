/// What a table hears as the app takes in the user's gestures: the calls `GestureCursor` makes, in UIKit's
/// order, for the simulator's phone and for the live run alike.
package protocol GestureReceiver {
    /// The finger landed: the table starts dragging (`scrollViewWillBeginDragging`).
    func touchDown(_ gesture: GestureTimeline.Gesture)
    /// The content moves to `offset`, with the table's own clamping and `scrollViewDidScroll`.
    func scroll(to offset: Double)
    /// The finger lifted, the content at the release offset: `scrollViewWillEndDragging`, then
    /// `scrollViewDidEndDragging` (coasting on if the gesture decelerates).
    func fingerLifted(_ gesture: GestureTimeline.Gesture)
    /// A coasting table stopped at its rest offset: `scrollViewDidEndDecelerating`.
    func decelerationEnded(_ gesture: GestureTimeline.Gesture)
    /// The gesture is over: the table came to rest at its `end` on the scenario's timeline.
    func gestureFinished(_ gesture: GestureTimeline.Gesture)
}

/// Where the app stands in a scenario's gestures: the gesture it has not finished taking in, and whether
/// it has taken in that one's touch-down. `deliver` takes in every touch that arrived, in one pass, as
/// UIKit does when the main thread comes back to its run loop.
package final class GestureCursor {
    /// The scenario's gestures, in order.
    package let gestures: [GestureTimeline.Gesture]
    /// The gesture the app has not finished taking in (`gestures.count` when all are).
    package private(set) var next = 0
    /// Whether the app has taken in the touch-down of `next`.
    package private(set) var begun = false
    /// Whether the finger of `next` is still down, as far as the app has taken in.
    private var dragging = false

    package init(gestures: [GestureTimeline.Gesture]) {
        self.gestures = gestures
    }

    /// A new launch of the app at `time`: it takes in the gestures that start from then on, none begun.
    package func launched(at time: Int64) {
        next = gestures.firstIndex { $0.start >= time } ?? gestures.count
        begun = false
        dragging = false
    }

    /// Whether every gesture has been taken in.
    package var isFinished: Bool { next >= gestures.count }

    /// Whether the gesture at `index` is still to be taken in.
    package func awaits(gesture index: Int) -> Bool {
        next <= index
    }

    /// Whether a finger landed by `now` that the app has not taken in yet.
    package func hasTouchWaiting(at now: Int64) -> Bool {
        next < gestures.count && gestures[next].start <= now
    }

    /// The touch-down of the next gesture the app has not taken in yet, if the finger landed before `time`.
    package func pendingTouchDown(before time: Int64) -> Int64? {
        guard !begun, next < gestures.count else { return nil }
        let start = gestures[next].start
        return start < time ? start : nil
    }

    /// Delivers every touch that arrived up to `now()` (asked again after each call, since a call may take
    /// time), in order: a gesture whose finger lifted meanwhile ends (or starts coasting) here, and one
    /// that came to rest meanwhile ends too. After a gesture ends, the next one's touch-down waits for the
    /// next pass when `waitsForNextPass` says so of the moment it landed. Returns whether a gesture ended.
    @discardableResult
    package func deliver(
        now: () -> Int64, to receiver: some GestureReceiver, waitsForNextPass: (Int64) -> Bool
    ) -> Bool {
        var ended = false
        while next < gestures.count {
            let gesture = gestures[next]
            let now = now()
            guard gesture.start <= now else { break }
            if !begun {
                begun = true
                dragging = true
                receiver.touchDown(gesture)
            }
            if now < gesture.release {
                receiver.scroll(to: gesture.offset(at: now))
                break
            }
            if dragging {
                dragging = false
                receiver.scroll(to: gesture.releaseOffset)
                receiver.fingerLifted(gesture)
                if !gesture.decelerates {
                    ended = true
                    finish(gesture, receiver: receiver)
                    if nextWaits(waitsForNextPass) { break }
                    continue
                }
            }
            if now < gesture.end {
                receiver.scroll(to: gesture.offset(at: now))
                break
            }
            receiver.scroll(to: gesture.restOffset)
            receiver.decelerationEnded(gesture)
            ended = true
            finish(gesture, receiver: receiver)
            if nextWaits(waitsForNextPass) { break }
        }
        return ended
    }

    private func finish(_ gesture: GestureTimeline.Gesture, receiver: some GestureReceiver) {
        next += 1
        begun = false
        receiver.gestureFinished(gesture)
    }

    /// Whether there is a next gesture whose touch-down waits for the next pass.
    private func nextWaits(_ waitsForNextPass: (Int64) -> Bool) -> Bool {
        next < gestures.count && waitsForNextPass(gestures[next].start)
    }
}
