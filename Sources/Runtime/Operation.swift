/// A unit of work for an `OperationQueue`: the simulated phone's look-alike of Foundation's `Operation`.
///
/// Subclasses override `main()`. Foundation's rules hold (Tests/SharedTests/World/OperationCases.swift
/// checks them against Foundation itself): an operation cancelled before it starts never runs `main()`,
/// still finishes, and still runs its `completionBlock`; `isCancelled` is the flag `main()` checks around
/// its blocking work; an operation is ready once its dependencies finished (or were cancelled and
/// retired), or once it is cancelled itself. The completion block is dispatched to another thread when the
/// operation finishes, so it does not hold the queue's slot, and it is released once it has run, so a
/// block that captures its own operation does not keep it alive. Its API is Foundation's to the letter,
/// `@unchecked Sendable` and `@Sendable` blocks included, so step code that compiles here compiles there.
open class Operation: @unchecked Sendable {
    /// How eagerly a queue starts this operation among the ready ones. As Foundation's, it is not
    /// `Comparable`: compare `rawValue`s.
    public enum QueuePriority: Int, Sendable {
        case veryLow = -8
        case low = -4
        case normal = 0
        case high = 4
        case veryHigh = 8
    }

    /// Whether `cancel()` has been called.
    public private(set) var isCancelled = false
    /// Whether `main()` is running.
    public private(set) var isExecuting = false
    /// Whether the operation is done (ran, or was cancelled and retired).
    public private(set) var isFinished = false
    /// Runs once the operation finishes, dispatched to a thread of its own.
    public var completionBlock: (@Sendable () -> Void)?
    /// Where the operation stands among the ready ones of its queue.
    public var queuePriority: QueuePriority = .normal
    /// A name for traces and debugging.
    public var name: String?
    /// The name traces give the operation: its `name`, else its type's.
    package var traceName: String { name ?? String(describing: type(of: self)) }
    /// Whether the trace records this operation's start and end. The cooperative pool turns it off for
    /// its jobs: how many jobs a task is cut into depends on how the compiler optimised its `await`s.
    package var isTraced = true

    /// The operations that must finish before this one can start.
    public private(set) var dependencies: [Operation] = []
    /// Operations waiting for this one to finish (let go when it does).
    private var dependents: [Operation] = []
    /// Things to do when the operation is cancelled (a cancellable transfer registers one).
    private var cancellationHandlers: [() -> Void] = []
    /// The queue it was added to.
    weak var queue: OperationQueue?
    /// Order of addition, the tie-breaker among equal priorities.
    var additionOrder: UInt64 = 0
    /// The thread whose turn handed the operation to a worker (its `number`), and that turn's number.
    var handedOut: (thread: Int, turn: UInt64)?
    /// Whether the thread that handed the operation to a worker cancelled it in the same turn, before the
    /// worker could begin: a race on real threads, where the worker may already be running `main()`.
    package private(set) var wasCancelledAsHandedOut = false

    public init() {}

    /// The work. The default does nothing.
    open func main() {}

    /// Whether a queue may start it: every dependency finished, or it is cancelled.
    public var isReady: Bool {
        isCancelled || dependencies.allSatisfy(\.isFinished)
    }

    /// Makes this operation wait until `operation` finishes (a cancelled dependency still finishes, so
    /// the dependent then runs).
    public func addDependency(_ operation: Operation) {
        guard !dependencies.contains(where: { $0 === operation }) else { return }
        dependencies.append(operation)
        if !operation.isFinished { operation.dependents.append(self) }
    }

    /// Stops waiting for `operation`.
    public func removeDependency(_ operation: Operation) {
        dependencies.removeAll { $0 === operation }
        operation.dependents.removeAll { $0 === self }
        queue?.operationBecameReady()
    }

    /// Marks the operation cancelled; work in `main()` sees it at its next `isCancelled` check, and a
    /// cancellable transfer it is waiting on stops.
    open func cancel() {
        guard !isCancelled, !isFinished else { return }
        isCancelled = true
        if let handedOut, !isExecuting, let thread = SimulatedThread.current {
            wasCancelledAsHandedOut = handedOut == (thread.number, thread.turns)
        }
        let handlers = cancellationHandlers
        cancellationHandlers = []
        for handler in handlers { handler() }
        SimulatedThread.currentHost?.operationCancelled(self)
        queue?.operationBecameReady()
    }

    /// Runs the operation on the calling thread: `main()` unless cancelled. When it finishes, its
    /// dependents may start and its completion block is dispatched to a thread of its own.
    public func start() {
        guard !isFinished, !isExecuting else { return }
        if !isCancelled {
            isExecuting = true
            main()
            isExecuting = false
        }
        isFinished = true
        cancellationHandlers = []
        let waiting = dependents
        dependents = []
        for dependent in waiting { dependent.queue?.operationBecameReady() }
        guard let completion = completionBlock else { return }
        completionBlock = nil
        if let host = SimulatedThread.currentHost {
            host.dispatchCompletion(completion, of: self)
        } else {
            completion()
        }
    }

    /// Lets go of the operation's blocks without running them: its app was killed (a relaunch), so none
    /// of it runs again, and a completion block that captures the app (as the articles' blocks capture
    /// `self`) must not keep the dead app alive through the queue that holds this operation.
    func abandon() {
        completionBlock = nil
        cancellationHandlers = []
        dependents = []
    }

    /// Registers work to run if the operation is cancelled; runs it at once if it already was.
    package func onCancel(_ handler: @escaping () -> Void) {
        if isCancelled {
            handler()
        } else {
            cancellationHandlers.append(handler)
        }
    }
}

/// An operation that runs a closure.
public final class BlockOperation: Operation, @unchecked Sendable {
    private var block: (() -> Void)?

    /// Makes an operation that runs `block`.
    public init(block: @escaping @Sendable () -> Void) {
        self.block = block
    }

    private init(unchecked block: @escaping () -> Void) {
        self.block = block
    }

    /// An operation that runs a block of the simulator's own: simulated threads run one at a time, so it
    /// need not be `Sendable`.
    package static func simulator(_ block: @escaping () -> Void) -> BlockOperation {
        BlockOperation(unchecked: block)
    }

    /// Runs the block once, then lets it go.
    override public func main() {
        let work = block
        block = nil
        work?()
    }
}
