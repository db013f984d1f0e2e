import Foundation
import Shared
import Testing

@testable import Runtime
@testable import World

/// Foundation's `Operation` / `OperationQueue` semantics on the simulated phone.
extension WorldTests {
    /// A still scenario: the app launches and nothing else happens.
    static let still = testScenario("still", rows: 20)

    @Test("A cancelled operation that never started skips main(), finishes, and runs its completion block")
    func cancelledBeforeStartSkipsMain() throws {
        let log = Log()
        let result = try play(Self.still, log: log) { app in
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let blocker = SleepOperation(log: log, label: "A", duration: 100_000)
            let victim = SleepOperation(log: log, label: "B", duration: 100_000)
            victim.completionBlock = { log.note("completion B") }
            queue.addOperation(blocker)
            queue.addOperation(victim)
            victim.cancel()
            // Cancelled and started by hand, outside any queue: the same rules.
            let manual = SleepOperation(log: log, label: "C", duration: 100_000)
            manual.completionBlock = { log.note("completion C") }
            manual.cancel()
            manual.start()
            log.kept = [victim, manual]
        }
        #expect(log.first("start A") != nil)
        #expect(log.first("start B") == nil)
        #expect(log.first("start C") == nil)
        #expect(log.all("completion B").count == 1)
        #expect(log.all("completion C").count == 1)
        let victim = try #require(log.kept.first as? SleepOperation)
        let manual = try #require(log.kept.last as? SleepOperation)
        for operation in [victim, manual] {
            #expect(operation.isCancelled)
            #expect(operation.isFinished)
            #expect(!operation.isExecuting)
        }
        #expect(result.metrics.operationsCancelled == 2)
    }

    @Test(
        "cancelAllOperations: the running one sees isCancelled after its blocking work, waiting ones never run"
    )
    func cancelAllOperations() throws {
        let log = Log()
        let result = try play(Self.still, log: log) { _ in
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            for label in ["A", "B", "C"] {
                var operation: Operation!
                operation = BlockOperation.simulator {
                    log.note("start \(label)")
                    SimulatedThread.current!.sleep(for: 50_000)
                    log.note(
                        operation.isCancelled ? "\(label) sees cancel" : "\(label) sees no cancel")
                }
                operation.completionBlock = { log.note("completion \(label)") }
                queue.addOperation(operation)
            }
            let timer = OperationQueue()
            timer.addOperation {
                SimulatedThread.current!.sleep(for: 10_000)
                OperationQueue.main.addOperation {
                    log.note("cancel all", Double(queue.operationCount))
                    queue.cancelAllOperations()
                }
            }
        }
        #expect(log.first("cancel all")?.value == 3)
        #expect(log.texts(prefix: "start ") == ["start A"])
        #expect(log.first("A sees cancel") != nil)
        #expect(
            log.texts(prefix: "completion ").sorted() == ["completion A", "completion B", "completion C"])
        #expect(result.metrics.operationsCancelled == 3)
    }

    @Test("A queue never runs more than its maxConcurrentOperationCount at once, and reuses its workers")
    func concurrencyLimit() throws {
        let log = Log()
        _ = try play(Self.still, log: log) { _ in
            let queue = OperationQueue()
            queue.name = "Test Queue"
            queue.maxConcurrentOperationCount = 2
            for index in 0..<6 {
                queue.addOperation(SleepOperation(log: log, label: "\(index)", duration: 50_000))
            }
        }
        #expect(log.mostRunning == 2)
        let starts = (0..<6).compactMap { log.first("start \($0)") }
        try #require(starts.count == 6)
        // Two at a time, 50 ms each: pairs start at 0, 50 and 100 ms after the first.
        let origin = starts[0].time
        #expect(starts.map { $0.time - origin } == [0, 0, 50_000, 50_000, 100_000, 100_000])
        // Two worker threads, named after the queue, do all six.
        #expect(Set(starts.map(\.thread)) == ["test-queue-1", "test-queue-2"])
    }

    @Test("A suspended queue starts nothing until resumed, then runs in order")
    func suspendedQueue() throws {
        let log = Log()
        _ = try play(Self.still, log: log) { _ in
            let held = OperationQueue()
            held.maxConcurrentOperationCount = 1
            held.isSuspended = true
            for label in ["A", "B", "C"] {
                held.addOperation(SleepOperation(log: log, label: label, duration: 10_000))
            }
            let timer = OperationQueue()
            timer.addOperation {
                SimulatedThread.current!.sleep(for: 200_000)
                log.note("waiting", Double(held.operationCount))
                OperationQueue.main.addOperation {
                    log.note("resume")
                    held.isSuspended = false
                }
            }
        }
        let waiting = try #require(log.first("waiting"))
        #expect(waiting.value == 3)
        let resume = try #require(log.first("resume"))
        #expect(resume.time >= 200_000)
        #expect(log.texts(prefix: "start ") == ["start A", "start B", "start C"])
        let starts = ["A", "B", "C"].compactMap { log.first("start \($0)")?.time }
        // A starts the moment the queue resumes; the others follow, 10 ms apart, one at a time.
        #expect(starts == [resume.time, resume.time + 10_000, resume.time + 20_000])
    }

    /// How the main thread's turn orders a queue's resumption and an operation's cancellation.
    enum CancelOrder: String, CaseIterable, Sendable {
        /// Resumed, then cancelled in the same turn: a worker was handed it, and may have begun.
        case resumeThenCancel = "resumed, then cancelled in the same turn"
        /// Cancelled while the queue was suspended, then resumed.
        case cancelThenResume = "cancelled, then resumed"
        /// Resumed, and cancelled in a later turn, once the worker had begun it.
        case cancelInALaterTurn = "resumed, and cancelled in a later turn"
    }

    @Test(
        "Cancelling an operation in the turn that handed it to a worker is traced as a race, and only then",
        arguments: CancelOrder.allCases)
    func cancelAsHandedOut(_ order: CancelOrder) throws {
        let log = Log()
        let result = try play(Self.still, log: log) { _ in
            let held = OperationQueue()
            held.isSuspended = true
            let operation = SleepOperation(log: log, label: "A", duration: 100_000)
            held.addOperation(operation)
            switch order {
            case .resumeThenCancel:
                held.isSuspended = false
                operation.cancel()
            case .cancelThenResume:
                operation.cancel()
                held.isSuspended = false
            case .cancelInALaterTurn:
                held.isSuspended = false
                OperationQueue.main.addOperation { operation.cancel() }
            }
        }
        let races = result.events("operation_cancel_race")
        #expect(races.count == (order == .resumeThenCancel ? 1 : 0), "\(order.rawValue)")
        #expect(result.metrics.operationsCancelled == 1)
    }

    @Test("A queue starts ready operations by queuePriority: higher first, first-added first among equals")
    func queuePriority() throws {
        let log = Log()
        _ = try play(Self.still, log: log) { _ in
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.isSuspended = true
            let plan: [(String, Operation.QueuePriority)] = [
                ("normal-1", .normal), ("low", .low), ("high-1", .high), ("normal-2", .normal),
                ("very-high", .veryHigh), ("high-2", .high), ("very-low", .veryLow),
            ]
            for (label, priority) in plan {
                let operation = SleepOperation(log: log, label: label, duration: 1_000)
                operation.queuePriority = priority
                queue.addOperation(operation)
            }
            queue.isSuspended = false
        }
        #expect(
            log.texts(prefix: "start ") == [
                "start very-high", "start high-1", "start high-2", "start normal-1", "start normal-2",
                "start low", "start very-low",
            ])
    }

    @Test(
        "OperationQueue.main.addOperation runs on the main thread, in order, at the main thread's next turn")
    func mainQueueHop() throws {
        let log = Log()
        _ = try play(Self.still, log: log) { _ in
            let queue = OperationQueue()
            queue.name = "Downloads"
            queue.addOperation {
                SimulatedThread.current!.sleep(for: 300_000)
                log.note("worker")
                OperationQueue.main.addOperation { log.note("hop 1") }
                OperationQueue.main.addOperation(BlockOperation { log.note("hop 2") })
                OperationQueue.main.addOperation { log.note("hop 3") }
            }
        }
        let worker = try #require(log.first("worker"))
        #expect(worker.thread == "downloads-1")
        let hops = log.texts(prefix: "hop ")
        #expect(hops == ["hop 1", "hop 2", "hop 3"])
        for text in hops {
            let hop = try #require(log.first(text))
            #expect(hop.thread == "main")
            // The main thread is idle at 300 ms, so each hop runs within a millisecond.
            #expect(hop.time >= worker.time && hop.time < worker.time + 1_000)
        }
    }

    @Test("A completion block that captures its own operation does not keep it alive")
    func completionBlockCycle() throws {
        let log = Log()
        _ = try play(Self.still, log: log) { _ in
            let queue = OperationQueue()
            let ran = BlockOperation { log.note("ran") }
            ran.completionBlock = {
                log.note(ran.isFinished ? "completion ran finished" : "not finished")
            }
            let cancelled = SleepOperation(log: log, label: "cancelled", duration: 10_000)
            cancelled.completionBlock = {
                log.note(cancelled.isCancelled ? "completion cancelled" : "?")
            }
            cancelled.cancel()
            log.weakObjects = [WeakBox(ran), WeakBox(cancelled)]
            queue.addOperation(ran)
            queue.addOperation(cancelled)
        }
        #expect(log.all("ran").count == 1)
        #expect(log.all("completion ran finished").count == 1)
        #expect(log.all("completion cancelled").count == 1)
        #expect(log.weakObjects.count == 2)
        for box in log.weakObjects {
            #expect(box.object == nil)
        }
    }

}
