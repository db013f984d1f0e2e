/// The network through `async`/`await`, as `URLSession`'s `data(from:)`: the calling task suspends
/// while the transfer runs, and cancelling the task stops the transfer where it is.
///
/// Each transfer is driven by one of the session's own simulated threads (a real `URLSession` has its
/// own threads too); the task that awaits holds none while it waits.
public final class AsyncNetwork: @unchecked Sendable {
    private let transfers: OperationQueue

    /// Makes a session for the app on whose simulated thread this is called.
    public init() {
        transfers = OperationQueue()
        transfers.name = "URLSession"
        transfers.maxConcurrentOperationCount = 1_000
    }

    /// Downloads a URL's body. Throws `NetworkError` when the request fails and `CancellationError`
    /// when the calling task is cancelled (the transfer stops; bytes moved so far are wasted).
    public func data(from url: URL) async throws -> Data {
        try Task.checkCancellation()
        return try await Waiter.wait { waiter in
            let transfer = Transfer(url: url, waiter: waiter)
            waiter.onCancel = { transfer.cancel() }
            transfers.addOperation(transfer)
        }
    }

    /// One download on a session thread, answering the waiting task when it ends.
    private final class Transfer: Operation {
        let url: URL
        let waiter: Waiter<Data>

        init(url: URL, waiter: Waiter<Data>) {
            self.url = url
            self.waiter = waiter
        }

        override func main() {
            do {
                waiter.resume(with: .success(try Network.shared.data(from: url, cancellingWith: self)))
            } catch {
                waiter.resume(with: .failure(error))
            }
        }
    }
}
