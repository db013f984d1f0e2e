import Shared
import Testing

@testable import Runtime
@testable import World

/// The app as a process on its own, on a host that is not a phone: the runtime's queues and operations
/// need only what `AppHost` asks for.
extension WorldTests {
    /// A host made of an app process and a log; main-queue operations are only listed, never run.
    final class BareHost: AppHost, @unchecked Sendable {
        let process: AppProcess
        var log: [String] = []
        var mainBlocks: [Operation] = []

        init(scheduler: Scheduler) { process = AppProcess(scheduler: scheduler) }

        var launch: Int { process.launch }
        var mainQueue: OperationQueue! { process.mainQueue }
        var mainQueueOperations: [Operation] { mainBlocks }
        func enqueueOnMainThread(_ operation: Operation) { mainBlocks.append(operation) }
        func dispatchCompletion(_ block: @escaping () -> Void, of operation: Operation) {
            process.dispatchCompletion(block, of: operation)
        }
        func register(queue: OperationQueue) { process.register(queue: queue) }
        func startAppThread(name: String, body: @escaping (SimulatedThread) -> Void) -> SimulatedThread {
            process.startThread(name: name, on: self, body: body)
        }
        func operationCancelled(_ operation: Operation) { log.append("cancelled \(operation.name ?? "?")") }
        func operationStarted(_ name: String, thread: String) { log.append("started \(name) on \(thread)") }
        func operationFinished(_ name: String, thread: String, cancelled: Bool) {
            log.append("finished \(name) on \(thread)")
        }
    }

    /// An operation that takes `micros` of virtual time and notes its completion block's thread.
    static func sleeper(_ name: String, _ micros: Int64, host: BareHost) -> Operation {
        let operation = BlockOperation { SimulatedThread.current?.sleep(for: micros) }
        operation.name = name
        operation.completionBlock = {
            host.log.append("completion of \(name) on \(SimulatedThread.current!.name)")
        }
        return operation
    }

    @Test("An app's queue runs on worker threads of its launch, and completion blocks on completion threads")
    func queuesRunOnLaunchThreads() {
        let scheduler = Scheduler()
        let host = BareHost(scheduler: scheduler)
        host.process.start(on: host)
        _ = host.startAppThread(name: "main") { _ in
            let queue = OperationQueue()
            queue.name = "Work"
            queue.addOperation(Self.sleeper("a", 1_000, host: host))
            OperationQueue.main.addOperation {}
        }
        scheduler.run(until: 10_000)
        #expect(
            host.log == [
                "started a on work-1", "finished a on work-1", "completion of a on completion-1",
            ])
        #expect(host.mainBlocks.count == 1)
        #expect(host.process.isIdle)
        scheduler.shutDown()
    }

    @Test("Killing a launch stops its threads and drops its waiting operations; the next launch counts on")
    func killingLaunchStopsThreads() {
        let scheduler = Scheduler()
        let host = BareHost(scheduler: scheduler)
        host.process.start(on: host)
        var threads: [SimulatedThread] = []
        threads.append(
            host.startAppThread(name: "main") { _ in
                let queue = OperationQueue()
                queue.maxConcurrentOperationCount = 1
                queue.addOperation(Self.sleeper("first", 1_000, host: host))
                queue.addOperation(Self.sleeper("second", 1_000, host: host))
            })
        var idleBeforeKill = true
        scheduler.schedule(at: 500) {
            idleBeforeKill = host.process.isIdle
            host.process.kill()
        }
        scheduler.run(until: 10_000)
        #expect(!idleBeforeKill)
        #expect(host.launch == 2)
        #expect(host.process.isIdle)
        #expect(threads.allSatisfy { $0.isKilled })
        // The running operation's sleep was cut short; the waiting one and every completion block never ran.
        #expect(host.log == ["started first on queue-1", "finished first on queue-1"])
        scheduler.shutDown()
    }

}
