import Shared

/// Which of step 4's techniques are on: all of them, unless `--without` turns some off to show what each
/// one buys (a small value in the manner of Nuke's `ImagePipeline.Configuration`).
struct Configuration {
    /// Keep filtered posters in memory (`ImageCache`).
    var isMemoryCacheEnabled = true
    /// Keep downloaded posters on disk, across launches (`DiskCache`).
    var isDiskCacheEnabled = true
    /// Let every row that wants a URL share one download.
    var isOneLoadPerURLEnabled = true
    /// Give a cell's load up when the cell is reused, and draw a poster only into a cell still waiting
    /// for it.
    var isCancelOnReuseEnabled = true
    /// Resume a download where it stopped (a range request) when the poster is wanted again: one that was
    /// cancelled, or whose connection dropped mid-body.
    var isResumingDownloads = true
    /// Load the rows just past the screen while the table is still.
    var isPrefetchingEnabled = true
    /// Read a poster already on disk as soon as its row appears, even mid-scroll: no network is involved.
    var isReadingDiskWhileScrolling = true
    /// Give work up only when the table stops, and only for rows that left the screen and the prefetch
    /// window (as UIKit's `cancelPrefetchingForRowsAt`): a transfer under way goes on while the table
    /// moves. Without it, as in the prefetching article, every prefetch is given up when a drag begins
    /// and a reused cell's download at once.
    var cancelsOnlyRowsLeavingWindow = true
    /// Let a download or filter that has started finish into the caches when its rows leave, instead of
    /// cancelling it; without it, work is cancelled wherever it is when nobody wants it.
    var letsStartedWorkFinish = true
    /// On a memory warning, keep the posters on screen and give up only the prefetches; without it, empty
    /// the cache and cancel every operation, as in the multi-image article.
    var keepsOnScreenPostersOnMemoryWarning = true
    /// Remember a URL that failed and show the failure for the rest of the launch; without it, a later
    /// display of the row tries again, as in the cancellation article.
    var remembersFailedURLs = true
    /// Downloads (and filters) at once: five, as in the multi-image article; one, as in steps 2 and 3,
    /// without extra concurrency.
    var maxConcurrentOperationCount = 5

    /// Everything on, then the command line's `--without` and `--concurrency`.
    init(options: RunOptions = RunOptions()) {
        for technique in options.without {
            switch technique {
            case .memoryCache: isMemoryCacheEnabled = false
            case .diskCache: isDiskCacheEnabled = false
            case .oneLoadPerURL: isOneLoadPerURLEnabled = false
            case .cancelOnReuse: isCancelOnReuseEnabled = false
            case .resumeDownloads: isResumingDownloads = false
            case .prefetch: isPrefetchingEnabled = false
            case .diskWhileScrolling: isReadingDiskWhileScrolling = false
            case .extraConcurrency: maxConcurrentOperationCount = 1
            case .windowedCancel: cancelsOnlyRowsLeavingWindow = false
            case .finishStarted: letsStartedWorkFinish = false
            case .keepOnScreen: keepsOnScreenPostersOnMemoryWarning = false
            case .rememberFailures: remembersFailedURLs = false
            // Step 5's: the harness refuses them for this step.
            case .decodeAtDisplaySize, .retries, .slowDragLoading: break
            }
        }
        if let concurrency = options.concurrency {
            maxConcurrentOperationCount = concurrency
        }
    }
}
