import Shared

/// A few tasks at a time in one stage of the work, the others waiting in line: what step 4's
/// `OperationQueue`, with its `maxConcurrentOperationCount`, `isSuspended` and low queue priority,
/// becomes for tasks. A waiting task that is cancelled leaves the line at once: its cancellation
/// handler takes its continuation out and resumes it, as swift-async-algorithms does. The line is
/// under a lock rather than in an actor, so that the main actor suspends it at once, with no hop, and a
/// cancellation handler, which runs on whatever thread cancels, can reach it.
final class TaskQueue: Sendable {
    /// How many tasks may run their stage at once.
    let maxConcurrentOperationCount: Int
    private let state = Mutex(State())

    private struct Waiter {
        let number: Int
        /// Whether the task has low priority: such waiters go after all the others, as in step 4.
        let isLow: Bool
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var running = 0
        var isSuspended = false
        var waiting: [Waiter] = []
        var lastNumber = 0

        /// Takes the waiters whose turn it is, higher priority first, each in the order it came.
        mutating func takeReady(limit: Int) -> [Waiter] {
            var ready: [Waiter] = []
            while !isSuspended, running < limit,
                let next = waiting.firstIndex(where: { !$0.isLow }) ?? waiting.indices.first
            {
                ready.append(waiting.remove(at: next))
                running += 1
            }
            return ready
        }
    }

    init(maxConcurrentOperationCount: Int) {
        self.maxConcurrentOperationCount = maxConcurrentOperationCount
    }

    /// Whether tasks in line wait even when there is room (while the user scrolls).
    var isSuspended: Bool {
        get { state.withLock { $0.isSuspended } }
        set {
            let ready = state.withLock { state in
                state.isSuspended = newValue
                return state.takeReady(limit: maxConcurrentOperationCount)
            }
            for waiter in ready { waiter.continuation.resume() }
        }
    }

    /// Runs `operation` when its turn comes. Throws `CancellationError` if the task is cancelled while
    /// it waits.
    func run<T: Sendable>(_ operation: () async throws -> T) async throws -> T {
        try await waitForTurn()
        defer { finished() }
        return try await operation()
    }

    private func waitForTurn() async throws {
        let number = state.withLock { state in
            state.lastNumber += 1
            return state.lastNumber
        }
        let isLow = Task.currentPriority < .medium
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (isCancelled, ready) = state.withLock { state in
                    // Under the lock: a task cancelled before this line is seen here, one cancelled after
                    // it finds its waiter in the handler below.
                    guard !Task.isCancelled else { return (true, [Waiter]()) }
                    state.waiting.append(Waiter(number: number, isLow: isLow, continuation: continuation))
                    return (false, state.takeReady(limit: maxConcurrentOperationCount))
                }
                if isCancelled { continuation.resume(throwing: CancellationError()) }
                for waiter in ready { waiter.continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiting.firstIndex { $0.number == number }.map { state.waiting.remove(at: $0) }
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// A task ran its stage: the next in line may start.
    private func finished() {
        let ready = state.withLock { state in
            state.running -= 1
            return state.takeReady(limit: maxConcurrentOperationCount)
        }
        for waiter in ready { waiter.continuation.resume() }
    }
}
