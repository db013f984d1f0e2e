/// Hitches as Apple counts them, on the scenario's timeline.
///
/// A scroll interval runs from a touch-down to the presentation of the frame that shows the table at
/// rest. Every frame that overlaps an interval counts: it was expected one vsync after it was due (or one
/// vsync after the touch-down, if the finger landed while the main thread was blocked), and each
/// microsecond it came later is hitch time. A frame's late window never overlaps the previous one, and
/// every window lies inside an interval, so hitch time can never exceed scroll time.
struct HitchLedger {
    /// When each vsync falls: the refresh period as an exact fraction of microseconds.
    let vsync: Int64Fraction
    /// When the open interval began, if the user is scrolling (or touched down and the app has not
    /// shown the table at rest since).
    private(set) var intervalStart: Int64?
    /// When the last interval ended: a new one never begins before.
    private var lastIntervalEnd: Int64 = 0
    /// Where the last counted late window ended.
    private var lastWindowEnd: Int64 = 0

    init(vsync: Int64Fraction) {
        self.vsync = vsync
    }

    /// The finger touched down at `time` (on the scenario's timeline): opens an interval unless one is open.
    mutating func touchDown(at time: Int64) {
        guard intervalStart == nil else { return }
        intervalStart = max(time, lastIntervalEnd)
    }

    /// A frame that was due at the vsync `due` was presented at `presented`: its late window, if it
    /// overlaps the open interval and was late. Call `touchDown(at:)` first for a finger that landed
    /// before `presented`.
    mutating func frame(due: Int64, presented: Int64) -> (start: Int64, end: Int64)? {
        guard let intervalStart, presented > intervalStart else { return nil }
        let expected = vsync.add(due, frames: 1)
        let expectedAfterTouch = vsync.add(vsync.atOrAfter(intervalStart), frames: 1)
        let start = max(expected, expectedAfterTouch, lastWindowEnd)
        guard presented > start else { return nil }
        lastWindowEnd = presented
        return (start, presented)
    }

    /// The table is at rest on a frame presented at `time` (or the app stopped): closes the open
    /// interval and returns it.
    mutating func rest(at time: Int64) -> (start: Int64, end: Int64)? {
        guard let start = intervalStart else { return nil }
        intervalStart = nil
        let end = max(start, time)
        lastIntervalEnd = end
        return (start, end)
    }
}
