import Foundation
import LiveLock
import Values

/// The live run's clock: microseconds of wall-clock time since the run began (continuous, so a clock
/// change does not move it).
struct RunClock: Sendable {
    private let start = ContinuousClock.now

    /// Microseconds since the run began.
    var now: Int64 { microseconds(at: .now) }

    /// Microseconds from the run's beginning to `instant` (negative before it).
    func microseconds(at instant: ContinuousClock.Instant) -> Int64 {
        PhoneInstant.microseconds(start.duration(to: instant))
    }

    /// The moment `microseconds` after the run began, as a `Date` for `RunLoop.run(mode:before:)`.
    func date(at microseconds: Int64) -> Date {
        Date(timeIntervalSinceNow: Double(microseconds - now) / 1_000_000)
    }
}

/// The stretches of time the main thread spent in app work: every call the frame loop makes into the app
/// (touch delivery with its delegate callbacks, laying out rows with `cellForRowAt`, `prepareForReuse` and
/// `didEndDisplaying`, memory warnings, launches) and every table call the app makes from a main-queue
/// block (`reloadRows`). Work nested in other work counts once, in the outer stretch. Main-queue work that
/// never calls the table is not seen.
enum MainThreadWork {
    /// One stretch of app work on the main thread, in run microseconds.
    struct Stretch: Sendable, Equatable {
        let start: Int64
        let end: Int64

        var microseconds: Int64 { end - start }
    }

    private struct State {
        var clock: RunClock?
        var depth = 0
        var openedAt: Int64 = 0
        var stretches: [Stretch] = []
    }

    private static let state = Mutex(State())

    /// Starts counting on `clock`, forgetting any earlier stretches.
    static func start(on clock: RunClock) {
        state.withLock { $0 = State(clock: clock) }
    }

    /// Runs `work`, counting its time as app work when it runs on the main thread.
    static func measure<T>(_ work: () throws -> T) rethrows -> T {
        guard Thread.isMainThread else { return try work() }
        state.withLock { state in
            if state.depth == 0, let clock = state.clock { state.openedAt = clock.now }
            state.depth += 1
        }
        defer {
            state.withLock { state in
                state.depth -= 1
                if state.depth == 0, let clock = state.clock {
                    state.stretches.append(Stretch(start: state.openedAt, end: clock.now))
                }
            }
        }
        return try work()
    }

    /// Every stretch so far, in time order.
    static var stretches: [Stretch] { state.withLock { $0.stretches } }

    /// When the latest finished stretch ended: since then the main thread has waited for work, unless a
    /// stretch is under way (0 before any).
    static var lastEnd: Int64 { state.withLock { $0.stretches.last?.end ?? 0 } }

    /// The microseconds of a late frame's window (from the vsync it was due at to the one it was shown
    /// at) that app work filled inside the scroll intervals: its hitch time, as the report counts it.
    static func lateness(
        of window: Stretch, scrollIntervals: [Stretch], stretches: some Collection<Stretch>
    ) -> Int64 {
        var total: Int64 = 0
        for interval in scrollIntervals where interval.end > window.start && interval.start < window.end {
            let start = max(window.start, interval.start)
            let end = min(window.end, interval.end)
            for stretch in stretches where stretch.end > start && stretch.start < end {
                total += min(end, stretch.end) - max(start, stretch.start)
            }
        }
        return total
    }
}
