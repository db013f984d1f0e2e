import Shared

/// Fetches one poster, from the disk cache if it is there, else from the network, and decodes it.
///
/// One try of the network. A transient failure (a timeout, a refused connection, a 5xx, a dropped body)
/// ends the operation with `failedTransiently` set, and the list queues another try, which waits longer
/// each time; a 404 or an invalid URL is final at once.
final class ImageDownloader: Operation {
    /// How many times a transiently failed download is tried again.
    static let maximumRetries = 2
    /// The wait before the first retry, in microseconds (0.5 s); each further retry waits twice as long.
    static let firstBackoff: Int64 = 500_000

    let url: URL
    /// The disk cache (nil without one).
    let diskCache: DiskCache?
    /// The decoded poster; nil until it succeeds, and on failure.
    private(set) var image: Image?
    /// The bytes that came from the network, for the disk cache (nil when they came from the disk).
    private(set) var downloadedData: Data?
    /// Whether this reads the disk cache only, and leaves `image` nil when the poster is not there.
    let readsDiskOnly: Bool
    /// What an earlier, cancelled download of this URL received; after a cancellation, what this one did.
    private(set) var resumeData: ResumeData?

    /// How many tries of this URL failed transiently before this one (0 for a first try).
    let retries: Int
    /// Whether this try failed in a way that another may not (and tries are left).
    private(set) var failedTransiently = false

    init(
        url: URL, diskCache: DiskCache?, resumeData: ResumeData? = nil, readsDiskOnly: Bool = false,
        retries: Int = 0
    ) {
        self.url = url
        self.diskCache = diskCache
        self.resumeData = resumeData
        self.readsDiskOnly = readsDiskOnly
        self.retries = retries
    }

    override func main() {
        if isCancelled {
            return
        }
        // The disk cache first: a hit costs a file read and a decode, no network at all.
        if let diskCache, let cachedData = diskCache.data(for: url) {
            if let cachedImage = Image(data: cachedData) {
                Instruments.diskCacheHit()
                image = cachedImage
                return
            }
            // A file that does not decode is a miss: drop it and download again.
            diskCache.removeData(for: url)
        }
        if isCancelled || readsDiskOnly {
            return
        }
        if retries > 0 {
            // Give the server a moment before asking again; this worker waits.
            SimulatedThread.current?.sleep(for: Self.firstBackoff << (retries - 1))
            if isCancelled {
                return
            }
        }
        // The cancellable download: cancelling this operation stops the transfer where it is, and what
        // arrived is kept in `resumeData`, so the next download of this URL asks only for the rest.
        let downloaded: Data
        do {
            downloaded = try Network.shared.data(from: url, cancellingWith: self, resumeData: &resumeData)
        } catch {
            failedTransiently = error.isTransient && retries < Self.maximumRetries && !isCancelled
            return
        }
        if isCancelled {
            return
        }
        if let downloadedImage = Image(data: downloaded) {
            downloadedData = downloaded
            image = downloadedImage
        }
    }
}
