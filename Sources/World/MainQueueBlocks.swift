import Runtime

/// The main thread's own bookkeeping: the main-queue blocks waiting for their turn, the one running, whether
/// it came late (from a cancelled operation), and the main thread's latest idle stretch.
final class MainQueueBlocks {
    private var waiting: [(operation: Operation, origin: Operation?)] = []
    /// The main-queue block running now, if any.
    private var running: Operation?
    /// The operation that queued the running block, if one did.
    private var runningOrigin: Operation?
    /// Whether the running block has already been counted as a late completion.
    private var runningWasLate = false
    /// The main thread's latest idle stretch: from `idleFrom` until `idleUntil` (nil while it lasts).
    private var idleFrom: Int64 = 0
    private var idleUntil: Int64? = 0

    /// Whether no block is waiting.
    var isEmpty: Bool { waiting.isEmpty }

    /// The main queue's operations: the running block, then the waiting ones in order.
    var operations: [Operation] {
        (running.map { [$0] } ?? []) + waiting.map(\.operation)
    }

    /// Queues `operation`, which `origin` (the operation running on the caller's thread, if any) queued.
    func append(_ operation: Operation, origin: Operation?) {
        waiting.append((operation, origin))
    }

    /// Takes the next waiting block off the queue.
    func takeNext() -> (operation: Operation, origin: Operation?) {
        waiting.removeFirst()
    }

    /// Runs a block taken off the queue on the calling (main) thread.
    func run(_ operation: Operation, origin: Operation?) {
        runningOrigin = origin
        runningWasLate = false
        running = operation
        operation.start()
        running = nil
        runningOrigin = nil
    }

    /// Forgets every waiting block (the app was killed).
    func removeAll() {
        waiting = []
    }

    /// The running block changed the table: whether that is a late completion not counted yet, because the
    /// block came from a cancelled operation or runs for a cancelled task (`cancelledTask`).
    func tableMutatedLate(cancelledTask: Bool) -> Bool {
        guard cancelledTask || runningOrigin?.isCancelled == true, !runningWasLate else { return false }
        runningWasLate = true
        return true
    }

    /// A new main thread starts at `now`, busy from the start (launching).
    func mainThreadStarted(at now: Int64) {
        idleFrom = now
        idleUntil = now
    }

    /// The main thread is about to wait for work at `now`: the start of an idle stretch, unless one is
    /// going on.
    func noteIdle(at now: Int64) {
        guard idleUntil != nil else { return }
        idleFrom = now
        idleUntil = nil
    }

    /// The main thread takes up work at `now`: the end of its idle stretch.
    func noteBusy(at now: Int64) {
        if idleUntil == nil { idleUntil = now }
    }

    /// Whether the main thread was waiting for work at `time` (in its latest idle stretch, which may last
    /// until `now`).
    func wasIdle(at time: Int64, now: Int64) -> Bool {
        time >= idleFrom && time <= (idleUntil ?? now)
    }
}
