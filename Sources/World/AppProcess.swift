import Runtime

/// The app as a running process on the phone: which launch it is, its threads, its operation queues and
/// the threads that run completion blocks. A relaunch kills all of it, and nothing of it runs again.
final class AppProcess {
    /// Which launch of the app is running: 1, then one more at every relaunch.
    private(set) var launch = 1
    /// The main thread's queue of the running launch.
    private(set) var mainQueue: OperationQueue!
    private var threads: [SimulatedThread] = []
    private var queues: [OperationQueue] = []
    private var completionThreads: CompletionThreads?
    private unowned let scheduler: Scheduler

    init(scheduler: Scheduler) {
        self.scheduler = scheduler
    }

    /// Starts a launch on `host`: its main queue and its completion threads.
    func start(on host: any AppHost) {
        mainQueue = OperationQueue(host: host, isMainQueue: true)
        completionThreads = CompletionThreads(host: host)
    }

    /// Starts a thread that belongs to this launch, on `host`.
    func startThread(
        name: String, on host: any AppHost, body: @escaping (SimulatedThread) -> Void
    ) -> SimulatedThread {
        let thread = scheduler.startThread(name: name) { thread in body(thread) }
        thread.host = host
        threads.append(thread)
        return thread
    }

    /// Registers a queue the app made, so the phone can tell when it is idle and kill it at a relaunch.
    func register(queue: OperationQueue) {
        queues.append(queue)
    }

    /// Dispatches a finished operation's completion block to a completion thread, as Foundation
    /// dispatches it to a global queue. A killed app's completions never run.
    func dispatchCompletion(_ block: @escaping () -> Void, of operation: Operation) {
        guard SimulatedThread.current?.isKilled != true, let completionThreads else { return }
        completionThreads.dispatch(block, of: operation)
    }

    /// Whether no queue holds an operation and no completion block waits or runs.
    var isIdle: Bool {
        completionThreads?.isBusy != true && queues.allSatisfy { $0.operationCount == 0 }
    }

    /// The operations still in the app's queues, in the order the queues were made and, in each, running
    /// ones first: each one's name, its queue's name, and whether it runs, waits, or waits on a suspended
    /// queue.
    var operationsLeft: [(operation: String, queue: String, state: String)] {
        queues.flatMap { queue in
            queue.operations.filter(\.isTraced).map { operation in
                let state = operation.isExecuting ? "running" : queue.isSuspended ? "suspended" : "waiting"
                return (operation.traceName, queue.name ?? "queue", state)
            }
        }
    }

    /// Kills the launch (the next one has the next number): its waiting operations go without their blocks, which would otherwise keep the
    /// whole app alive (controller → queue → operation → completion block → controller), and its threads
    /// stop at their next blocking call.
    func kill() {
        for queue in queues { queue.abandonWaitingOperations() }
        completionThreads?.abandon()
        completionThreads = nil
        for thread in threads {
            thread.isKilled = true
            thread.interrupt()
        }
        threads = []
        queues = []
        launch += 1
    }
}
