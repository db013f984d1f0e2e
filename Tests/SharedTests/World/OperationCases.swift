import Foundation

// The rules of Foundation's `Operation` and `OperationQueue` that the steps and the course rely on, as
// short programs. The same file is compiled twice: into the tests, where `Operation`, `OperationQueue`
// and `BlockOperation` are the simulated phone's look-alikes, and by
// `Scripts/foundation-operation-cases/run`, where they are Foundation's. The script's output, recorded
// once on real Foundation, is the expected result the tests compare the look-alikes with.

/// What a case program can do besides using the operation types: note what it sees, and block the thread
/// it runs on for a while (virtual time on the phone, real time on Foundation).
protocol OperationCaseWorld: AnyObject, Sendable {
    func note(_ text: String)
    func pause(milliseconds: Int)
}

/// One rule as a program. It starts on the main thread; the world then runs until every queue is idle.
struct OperationCase {
    let name: String
    let run: (OperationCaseWorld) -> Void
}

/// A case that must stop the program (a precondition of Foundation's), run in a process of its own.
struct OperationTrapCase {
    let name: String
    let run: () -> Void
}

/// An operation whose work is to block its thread for a while, noting its start and end.
final class PauseOperation: Operation, @unchecked Sendable {
    let world: OperationCaseWorld
    let label: String
    let milliseconds: Int

    init(_ world: OperationCaseWorld, _ label: String, milliseconds: Int) {
        self.world = world
        self.label = label
        self.milliseconds = milliseconds
        super.init()
    }

    override func main() {
        world.note("\(label) starts")
        world.pause(milliseconds: milliseconds)
        world.note("\(label) ends")
    }
}

enum OperationCases {
    static var all: [OperationCase] {
        [
            OperationCase(name: "default-concurrency") { world in
                let queue = OperationQueue()
                world.note("default \(OperationQueue.defaultMaxConcurrentOperationCount)")
                world.note("new queue \(queue.maxConcurrentOperationCount)")
                world.note("main queue \(OperationQueue.main.maxConcurrentOperationCount)")
            },
            OperationCase(name: "dependency-waits") { world in
                let queue = OperationQueue()
                let first = PauseOperation(world, "A", milliseconds: 200)
                let second = PauseOperation(world, "B", milliseconds: 10)
                second.addDependency(first)
                world.note("B depends on \(second.dependencies.count)")
                queue.addOperation(second)
                queue.addOperation(first)
            },
            OperationCase(name: "cancelled-dependency-still-runs-dependent") { world in
                let queue = OperationQueue()
                let first = PauseOperation(world, "A", milliseconds: 100)
                let second = PauseOperation(world, "B", milliseconds: 10)
                second.addDependency(first)
                first.cancel()
                queue.addOperation(first)
                queue.addOperation(second)
            },
            OperationCase(name: "main-queue-is-serial") { world in
                let queue = OperationQueue()
                queue.addOperation {
                    for label in ["A", "B", "C"] {
                        OperationQueue.main.addOperation {
                            world.note("\(label) starts")
                            world.pause(milliseconds: 50)
                            world.note("\(label) ends")
                        }
                    }
                }
            },
            OperationCase(name: "main-queue-counts-pending-blocks") { world in
                OperationQueue.main.addOperation { world.note("block runs") }
                world.note("pending \(OperationQueue.main.operationCount)")
            },
            OperationCase(name: "max-zero-runs-nothing") { world in
                let queue = OperationQueue()
                queue.maxConcurrentOperationCount = 0
                queue.addOperation(PauseOperation(world, "A", milliseconds: 10))
                world.pause(milliseconds: 200)
                world.note("count \(queue.operationCount)")
                queue.cancelAllOperations()
                world.pause(milliseconds: 200)
                world.note("count after cancelling \(queue.operationCount)")
            },
            OperationCase(name: "completion-block-does-not-hold-the-slot") { world in
                let queue = OperationQueue()
                queue.maxConcurrentOperationCount = 1
                let first = PauseOperation(world, "A", milliseconds: 50)
                first.completionBlock = {
                    // Whether it or B begins first is a race in Foundation: it notes only its end.
                    world.pause(milliseconds: 300)
                    world.note("A's completion ends")
                }
                queue.addOperation(first)
                queue.addOperation(PauseOperation(world, "B", milliseconds: 50))
            },
            OperationCase(name: "cancelled-before-start") { world in
                let queue = OperationQueue()
                queue.maxConcurrentOperationCount = 1
                let blocker = PauseOperation(world, "A", milliseconds: 100)
                let victim = PauseOperation(world, "B", milliseconds: 10)
                victim.completionBlock = {
                    world.note(
                        "B's completion: cancelled \(victim.isCancelled), finished \(victim.isFinished)")
                }
                queue.addOperation(blocker)
                queue.addOperation(victim)
                victim.cancel()
            },
            OperationCase(name: "priority-orders-ready-operations") { world in
                let queue = OperationQueue()
                queue.maxConcurrentOperationCount = 1
                queue.isSuspended = true
                for (label, priority) in [
                    ("low", Operation.QueuePriority.low), ("normal", .normal), ("veryHigh", .veryHigh),
                ] {
                    let operation = PauseOperation(world, label, milliseconds: 10)
                    operation.queuePriority = priority
                    queue.addOperation(operation)
                }
                queue.isSuspended = false
            },
            OperationCase(name: "queue-priority-is-not-comparable") { world in
                world.note("comparable \(Operation.QueuePriority.normal as Any is any Comparable)")
                world.note(
                    "raw values \(Operation.QueuePriority.veryLow.rawValue) \(Operation.QueuePriority.veryHigh.rawValue)"
                )
            },
        ]
    }

    static var traps: [OperationTrapCase] {
        [
            OperationTrapCase(name: "enqueue-finished") {
                let queue = OperationQueue()
                let operation = BlockOperation {}
                operation.start()
                queue.addOperation(operation)
            },
            OperationTrapCase(name: "enqueue-twice") {
                let queue = OperationQueue()
                queue.isSuspended = true
                let operation = BlockOperation {}
                queue.addOperation(operation)
                queue.addOperation(operation)
            },
        ]
    }
}
