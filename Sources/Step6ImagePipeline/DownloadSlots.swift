import Shared

/// At most a few transfers at once, as step 4's download queue's `maxConcurrentOperationCount`: a load
/// waits here for a slot, the more eager first and, among equals, the one that came first; a slot goes
/// back when its transfer ends. While suspended (the user scrolls), as step 4's suspended queue, no
/// download starts, except a visible row's while the finger drags slowly.
///
/// Its state is under a lock, as swift-async-algorithms keeps its waiters: whoever calls (the loader,
/// the main actor's scroll callbacks, a cancellation handler) changes it at once, so what they tell it
/// takes effect in the order they tell it, and a cancelled waiter is resumed from its task's
/// cancellation handler.
final class DownloadSlots: Sendable {
    let limit: Int
    private let state = Mutex(State())

    private struct State {
        var inUse = 0
        var isSuspended = false
        /// Whether visible rows' downloads start even while suspended (the finger drags at reading pace).
        var visibleRowsMayStart = false
        var waiters: [Waiter] = []
        /// Priorities raised before the load came to wait (a visible row joined a prefetch's load).
        var raised: [Int: TaskPriority] = [:]
    }

    /// A load waiting for its slot.
    private struct Waiter {
        let load: Int
        var priority: TaskPriority
        let continuation: CheckedContinuation<Void, any Error>
    }

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Whether downloads not yet started are held (the user scrolls).
    var isSuspended: Bool { state.withLock { $0.isSuspended } }

    /// How many loads wait for a slot, and how many slots are taken.
    var counts: (waiting: Int, inUse: Int) { state.withLock { ($0.waiters.count, $0.inUse) } }

    /// Waits for a slot for `load`; throws `CancellationError` if the task is cancelled first.
    func acquire(for load: Int, priority: TaskPriority) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { state -> [CheckedContinuation<Void, any Error>]? in
                    guard !Task.isCancelled else { return nil }
                    let priority = max(priority, state.raised.removeValue(forKey: load) ?? priority)
                    state.waiters.append(Waiter(load: load, priority: priority, continuation: continuation))
                    return Self.startNext(&state, limit: limit)
                }
                guard let ready else { return continuation.resume(throwing: CancellationError()) }
                for waiter in ready { waiter.resume() }
            }
        } onCancel: {
            let gone = state.withLock { state in
                state.waiters.firstIndex { $0.load == load }.map { state.waiters.remove(at: $0) }
            }
            gone?.continuation.resume(throwing: CancellationError())
        }
    }

    /// A transfer ended: its slot goes to the next load.
    func release() {
        change { $0.inUse -= 1 }
    }

    /// Raises a load's priority, waiting or about to wait (a visible row wants what a prefetch asked for).
    func raise(_ load: Int, to priority: TaskPriority) {
        change { state in
            if let index = state.waiters.firstIndex(where: { $0.load == load }) {
                state.waiters[index].priority = max(state.waiters[index].priority, priority)
            } else {
                state.raised[load] = max(state.raised[load] ?? priority, priority)
            }
        }
    }

    /// Forgets a raise for a load that will not wait (it ended).
    func forget(_ load: Int) {
        change { $0.raised[load] = nil }
    }

    /// Holds (or lets go of) every download that has not started yet.
    func setSuspended(_ suspended: Bool) {
        change { $0.isSuspended = suspended }
    }

    /// Lets visible rows' downloads start while suspended, or holds them again.
    func setVisibleRowsMayStart(_ mayStart: Bool) {
        change { $0.visibleRowsMayStart = mayStart }
    }

    /// Changes the state under the lock, then resumes, outside it, the waiters that got a slot.
    private func change(_ body: (inout State) -> Void) {
        let ready = state.withLock { state in
            body(&state)
            return Self.startNext(&state, limit: limit)
        }
        for waiter in ready { waiter.resume() }
    }

    /// Hands free slots to the most eager waiters, in order.
    private static func startNext(_ state: inout State, limit: Int) -> [CheckedContinuation<Void, any Error>]
    {
        var ready: [CheckedContinuation<Void, any Error>] = []
        while state.inUse < limit, let index = mostEager(state.waiters) {
            // Scrolling: only a visible row, and only at reading pace.
            let isVisibleRow = state.waiters[index].priority >= .userInitiated
            guard !state.isSuspended || (state.visibleRowsMayStart && isVisibleRow) else { break }
            state.inUse += 1
            ready.append(state.waiters.remove(at: index).continuation)
        }
        return ready
    }

    private static func mostEager(_ waiters: [Waiter]) -> Int? {
        var best: Int?
        for index in waiters.indices where best == nil || waiters[index].priority > waiters[best!].priority {
            best = index
        }
        return best
    }
}
