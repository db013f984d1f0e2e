import Shared

/// Loads posters: one `async throws` function does what step 4's `ImageDownloader` and
/// `ImageFiltration` operations did, and this actor keeps the loads in progress, one per URL, shared by
/// every row that wants it and cancelled when the last of them gives up before its download started.
///
/// Code that does not run on the actor (the main actor's scroll callbacks, cancellation handlers, the
/// session's thread) changes what is under a lock (`DownloadSlots`, `resumeData`) at once, so a suspend
/// and the resume after it never swap, on any scheduler.
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
    private nonisolated let diskCache: DiskCache
    /// A few downloads at once, held while the user scrolls.
    private nonisolated let downloadSlots: DownloadSlots
    /// One decode and filter at a time, as Nuke's processing queue: it bounds the pictures half made at
    /// once (a decoded one and its filtered copy each).
    private nonisolated let processingSlots = DownloadSlots(limit: 1)

    /// Every load in progress, by URL.
    private var loadsInProgress: [URL: Load] = [:]
    /// What cancelled downloads received, by URL: the next download of the URL asks only for the rest.
    /// Under a lock: the session leaves them from its own thread.
    private nonisolated let resumeData = Mutex([URL: ResumeData]())
    private var nextNumber = 0
    /// Loads that failed for good while no row waited for them (the rows left while the user scrolled):
    /// the next row to ask gets the failure at once, and the display remembers it, as step 4 remembers a
    /// failure whoever was waiting.
    private var failuresNobodySaw: [URL: any Error] = [:]

    /// What a row does with its poster once decoded, before the filter: shows it, as steps 2 to 4 show
    /// a record's downloaded image until the filtered one replaces it.
    typealias Preview = @Sendable (Image) async -> Void

    /// One URL's load and the rows waiting for it.
    private final class Load {
        let number: Int
        var task: Task<Void, Never>?
        var waiters: [Int: CheckedContinuation<Image, any Error>] = [:]
        /// The waiting rows that want the decoded poster before its filter.
        var previews: [Int: Preview] = [:]
        /// Whether its download got its slot: bytes flow for it.
        var hasStarted = false

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
        downloadSlots = DownloadSlots(limit: concurrency)
    }

    /// The filtered poster for a URL. Joins the URL's load if one is under way; cancelling the calling
    /// task gives up this caller's wish, and the load stops when nobody else wants it.
    func image(for url: URL, preview: Preview? = nil) async throws -> Image {
        try Task.checkCancellation()
        if let failure = failuresNobodySaw.removeValue(forKey: url) {
            throw failure
        }
        nextNumber += 1
        let number = nextNumber
        let priority = Task.currentPriority
        guard techniques.contains(.coalescing) else {
            return try await loadImage(from: url, ticket: number, decoded: preview)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                join(url, number: number, priority: priority, preview: preview, continuation)
            }
        } onCancel: {
            Task(executorPreference: executor) { await self.leave(url, number: number) }
        }
    }

    private func join(
        _ url: URL, number: Int, priority: TaskPriority, preview: Preview?,
        _ continuation: CheckedContinuation<Image, any Error>
    ) {
        if let load = loadsInProgress[url] {
            load.waiters[number] = continuation
            load.previews[number] = preview
            // A visible row moves a prefetch's load up the line.
            downloadSlots.raise(load.number, to: priority)
            return
        }
        let load = Load(number: number)
        load.waiters[number] = continuation
        load.previews[number] = preview
        loadsInProgress[url] = load
        load.task = Task(executorPreference: executor, priority: priority) {
            do {
                let image = try await self.loadImage(from: url, ticket: number) { decoded in
                    await self.showPreviews(of: decoded, for: url, load: number)
                }
                await self.finish(url, load: number, with: .success(image))
            } catch {
                await self.finish(url, load: number, with: .failure(error))
            }
        }
    }

    /// One caller gave up: it stops waiting at once; the load is cancelled when it was the last. While
    /// the user scrolls, a load still waiting for its download slot stays in line until the next stop
    /// (it costs nothing, and the user may stop on the row again before then); one whose bytes flow
    /// stops at once, so that it takes no bandwidth from the rows the user scrolls to.
    private func leave(_ url: URL, number: Int) {
        guard let load = loadsInProgress[url], let waiter = load.waiters.removeValue(forKey: number) else {
            return
        }
        waiter.resume(throwing: CancellationError())
        load.previews[number] = nil
        if load.waiters.isEmpty && (!downloadSlots.isSuspended || load.hasStarted) {
            stop(load, for: url)
        }
    }

    /// Notes that a load's download has its slot; false when nobody waits for it any more (every row
    /// left while the user scrolled): the load then stops, and gives the slot back.
    private func markStarted(_ url: URL, load number: Int) -> Bool {
        guard let load = loadsInProgress[url], load.number == number else { return true }
        guard !load.waiters.isEmpty else {
            stop(load, for: url)
            return false
        }
        load.hasStarted = true
        return true
    }

    /// Hands the decoded poster to the rows still waiting that want it before its filter. In no order
    /// with the filtered poster, and need none: a row shows a preview only while it still shows the
    /// placeholder (`PosterDisplay.preview`).
    private func showPreviews(of image: Image, for url: URL, load number: Int) {
        guard let load = loadsInProgress[url], load.number == number else { return }
        for key in load.previews.keys.sorted() {
            let preview = load.previews[key]!
            Task(executorPreference: executor) { await preview(image) }
        }
    }

    /// Cancels a load nobody waits for any more.
    private func stop(_ load: Load, for url: URL) {
        loadsInProgress[url] = nil
        downloadSlots.forget(load.number)
        load.task?.cancel()
    }

    private func finish(_ url: URL, load number: Int, with result: Result<Image, any Error>) {
        guard let load = loadsInProgress[url], load.number == number else { return }
        loadsInProgress[url] = nil
        downloadSlots.forget(number)
        if load.waiters.isEmpty, case .failure(let error) = result, !(error is CancellationError) {
            failuresNobodySaw[url] = error
        }
        // In the order the rows asked, so every run resumes them alike.
        for key in load.waiters.keys.sorted() {
            load.waiters[key]!.resume(with: result)
        }
    }

    /// Whether a URL's poster is in the disk cache (a free check, on the caller's thread).
    nonisolated func isOnDisk(_ url: URL) -> Bool {
        techniques.contains(.diskCache) && diskCache.containsData(for: url)
    }

    /// Holds every download not yet started while the user scrolls, as step 4 suspends its queues.
    nonisolated func suspendDownloads(_ suspended: Bool) {
        downloadSlots.setSuspended(suspended)
    }

    /// Lets visible rows' downloads start while the table moves (the finger drags at reading pace), or
    /// holds them again until it stops.
    nonisolated func letVisibleRowsStart(_ mayStart: Bool) {
        downloadSlots.setVisibleRowsMayStart(mayStart)
    }

    /// Step 4's two operations as one function: the disk cache, else the network (with retries), then
    /// the decode and the sepia filter, checking for cancellation between the steps. `ticket` names the
    /// load in the download line.
    nonisolated func loadImage(
        from url: URL, ticket: Int, decoded: Preview? = nil
    ) async throws -> Image {
        var looksOnDisk = techniques.contains(.diskCache)
        while true {
            try Task.checkCancellation()
            // A poster on disk needs no network, so no download slot: it is read at once, even while the
            // downloads are held (the user scrolls).
            if looksOnDisk, diskCache.containsData(for: url), let cachedData = await diskCache.data(for: url)
            {
                try Task.checkCancellation()
                // No preview: the filter follows the read at once, so the row gets one picture, as in
                // step 4's disk reads.
                if let image = try await decodeAndFilter(cachedData, ticket: ticket) {
                    Instruments.diskCacheHit()
                    return image
                }
                // A file that does not decode is a miss: drop it and download again.
                await diskCache.removeData(for: url)
            }
            looksOnDisk = false
            // Otherwise a download slot, in the order the loads were asked for.
            let imageData = try await download(url, ticket: ticket, meanwhile: decoded)
            try Task.checkCancellation()
            guard let image = try await decodeAndFilter(imageData, ticket: ticket, decoded: decoded) else {
                throw LoadError.notAnImage
            }
            if techniques.contains(.diskCache) {
                await diskCache.store(imageData, for: url)
            }
            return image
        }
    }

    /// Decodes the bytes and applies the sepia filter, in a processing slot; nil when they are not a
    /// picture.
    nonisolated func decodeAndFilter(
        _ data: Data, ticket: Int, decoded preview: Preview? = nil
    ) async throws -> Image? {
        try await processingSlots.acquire(for: ticket, priority: Task.currentPriority)
        let decoded = decode(data)
        if let decoded, let preview, !Task.isCancelled {
            // Not awaited: the filter goes on while the decoded poster travels to the screen (a preview
            // that arrives after the filtered poster is not shown).
            Task(executorPreference: executor) { await preview(decoded) }
        }
        let filtered = decoded.map { Task.isCancelled ? $0 : $0.applyingSepia(intensity: 0.8) }
        processingSlots.release()
        try Task.checkCancellation()
        return filtered
    }

    // MARK: Retries with backoff

    /// Downloads a URL's bytes in a download slot, which `ticket` waits for. A transient failure is tried
    /// again after a pause that doubles each time; meanwhile the slot goes back, and the retry waits
    /// behind every first try (step 4 queues its retry at low priority). A 404 or an invalid URL is final
    /// at once.
    nonisolated func download(_ url: URL, ticket: Int, meanwhile: Preview? = nil) async throws -> Data {
        var retries = 0
        while true {
            try await downloadSlots.acquire(for: ticket, priority: retries > 0 ? .low : Task.currentPriority)
            guard await markStarted(url, load: ticket) else {
                downloadSlots.release()
                throw CancellationError()
            }
            do {
                let data = try await network.data(
                    from: url, resumeData: resumeData.withLock { $0.removeValue(forKey: url) },
                    keepResumeData: keepResumeData)
                downloadSlots.release()
                return data
            } catch {
                downloadSlots.release()
                guard techniques.contains(.retries), let failure = error as? NetworkError,
                    failure.isTransient,
                    retries < Self.maximumRetries
                else { throw error }
                // The rows say it failed at once; a retry that succeeds replaces that with the poster.
                await meanwhile?(Image.failed)
                // The task sleeps on the phone's clock; no thread waits.
                try await clock.sleep(for: Self.firstBackoff * (1 << retries))
                retries += 1
            }
        }
    }

    // MARK: Resumable downloads

    /// Where a cancelled transfer leaves what it received (nil without resumable downloads): the session
    /// calls it on its own thread.
    private nonisolated var keepResumeData: (@Sendable (ResumeData) -> Void)? {
        guard techniques.contains(.resumableDownloads) else { return nil }
        return { partial in self.resumeData.withLock { $0[partial.url] = partial } }
    }

    // MARK: Decoding at display size

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
