import Shared

/// The two queues and the work in flight on them, keyed by the URL it is for: one download per URL,
/// however many rows show that poster.
final class MovieOperations {
    /// Downloads waiting or running, by URL.
    var downloadsInProgress: [URL: ImageDownloader] = [:]
    /// The download queue: a few downloads at once (five, as in the multi-image article).
    let downloadQueue: OperationQueue
    /// Filters waiting or running, by URL.
    var filtrationsInProgress: [URL: ImageFiltration] = [:]
    /// The filtration queue.
    let filtrationQueue: OperationQueue
    /// Reads (and filters) of posters already on disk: never suspended, since they use no network.
    let diskReadQueue: OperationQueue
    /// The disk cache's writes, one at a time.
    let diskWriteQueue: OperationQueue

    /// Whether a download or a filter for the URL is waiting or running.
    func hasWork(for url: URL) -> Bool {
        downloadsInProgress[url] != nil || filtrationsInProgress[url] != nil
    }

    init(concurrency: Int) {
        downloadQueue = OperationQueue()
        downloadQueue.name = "Download queue"
        downloadQueue.maxConcurrentOperationCount = concurrency
        filtrationQueue = OperationQueue()
        filtrationQueue.name = "Image Filtration queue"
        filtrationQueue.maxConcurrentOperationCount = concurrency
        diskReadQueue = OperationQueue()
        diskReadQueue.name = "Disk read queue"
        diskReadQueue.maxConcurrentOperationCount = concurrency
        diskWriteQueue = OperationQueue()
        diskWriteQueue.name = "Disk write queue"
        diskWriteQueue.maxConcurrentOperationCount = 1
    }
}
