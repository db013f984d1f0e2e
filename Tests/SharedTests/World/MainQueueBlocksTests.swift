import Shared
import Testing

@testable import Runtime
@testable import UI
@testable import World

/// The main thread's bookkeeping on its own: the main queue's order, late completions from cancelled
/// operations, and the idle stretch the scroll driver asks about.
extension WorldTests {
    @Test("The main queue lists the running block first, then the waiting ones in the order they came")
    func runningBlockListedFirst() {
        let blocks = MainQueueBlocks()
        nonisolated(unsafe) var seen: [[String]] = []
        let names = { (operations: [Operation]) in operations.map { $0.name ?? "?" } }
        let first = BlockOperation.simulator { seen.append(names(blocks.operations)) }
        first.name = "first"
        let second = BlockOperation {}
        second.name = "second"
        let third = BlockOperation {}
        third.name = "third"
        for operation in [first, second, third] { blocks.append(operation, origin: nil) }
        #expect(names(blocks.operations) == ["first", "second", "third"])
        let next = blocks.takeNext()
        blocks.run(next.operation, origin: next.origin)
        #expect(seen == [["first", "second", "third"]])
        #expect(names(blocks.operations) == ["second", "third"])
        blocks.removeAll()
        #expect(blocks.isEmpty && blocks.operations.isEmpty)
    }

    @Test("A block from a cancelled operation is late once, however often it changes the table; others never")
    func cancelledOperationBlockLateOnce() {
        let blocks = MainQueueBlocks()
        let cancelled = BlockOperation {}
        cancelled.cancel()
        var late: [Bool] = []
        let mutateTwice = {
            late.append(blocks.tableMutatedLate(cancelledTask: false))
            late.append(blocks.tableMutatedLate(cancelledTask: false))
        }
        blocks.run(BlockOperation.simulator(mutateTwice), origin: cancelled)
        blocks.run(BlockOperation.simulator(mutateTwice), origin: BlockOperation {})
        blocks.run(BlockOperation.simulator(mutateTwice), origin: cancelled)
        #expect(late == [true, false, false, false, true, false])
        // A block queued by no operation is late only when it runs for a cancelled task.
        blocks.run(
            BlockOperation.simulator { late.append(blocks.tableMutatedLate(cancelledTask: true)) },
            origin: nil)
        #expect(late.last == true)
    }

    @Test("The idle stretch runs from the first wait to the next work, and a new main thread starts busy")
    func idleStretchRunsToNextWork() {
        let blocks = MainQueueBlocks()
        blocks.mainThreadStarted(at: 100)
        #expect(!blocks.wasIdle(at: 50, now: 1_000))
        blocks.noteIdle(at: 200)
        blocks.noteIdle(at: 300)
        #expect(blocks.wasIdle(at: 200, now: 1_000) && blocks.wasIdle(at: 1_000, now: 1_000))
        #expect(!blocks.wasIdle(at: 150, now: 1_000))
        blocks.noteBusy(at: 400)
        blocks.noteBusy(at: 500)
        #expect(blocks.wasIdle(at: 400, now: 1_000) && !blocks.wasIdle(at: 401, now: 1_000))
        blocks.mainThreadStarted(at: 600)
        #expect(!blocks.wasIdle(at: 300, now: 1_000))
    }

}
