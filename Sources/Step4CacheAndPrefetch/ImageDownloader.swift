import Shared

/// Fetches one poster, from the disk cache if it is there, else from the network, decodes it, and keeps
/// the downloaded bytes on disk for the next launch.
///
/// `@unchecked Sendable`, as Swift 6 asks of an `Operation` subclass: the compiler no longer checks what it
/// shares between threads (chapter 2 shows what that lets through).
final class ImageDownloader: Operation, @unchecked Sendable {
    let url: URL
    /// The disk cache, read first and filled after a download.
    let diskCache: DiskCache?
    /// The decoded poster; nil until it succeeds, and on failure.
    private(set) var image: Image?

    init(url: URL, diskCache: DiskCache?) {
        self.url = url
        self.diskCache = diskCache
    }

    override func main() {
        // Check before the heavy work: the row may have scrolled away while this waited in the queue.
        if isCancelled {
            return
        }
        // The disk cache first: a hit costs a file read and a decode, no network at all.
        if let cachedData = diskCache?.data(for: url), let cachedImage = Image(data: cachedData) {
            Instruments.diskCacheHit()
            image = cachedImage
            return
        }
        if isCancelled {
            return
        }
        // The cancellable download: cancelling this operation stops the transfer where it is.
        guard let imageData = try? Network.shared.data(from: url, cancellingWith: self),
            // Fault tolerance: a body that is no image is a failure, as a missing one is.
            let downloadedImage = Image(data: imageData)
        else {
            return
        }
        // Written atomically, as the article writes its sandbox file; kept even when cancelled since the
        // last check, for the bytes are paid for.
        diskCache?.store(imageData, for: url)
        if isCancelled {
            return
        }
        image = downloadedImage
    }
}
