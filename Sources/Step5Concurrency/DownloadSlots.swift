import Shared

/// At most a few downloads at once, as step 4's download queue's `maxConcurrentOperationCount`: a task
/// waits for a slot, more eager tasks first, and gives it back when its transfer ends. While suspended
/// (the user is scrolling), as step 4's suspended queue, no download starts.
actor DownloadSlots {
    let limit: Int
    private(set) var isSuspended = false
    private let executor: any TaskExecutor
    private var inUse = 0
    private var waiting: [Waiter] = []
    private var nextNumber = 0

    private struct Waiter {
        let number: Int
        let priority: TaskPriority
        let continuation: CheckedContinuation<Void, any Error>
    }

    init(limit: Int, executor: any TaskExecutor) {
        self.limit = max(1, limit)
        self.executor = executor
    }

    /// Waits for a free slot; throws `CancellationError` if the task is cancelled while it waits.
    /// A download already under way (a retry) is not held by a suspension, as a running operation
    /// goes on in a suspended queue.
    func acquire(underWay: Bool = false) async throws {
        try Task.checkCancellation()
        if inUse < limit && waiting.isEmpty && (!isSuspended || underWay) {
            inUse += 1
            return
        }
        nextNumber += 1
        let number = nextNumber
        let priority = Task.currentPriority
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiting.append(Waiter(number: number, priority: priority, continuation: continuation))
            }
        } onCancel: {
            Task(executorPreference: executor) { await self.giveUpWaiting(number) }
        }
    }

    /// Frees a slot for the most eager waiting task.
    func release() {
        inUse -= 1
        startWaiting()
    }

    /// Holds (or lets go of) every download that has not started yet.
    func setSuspended(_ suspended: Bool) {
        isSuspended = suspended
        startWaiting()
    }

    private func startWaiting() {
        while !isSuspended, inUse < limit, let next = mostEager() {
            inUse += 1
            next.continuation.resume()
        }
    }

    private func mostEager() -> Waiter? {
        guard var best = waiting.indices.first else { return nil }
        for index in waiting.indices where waiting[index].priority > waiting[best].priority {
            best = index
        }
        return waiting.remove(at: best)
    }

    private func giveUpWaiting(_ number: Int) {
        guard let index = waiting.firstIndex(where: { $0.number == number }) else { return }
        waiting.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}
