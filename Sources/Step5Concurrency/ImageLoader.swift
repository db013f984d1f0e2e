import Shared

/// The loads in progress, keyed by the URL they are for: one load per URL, however many rows show that
/// poster, and the two queues its stages wait in.
///
/// An actor, where step 4 kept these dictionaries on the main thread: the loads are its own state, which
/// it touches one caller at a time, whatever thread each caller runs on.
actor ImageLoader {
    /// Where every task of the app runs: the phone's cooperative pool.
    nonisolated let executor = SimulatedTaskExecutor()
    /// The download queue: a few downloads at once (five, as in the multi-image article).
    nonisolated let downloadQueue: TaskQueue
    /// The filtration queue.
    nonisolated let filtrationQueue: TaskQueue
    nonisolated let diskCache: DiskCache?
    private nonisolated let network = AsyncNetwork()
    /// Whether a row that wants a poster already on its way joins its load (`one-load-per-url`).
    let oneLoadPerURL: Bool
    /// Loads waiting or running, by URL.
    private var loadsInProgress: [URL: Load] = [:]
    private var lastNumber = 0

    /// One URL's load and how many rows wait for it.
    private struct Load {
        let number: Int
        let task: Task<Image?, any Error>
        var waiting = 0
    }

    init(concurrency: Int, diskCache: DiskCache?, oneLoadPerURL: Bool) {
        downloadQueue = TaskQueue(maxConcurrentOperationCount: concurrency)
        filtrationQueue = TaskQueue(maxConcurrentOperationCount: concurrency)
        self.diskCache = diskCache
        self.oneLoadPerURL = oneLoadPerURL
    }

    /// The filtered poster for a URL, nil when it cannot be had. A row that wants a poster already on
    /// its way waits for that load. Cancelling the calling task gives up this row's wish: the load is
    /// cancelled when no row waits for it any more, and the row's task then throws `CancellationError`.
    func image(for url: URL) async throws -> Image? {
        guard oneLoadPerURL else { return try await loadImage(from: url) }
        var load = loadsInProgress[url] ?? startLoad(for: url)
        load.waiting += 1
        loadsInProgress[url] = load
        // However the wait ends, the load is over: the next row to ask starts a new one.
        defer {
            if loadsInProgress[url]?.number == load.number { loadsInProgress[url] = nil }
        }
        let number = load.number
        return try await withTaskCancellationHandler {
            try await load.task.value
        } onCancel: {
            // The handler runs at once, on the thread that cancels: it tells the actor in a task.
            Task(executorPreference: executor) { await self.loadCancelled(url, number: number) }
        }
    }

    private func startLoad(for url: URL) -> Load {
        lastNumber += 1
        // The caller's priority, as step 4 gives an operation its first row's queue priority.
        let task = Task(executorPreference: executor, priority: Task.currentPriority) {
            try await self.loadImage(from: url)
        }
        return Load(number: lastNumber, task: task)
    }

    /// A row gave its wish up: when no row waits for the URL's load any more, it is cancelled.
    private func loadCancelled(_ url: URL, number: Int) {
        guard var load = loadsInProgress[url], load.number == number else { return }
        load.waiting -= 1
        loadsInProgress[url] = load.waiting > 0 ? load : nil
        if load.waiting == 0 {
            load.task.cancel()
        }
    }

    /// Step 4's two operations, each in its queue: the download (from the disk cache, else the
    /// network), then the filter.
    nonisolated func loadImage(from url: URL) async throws -> Image? {
        let downloader = ImageDownloader(url: url, diskCache: diskCache, network: network)
        guard let image = try await downloadQueue.run({ try await downloader.main() }) else {
            // Fault tolerance: the load is over, so a later display of the row tries again.
            return nil
        }
        return try await filtrationQueue.run { try ImageFiltration(image: image).main() }
    }
}
