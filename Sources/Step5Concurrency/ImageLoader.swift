import Shared

/// Loads posters: one `async throws` function does what step 4's `ImageDownloader` and
/// `ImageFiltration` operations did, and this actor keeps the loads in progress, one per URL, shared by
/// every row that wants it and cancelled when the last of them gives up.
actor ImageLoader {
    /// How many times a transiently failed download is tried again.
    static let maximumRetries = 2
    /// The wait before the first retry; each further retry waits twice as long.
    static let firstBackoff = Duration.milliseconds(500)

    /// Where every task of the app runs: the phone's cooperative pool.
    nonisolated let executor: SimulatedTaskExecutor
    nonisolated let techniques: Techniques
    /// The pixel size posters are decoded to when decoding at display size.
    nonisolated let displayPixels: (width: Int, height: Int)
    private let network = AsyncNetwork()
    private let clock: PhoneClock
    private let diskCache: DiskCache
    private let downloadSlots: DownloadSlots

    /// Every load in progress, by URL.
    private var loadsInProgress: [URL: Load] = [:]
    /// What cancelled downloads received, by URL: the next download of the URL asks only for the rest.
    private var resumeData: [URL: ResumeData] = [:]
    private var nextNumber = 0

    /// One URL's load and the rows waiting for it.
    private final class Load {
        let number: Int
        var task: Task<Void, Never>?
        var waiters: [Int: CheckedContinuation<Image, any Error>] = [:]

        init(number: Int) { self.number = number }
    }

    init(
        executor: SimulatedTaskExecutor, techniques: Techniques, displayPixels: (width: Int, height: Int),
        concurrency: Int, diskCache: DiskCache, clock: PhoneClock
    ) {
        self.executor = executor
        self.techniques = techniques
        self.displayPixels = displayPixels
        self.diskCache = diskCache
        self.clock = clock
        downloadSlots = DownloadSlots(limit: concurrency, executor: executor)
    }

    /// The filtered poster for a URL. Joins the URL's load if one is under way; cancelling the calling
    /// task gives up this caller's wish, and the load stops when nobody else wants it.
    func image(for url: URL) async throws -> Image {
        guard techniques.contains(.coalescing) else { return try await loadImage(from: url) }
        try Task.checkCancellation()
        nextNumber += 1
        let number = nextNumber
        let priority = Task.currentPriority
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                join(url, number: number, priority: priority, continuation)
            }
        } onCancel: {
            Task(executorPreference: executor) { await self.leave(url, number: number) }
        }
    }

    private func join(
        _ url: URL, number: Int, priority: TaskPriority, _ continuation: CheckedContinuation<Image, any Error>
    ) {
        if let load = loadsInProgress[url] {
            load.waiters[number] = continuation
            return
        }
        let load = Load(number: number)
        load.waiters[number] = continuation
        loadsInProgress[url] = load
        load.task = Task(executorPreference: executor, priority: priority) {
            do {
                let image = try await self.loadImage(from: url)
                await self.finish(url, load: number, with: .success(image))
            } catch {
                await self.finish(url, load: number, with: .failure(error))
            }
        }
    }

    /// One caller gave up: it stops waiting at once; the load is cancelled when it was the last.
    private func leave(_ url: URL, number: Int) {
        guard let load = loadsInProgress[url], let waiter = load.waiters.removeValue(forKey: number) else {
            return
        }
        waiter.resume(throwing: CancellationError())
        if load.waiters.isEmpty {
            loadsInProgress[url] = nil
            load.task?.cancel()
        }
    }

    private func finish(_ url: URL, load number: Int, with result: Result<Image, any Error>) {
        guard let load = loadsInProgress[url], load.number == number else { return }
        loadsInProgress[url] = nil
        // In the order the rows asked, so every run resumes them alike.
        for key in load.waiters.keys.sorted() {
            load.waiters[key]!.resume(with: result)
        }
    }

    /// Holds every download not yet started while the user scrolls, as step 4 suspends its queues.
    nonisolated func suspendDownloads(_ suspended: Bool) {
        Task(executorPreference: executor) { await self.downloadSlots.setSuspended(suspended) }
    }

    /// Step 4's two operations as one function: the disk cache, else the network (with retries), then
    /// the decode and the sepia filter, checking for cancellation between the steps.
    nonisolated func loadImage(from url: URL) async throws -> Image {
        try Task.checkCancellation()
        // The disk cache first: a hit costs a file read and a decode, no network at all.
        if techniques.contains(.diskCache), let cachedData = await diskCache.data(for: url) {
            if let cachedImage = decode(cachedData) {
                Instruments.diskCacheHit()
                try Task.checkCancellation()
                return cachedImage.applyingSepia(intensity: 0.8)
            }
            // A file that does not decode is a miss: drop it and download again.
            await diskCache.removeData(for: url)
        }
        let imageData = try await download(url)
        try Task.checkCancellation()
        guard let downloadedImage = decode(imageData) else { throw LoadError.notAnImage }
        if techniques.contains(.diskCache) {
            await diskCache.store(imageData, for: url)
        }
        try Task.checkCancellation()
        return downloadedImage.applyingSepia(intensity: 0.8)
    }

    /// Downloads through a free download slot; a transient failure is tried again after a pause that
    /// doubles each time, while a 404 or an invalid URL is final at once.
    nonisolated func download(_ url: URL) async throws -> Data {
        var retries = 0
        while true {
            try await downloadSlots.acquire(underWay: retries > 0)
            do {
                let data = try await network.data(
                    from: url, resumeData: await takeResumeData(for: url), keepResumeData: keepResumeData)
                await downloadSlots.release()
                return data
            } catch {
                await downloadSlots.release()
                guard techniques.contains(.retries), let failure = error as? NetworkError,
                    failure.isTransient,
                    retries < Self.maximumRetries
                else { throw error }
                // The task sleeps on the phone's clock; no thread waits.
                try await clock.sleep(for: Self.firstBackoff * (1 << retries))
                retries += 1
            }
        }
    }

    /// Where a cancelled transfer leaves what it received (nil without resumable downloads): the session
    /// calls it on its own thread, so the bytes come to the actor in a task.
    private nonisolated var keepResumeData: (@Sendable (ResumeData) -> Void)? {
        guard techniques.contains(.resumableDownloads) else { return nil }
        return { [executor] partial in
            Task(executorPreference: executor) { await self.keep(partial) }
        }
    }

    private func keep(_ partial: ResumeData) {
        resumeData[partial.url] = partial
    }

    private func takeResumeData(for url: URL) -> ResumeData? {
        resumeData.removeValue(forKey: url)
    }

    private nonisolated func decode(_ data: Data) -> Image? {
        guard techniques.contains(.decodeAtDisplaySize) else { return Image(data: data) }
        return Image(data: data, fittingPixels: displayPixels.width, displayPixels.height)
    }

    /// Why a poster could not be shown.
    enum LoadError: Error {
        /// The bytes are not a PNG.
        case notAnImage
    }
}
