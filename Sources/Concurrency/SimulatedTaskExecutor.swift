import Runtime

/// The phone's cooperative thread pool: a task executor (SE-0417) whose jobs run on a few simulated
/// worker threads, in virtual time, in an order fixed by the scheduler.
///
/// Swift's own global concurrent executor runs jobs on real threads in whatever order they come, which
/// no simulation can replay. A task started with `Task(executorPreference:)` runs its nonisolated code,
/// the default actors it calls and its child tasks here instead. Work that takes virtual time (decoding,
/// disk) blocks the worker running it, as CPU work holds a real pool thread; waiting (network, sleeps)
/// suspends the task and frees the worker.
/// Unchecked Sendable: its queue is used only on the phone's simulated threads, one at a time.
public final class SimulatedTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: OperationQueue

    /// Makes a pool of `width` worker threads for the app on whose simulated thread this is called.
    public init(name: String = "Cooperative pool", width: Int = 4) {
        queue = OperationQueue()
        queue.name = name
        queue.maxConcurrentOperationCount = width
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let priority = Self.queuePriority(job.priority)
        let unowned = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let operation = BlockOperation {
            unowned.runSynchronously(on: executor)
            // Jobs start in the order they were enqueued: the worker lets the others already given a
            // job run theirs before it takes the next one from the queue.
            SimulatedThread.current?.yield()
        }
        operation.name = "job"
        // Not traced: a debug build cuts a task into more jobs than a release build of the same code
        // (the optimiser removes some executor hops), and the trace must not depend on the build. The
        // work a job does is traced by itself (decode, filter, disk, request events).
        operation.isTraced = false
        operation.queuePriority = priority
        queue.addOperation(operation)
    }

    /// A task's priority as a queue priority: low-priority tasks (prefetch) start after the others.
    static func queuePriority(_ priority: JobPriority) -> Operation.QueuePriority {
        let medium = TaskPriority.medium.rawValue
        if priority.rawValue < medium { return .low }
        if priority.rawValue > medium { return .high }
        return .normal
    }
}
