import Runtime
import Values

/// The phone's virtual clock as a Swift `Clock`, to inject where code would use `ContinuousClock`
/// (as swift-clocks injects a test clock): `sleep` suspends the task for virtual time, never real time.
///
/// A sleep is a timer thread of the app that blocks for the duration and then resumes the task; a task
/// cancelled before or during its sleep is resumed at once with `CancellationError`, as `Task.sleep` does.
/// Unchecked Sendable: its timer queue is used only on the phone's simulated threads, one at a time.
public final class PhoneClock: Clock, @unchecked Sendable {
    public typealias Instant = PhoneInstant

    private let timers: OperationQueue

    /// Makes a clock for the app on whose simulated thread this is called.
    public init() {
        timers = OperationQueue()
        timers.name = "Timers"
        timers.maxConcurrentOperationCount = 1_000
    }

    public var now: Instant {
        guard let thread = SimulatedThread.current else {
            preconditionFailure("PhoneClock needs a simulated thread.")
        }
        return Instant(microseconds: thread.now)
    }

    public var minimumResolution: Duration { .microseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let delay = deadline.microseconds - now.microseconds
        guard delay > 0 else { return try Task.checkCancellation() }
        let _: Bool = try await Waiter.wait { waiter in
            timers.addOperation {
                SimulatedThread.current?.sleep(for: delay)
                waiter.resume(with: .success(true))
            }
        }
    }

}
