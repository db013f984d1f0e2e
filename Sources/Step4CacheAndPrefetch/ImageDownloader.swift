import Shared

/// Fetches one poster, from the disk cache if it is there, else from the network, and decodes it.
final class ImageDownloader: Operation {
    let url: URL
    let diskCache: DiskCache
    /// The decoded poster; nil until it succeeds, and on failure.
    private(set) var image: Image?

    init(url: URL, diskCache: DiskCache) {
        self.url = url
        self.diskCache = diskCache
    }

    override func main() {
        if isCancelled {
            return
        }
        // The disk cache first: a hit costs a file read and a decode, no network at all.
        if let cachedData = diskCache.data(for: url) {
            if let cachedImage = Image(data: cachedData) {
                Instruments.diskCacheHit()
                image = cachedImage
                return
            }
            // A file that does not decode is a miss: drop it and download again.
            diskCache.removeData(for: url)
        }
        if isCancelled {
            return
        }
        // The cancellable download: cancelling this operation stops the transfer where it is.
        guard let imageData = try? Network.shared.data(from: url, cancellingWith: self) else {
            return
        }
        if isCancelled {
            return
        }
        if let downloadedImage = Image(data: imageData) {
            diskCache.store(imageData, for: url)
            image = downloadedImage
        }
    }
}
