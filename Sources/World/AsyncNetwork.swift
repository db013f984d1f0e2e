import Concurrency
import Runtime
import Values

import struct Foundation.Data
import struct Foundation.URL

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
    /// when the calling task is cancelled (the transfer stops; bytes moved so far are wasted, unless
    /// `keepResumeData` is given).
    ///
    /// With `resumeData` from an earlier, cancelled or dropped transfer of this URL, the request asks only
    /// for the rest of the body (a range request; the server may still send it whole). `keepResumeData` is
    /// called, on the session's thread, with what a transfer received before it was cancelled or its
    /// connection was lost mid-body, as `URLSession` hands back resume data in the error of such a
    /// download.
    public func data(
        from url: URL, resumeData: ResumeData? = nil,
        keepResumeData: (@Sendable (ResumeData) -> Void)? = nil
    ) async throws -> Data {
        try Task.checkCancellation()
        return try await Waiter.wait { waiter in
            let transfer = Transfer(url: url, waiter: waiter, resumeData: resumeData, keep: keepResumeData)
            waiter.onCancel = { transfer.cancel() }
            transfers.addOperation(transfer)
        }
    }

    /// One download on a session thread, answering the waiting task when it ends.
    private final class Transfer: Operation, @unchecked Sendable {
        let url: URL
        let waiter: Waiter<Data>
        var resumeData: ResumeData?
        let keep: (@Sendable (ResumeData) -> Void)?

        init(url: URL, waiter: Waiter<Data>, resumeData: ResumeData?, keep: (@Sendable (ResumeData) -> Void)?)
        {
            self.url = url
            self.waiter = waiter
            self.resumeData = resumeData
            self.keep = keep
        }

        override func main() {
            do {
                let data = try Network.shared.data(from: url, cancellingWith: self, resumeData: &resumeData)
                waiter.resume(with: .success(data))
            } catch {
                if let keep, let resumeData { keep(resumeData) }
                waiter.resume(with: .failure(error))
            }
        }
    }
}
