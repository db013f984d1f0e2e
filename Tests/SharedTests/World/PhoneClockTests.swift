import Foundation
import Shared
import Testing

@testable import Concurrency
@testable import World

/// An app that, at launch, starts a task on the cooperative pool that sleeps on the phone's clock, and
/// cancels it either before it runs or from another task after `cancelAfter` of virtual time.
final class SleepingApp: ScriptApp, @unchecked Sendable {
    let cancelAfter: Duration?
    var pool: SimulatedTaskExecutor!
    var clock: PhoneClock!

    init(log: Log, cancelAfter: Duration?) {
        self.cancelAfter = cancelAfter
        super.init(log: log)
    }

    override func viewDidLoad() {
        pool = SimulatedTaskExecutor()
        clock = PhoneClock()
        super.viewDidLoad()
        let (clock, log) = (clock!, log)
        let sleeper = Task(executorPreference: pool) {
            let start = clock.now
            do {
                try await clock.sleep(for: .milliseconds(300))
                log.note("slept", Double(start.duration(to: clock.now) / .milliseconds(1)))
            } catch {
                log.note("cancelled", Double(start.duration(to: clock.now) / .milliseconds(1)))
            }
        }
        guard let cancelAfter else {
            // Before the task's first job runs: the cancellation comes before the sleep.
            sleeper.cancel()
            return
        }
        Task(executorPreference: pool) {
            try? await clock.sleep(for: cancelAfter)
            sleeper.cancel()
        }
    }
}

/// World: sleeping on the phone's clock.
extension WorldTests {
    static func run(cancelAfter: Duration?) throws -> Log {
        let log = Log()
        _ = try play(testScenario("sleep", rows: 3, actions: [.wait(microseconds: 1_000_000)])) {
            SleepingApp(log: log, cancelAfter: cancelAfter)
        }
        return log
    }

    @Test("A task cancelled before its sleep is resumed at once with CancellationError")
    func cancelledBeforeSleepResumesAtOnce() throws {
        let log = try Self.run(cancelAfter: nil)
        #expect(log.all("slept").isEmpty)
        #expect(log.all("cancelled").map(\.value) == [0])
    }

    @Test("A task cancelled during its sleep is resumed at the cancellation with CancellationError")
    func cancelledDuringSleepResumesAtCancellation() throws {
        let log = try Self.run(cancelAfter: .milliseconds(100))
        #expect(log.all("slept").isEmpty)
        #expect(log.all("cancelled").map(\.value) == [100])
    }

    @Test("A task left alone sleeps the whole duration")
    func uncancelledSleepRunsItsDuration() throws {
        let log = try Self.run(cancelAfter: .seconds(1))
        #expect(log.all("slept").map(\.value) == [300])
        #expect(log.all("cancelled").isEmpty)
    }

}
