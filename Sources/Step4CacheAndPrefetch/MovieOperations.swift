import Shared

/// The two queues and the work in flight on them, keyed by the URL it is for: one download per URL,
/// however many rows show that poster.
/// The maps are the main thread's, as the table is: the main thread checker watches them too.
final class MovieOperations {
    /// Downloads waiting or running, by URL.
    @MainThreadOnly("downloadsInProgress") var downloadsInProgress: [URL: ImageDownloader] = [:]
    /// The download queue: a few downloads at once (five, as in the multi-image article).
    let downloadQueue: OperationQueue
    /// Filters waiting or running, by URL.
    @MainThreadOnly("filtrationsInProgress") var filtrationsInProgress: [URL: ImageFiltration] = [:]
    /// The filtration queue.
    let filtrationQueue: OperationQueue

    init(concurrency: Int) {
        downloadQueue = OperationQueue()
        downloadQueue.name = "Download queue"
        downloadQueue.maxConcurrentOperationCount = concurrency
        filtrationQueue = OperationQueue()
        filtrationQueue.name = "Image Filtration queue"
        filtrationQueue.maxConcurrentOperationCount = concurrency
    }
}
