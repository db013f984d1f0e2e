import Foundation
import LiveLock

/// The simulator's `late_completions`, live: a main-queue block that changes the table although the
/// operation that queued it (from its `main()` or its completion block) was cancelled, or a main-actor job
/// of a cancelled task that does; counted once a block, and once a task.
enum LateCompletions {
    private static let operationKey = "workbook.running-operation"
    /// The main-queue block running now: the operation that queued it, whether it was counted late, and
    /// the cancelled tasks counted so far (by their hash).
    private static let main = Mutex((origin: Operation?.none, counted: false, tasks: Set<Int>()))

    /// The operation running on this thread (its `main()` or its completion block), if any.
    static var runningOperation: Operation? {
        Thread.current.threadDictionary[operationKey] as? Operation
    }

    /// Runs `body` as `operation`'s work on this thread.
    static func run<T>(as operation: Operation, _ body: () -> T) -> T {
        let dictionary = Thread.current.threadDictionary
        let outer = dictionary[operationKey]
        dictionary[operationKey] = operation
        defer { dictionary[operationKey] = outer }
        return body()
    }

    /// Runs a main-queue block that `origin` queued.
    static func runBlock(queuedBy origin: Operation?, _ block: () -> Void) {
        main.withLock { state in
            state.origin = origin
            state.counted = false
        }
        defer { main.withLock { $0.origin = nil } }
        block()
    }

    /// The app changed the table (on the main thread, as it must).
    static func tableMutated() {
        guard Thread.isMainThread else { return }
        let cancelledTask = withUnsafeCurrentTask { task in
            task.flatMap { $0.isCancelled ? $0.hashValue : nil }
        }
        let late = main.withLock { state -> Bool in
            if let cancelledTask {
                return state.tasks.insert(cancelledTask).inserted
            }
            guard state.origin?.isCancelled == true, !state.counted else { return false }
            state.counted = true
            return true
        }
        if late { LiveTally.count(.lateCompletions) }
    }
}

/// Foundation's `OperationQueue`, whose `main` remembers, for each block queued on it, the operation that
/// queued it, so that the table can tell a late completion as the simulator does.
open class OperationQueue: Foundation.OperationQueue, @unchecked Sendable {
    open override class var main: Foundation.OperationQueue { MainOperationQueue.shared }
}

/// The main queue as steps see it: each block goes to Foundation's main queue, with the operation running
/// where it was queued.
final class MainOperationQueue: Foundation.OperationQueue, @unchecked Sendable {
    static let shared = MainOperationQueue()

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        let origin = LateCompletions.runningOperation
        Foundation.OperationQueue.main.addOperation {
            LateCompletions.runBlock(queuedBy: origin, block)
        }
    }

    override func addOperation(_ operation: Foundation.Operation) {
        Foundation.OperationQueue.main.addOperation(operation)
    }
}
