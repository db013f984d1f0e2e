import Shared

/// Fetches one poster, from the disk cache if it is there, else from the network, decodes it, and keeps
/// the downloaded bytes on disk for the next launch.
///
/// A `Sendable` struct run by a task, where step 4 had an `Operation` subclass: the compiler checks what
/// it shares between threads (the URL, the disk cache and the session, all `Sendable`).
struct ImageDownloader: Sendable {
    let url: URL
    /// The disk cache, read first and filled after a download.
    let diskCache: DiskCache?
    /// The session whose `async` download the task awaits.
    let network: AsyncNetwork

    /// The decoded poster; nil on failure. Throws `CancellationError` when its task is cancelled.
    func main() async throws -> Image? {
        // Check before the heavy work: the row may have scrolled away while this waited in the queue.
        try Task.checkCancellation()
        // The disk cache first: a hit costs a file read and a decode, no network at all.
        if let cachedData = diskCache?.data(for: url), let cachedImage = Image(data: cachedData) {
            Instruments.diskCacheHit()
            return cachedImage
        }
        try Task.checkCancellation()
        // The cancellable download: cancelling the task stops the transfer where it is.
        guard let imageData = try? await network.data(from: url),
            // Fault tolerance: a body that is no image is a failure, as a missing one is.
            let downloadedImage = Image(data: imageData)
        else {
            try Task.checkCancellation()
            return nil
        }
        // Written atomically, as the article writes its sandbox file; kept even when cancelled since the
        // last check, for the bytes are paid for.
        diskCache?.store(imageData, for: url)
        try Task.checkCancellation()
        return downloadedImage
    }
}
