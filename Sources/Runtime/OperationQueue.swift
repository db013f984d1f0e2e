/// Runs operations on simulated worker threads: the simulated phone's look-alike of Foundation's
/// `OperationQueue`.
///
/// At most `maxConcurrentOperationCount` operations run at once, each on a worker thread of this queue.
/// Ready operations start in priority order, then in the order they were added. A suspended queue starts
/// nothing new; operations already running go on. `OperationQueue.main` is the main thread's queue: its
/// operations run one at a time on the main thread, at its next turn. Foundation's rules hold, checked
/// against Foundation itself by Tests/SharedTests/World/OperationCases.swift.
public final class OperationQueue: @unchecked Sendable {
    /// Foundation's "let the system decide": a queue made with it runs every ready operation at once
    /// (the simulated phone's workers never compete for CPU cores).
    public static let defaultMaxConcurrentOperationCount = -1

    /// A name; worker threads are named after it in traces.
    public var name: String?
    /// How many operations may run at once: `defaultMaxConcurrentOperationCount` (−1) for as many as
    /// are ready, 0 for none. The main queue's is 1.
    public var maxConcurrentOperationCount: Int = OperationQueue.defaultMaxConcurrentOperationCount {
        didSet {
            if isMainQueue { maxConcurrentOperationCount = 1 }
            startReadyOperations()
        }
    }
    /// When true, the queue starts nothing new.
    public var isSuspended = false {
        didSet {
            if !isSuspended { startReadyOperations() }
        }
    }

    unowned let host: any AppHost
    /// The launch of the app that made this queue; a relaunch kills it.
    let launch: Int
    let isMainQueue: Bool
    private var waiting: [Operation] = []
    private var running: [Operation] = []
    private var workers: [Worker] = []
    private var additions: UInt64 = 0

    /// Makes a queue belonging to the phone whose simulated thread calls this.
    public convenience init() {
        guard let host = SimulatedThread.currentHost else {
            preconditionFailure("Make operation queues inside the app, on a simulated thread of a Phone.")
        }
        self.init(host: host, isMainQueue: false)
        host.register(queue: self)
    }

    package init(host: any AppHost, isMainQueue: Bool) {
        self.host = host
        self.launch = host.launch
        self.isMainQueue = isMainQueue
        if isMainQueue {
            name = "main"
            maxConcurrentOperationCount = 1
        }
    }

    /// The main thread's queue of the phone whose simulated thread calls this.
    public static var main: OperationQueue {
        guard let host = SimulatedThread.currentHost else {
            preconditionFailure("OperationQueue.main is only available on a simulated thread of a Phone.")
        }
        return host.mainQueue
    }

    /// The operations added and not yet finished: running ones first, then waiting ones in order.
    public var operations: [Operation] { isMainQueue ? host.mainQueueOperations : running + waiting }

    /// How many operations are added and not yet finished (for the main queue: its blocks waiting or
    /// running).
    public var operationCount: Int {
        isMainQueue ? host.mainQueueOperations.count : running.count + waiting.count
    }

    /// Foundation's message for an operation that cannot be added.
    static let cannotEnqueue = "operations finished, executing or already in a queue cannot be enqueued"

    /// Adds an operation; it starts when the queue has room and it is the most eager ready one. As
    /// Foundation does, it stops the program if the operation finished, is running, or is in a queue.
    public func addOperation(_ operation: Operation) {
        if operation.isFinished || operation.isExecuting || operation.queue != nil {
            fatalError(Self.cannotEnqueue)
        }
        if isMainQueue {
            operation.queue = self
            host.enqueueOnMainThread(operation)
            return
        }
        // A killed app's main thread may still be finishing a frame: what it adds never runs, and its
        // blocks must not keep the dead app alive.
        guard !isKilled else {
            operation.abandon()
            return
        }
        operation.queue = self
        additions += 1
        operation.additionOrder = additions
        waiting.append(operation)
        startReadyOperations()
    }

    /// Adds an operation that runs a closure.
    public func addOperation(_ block: @escaping @Sendable () -> Void) {
        addOperation(BlockOperation(block: block))
    }

    /// Cancels every operation added and not yet finished.
    public func cancelAllOperations() {
        for operation in operations { operation.cancel() }
    }

    /// Whether the app this queue belongs to was killed by a relaunch.
    private var isKilled: Bool { launch != host.launch }

    /// Called when an operation may have become startable (cancelled while waiting).
    func operationBecameReady() {
        startReadyOperations()
    }

    /// Starts ready operations while there is room, most eager first.
    func startReadyOperations() {
        guard !isMainQueue else { return }
        let limit = maxConcurrentOperationCount < 0 ? Int.max : maxConcurrentOperationCount
        while !isSuspended, !isKilled, running.count < limit {
            var best: Int?
            for index in waiting.indices where waiting[index].isReady {
                if let current = best,
                    waiting[index].queuePriority.rawValue <= waiting[current].queuePriority.rawValue
                {
                    continue
                }
                best = index
            }
            guard let best else { return }
            let operation = waiting.remove(at: best)
            running.append(operation)
            if let thread = SimulatedThread.current {
                operation.handedOut = (thread.number, thread.turns)
            }
            idleWorker().assign(operation)
        }
    }

    private func idleWorker() -> Worker {
        if let worker = workers.first(where: { $0.isIdle }) { return worker }
        let worker = Worker(queue: self, number: workers.count + 1)
        workers.append(worker)
        return worker
    }

    /// Lets go of every waiting operation without running it: the app this queue belongs to was killed.
    package func abandonWaitingOperations() {
        let abandoned = waiting
        waiting = []
        for operation in abandoned { operation.abandon() }
    }

    func operationFinished(_ operation: Operation) {
        running.removeAll { $0 === operation }
        startReadyOperations()
    }

    /// The thread-name prefix for this queue's workers: its name in lower case, spaces as dashes.
    var threadNamePrefix: String {
        let base = (name ?? "queue").lowercased()
        return String(base.map { $0 == " " ? "-" : $0 })
    }

    /// One worker thread of a queue: runs the operations it is given, one at a time.
    ///
    /// The queue is held weakly: a killed app's queue may go away while its worker thread is still
    /// winding down the operation it was running.
    final class Worker {
        private weak var queue: OperationQueue?
        private unowned let host: any AppHost
        private let threadName: String
        private var assigned: Operation?
        private var thread: SimulatedThread?

        init(queue: OperationQueue, number: Int) {
            self.queue = queue
            self.host = queue.host
            self.threadName = "\(queue.threadNamePrefix)-\(number)"
        }

        var isIdle: Bool { assigned == nil }

        func assign(_ operation: Operation) {
            assigned = operation
            if let thread {
                thread.wake()
            } else {
                thread = host.startAppThread(name: threadName) { [self] thread in
                    self.runLoop(on: thread)
                }
            }
        }

        private func runLoop(on thread: SimulatedThread) {
            while !thread.isInterrupted {
                guard let operation = assigned else {
                    thread.park()
                    continue
                }
                thread.runningOperation = operation
                let name = operation.traceName
                if operation.isTraced { host.operationStarted(name, thread: thread.name) }
                operation.start()
                if operation.isTraced {
                    host.operationFinished(
                        name, thread: thread.name, cancelled: operation.isCancelled)
                }
                thread.runningOperation = nil
                assigned = nil
                queue?.operationFinished(operation)
            }
            // The app was killed (or the world ended) before an operation given to this worker could
            // start: it never runs, and must not keep the app alive through its completion block.
            assigned?.abandon()
            assigned = nil
        }
    }
}
