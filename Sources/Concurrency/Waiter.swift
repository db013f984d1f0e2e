/// One suspended task waiting for a simulated thread to answer: resumed exactly once, by whichever comes
/// first, the answer or a cancellation.
///
/// Unchecked Sendable: every party runs under the scheduler's baton, one simulated thread at a time.
package final class Waiter<Value: Sendable>: @unchecked Sendable {
    private var continuation: CheckedContinuation<Value, any Error>?
    /// Whether the task was cancelled, also before it began to wait: `withTaskCancellationHandler` runs
    /// the handler first when the task is already cancelled, while there is no continuation to resume yet.
    private var isCancelled = false
    /// Work to do if the waiting task is cancelled before the answer (stop a transfer).
    package var onCancel: (() -> Void)?

    /// Suspends the calling task until `resume` or `cancel`; `start` runs first, with this waiter. A task
    /// cancelled before the wait throws `CancellationError` at once, and `start` does not run.
    package static func wait(_ start: (Waiter) -> Void) async throws -> Value {
        let waiter = Waiter()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.continuation = continuation
                guard !waiter.isCancelled else {
                    return waiter.resume(with: .failure(CancellationError()))
                }
                start(waiter)
            }
        } onCancel: {
            waiter.cancel()
        }
    }

    /// Delivers the answer, unless the task was already resumed.
    package func resume(with result: Result<Value, any Error>) {
        guard let continuation else { return }
        self.continuation = nil
        onCancel = nil
        continuation.resume(with: result)
    }

    /// Resumes the task with `CancellationError` at once and runs the cancellation work.
    package func cancel() {
        isCancelled = true
        let work = onCancel
        onCancel = nil
        resume(with: .failure(CancellationError()))
        work?()
    }
}
