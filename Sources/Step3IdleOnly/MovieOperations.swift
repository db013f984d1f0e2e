import Shared

/// The two queues and the work in flight on them, keyed by the row it is for.
/// The maps are the main thread's, as the table is: the main thread checker watches them too.
final class MovieOperations {
    /// Downloads waiting or running, by row.
    @MainThreadOnly("downloadsInProgress") var downloadsInProgress: [IndexPath: Operation] = [:]
    /// The download queue: one download at a time, as in the article (`--concurrency` changes it).
    let downloadQueue: OperationQueue
    /// Filters waiting or running, by row.
    @MainThreadOnly("filtrationsInProgress") var filtrationsInProgress: [IndexPath: Operation] = [:]
    /// The filtration queue: one filter at a time.
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
