import Shared

/// Loads posters: one `async throws` function does what step 4's `ImageDownloader` and
/// `ImageFiltration` operations did, and this actor keeps the loads in progress, one per URL, shared by
/// every row that wants it and cancelled when the last of them gives up before its download started.
///
/// Code that does not run on the actor (the main actor's scroll callbacks, cancellation handlers, the
/// session's thread) tells it things through `send`, whose messages the actor takes in the order they
/// were sent, on any scheduler: a suspend and the resume after it never swap.
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
    /// The line of loads waiting for one of a few download slots.
    private var downloadSlots: DownloadSlots
    /// The line of loads waiting to decode and filter, a few at a time, as Nuke's processing queue: it
    /// bounds the pictures half made at once (a decoded one and its filtered copy each).
    private var processingSlots = DownloadSlots(limit: 1)

    /// Which line a load waits in.
    private enum Line {
        case download, processing
    }

    /// What code off the actor tells it.
    private enum Message {
        case suspendDownloads(Bool)
        case letVisibleRowsStart(Bool)
        case leave(URL, number: Int)
        case leaveLine(Int, Line)
        case keep(ResumeData)
    }

    /// The messages sent and not yet taken, each numbered when sent, under the lock (as Nuke's
    /// `TaskQueue` sets its state under a lock): the order is fixed by the sender, not by which task
    /// reaches the actor first.
    private nonisolated let mailbox = Mutex((lastNumber: 0, waiting: [(number: Int, message: Message)]()))

    /// Every load in progress, by URL.
    private var loadsInProgress: [URL: Load] = [:]
    /// What cancelled downloads received, by URL: the next download of the URL asks only for the rest.
    private var resumeData: [URL: ResumeData] = [:]
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
        /// Whether its download got its slot while the table was still: a row the user stopped on asked
        /// for it, not a slow drag's guess.
        var startedAtAStop = false
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
        downloadSlots = DownloadSlots(
            limit: concurrency,
            rateLimiter: techniques.contains(.rateLimiter)
                ? RateLimiter(rate: Self.startsPerSecond, burst: Self.startsAtOnce) : nil,
            now: { clock.now.microseconds })
    }

    /// How many downloads per second the rate limiter lets start while the user scrolls.
    static let startsPerSecond: Int64 = 4
    /// How many it lets start at once after a rest.
    static let startsAtOnce: Int64 = 2
    /// Whether a task already waits to hand out the rate limiter's next token.
    private var isTokenTimerSet = false

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
            enqueue(number, priority: priority, in: .download)
            return try await loadImage(from: url, ticket: number, decoded: preview)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                join(url, number: number, priority: priority, preview: preview, continuation)
            }
        } onCancel: {
            send(.leave(url, number: number))
        }
    }

    /// Tells the actor something from off the actor: the message is numbered now, and a task brings
    /// every message up to it to the actor, so whichever task gets there first, they are taken in order.
    private nonisolated func send(_ message: Message) {
        let number = mailbox.withLock { box in
            box.lastNumber += 1
            box.waiting.append((box.lastNumber, message))
            return box.lastNumber
        }
        Task(executorPreference: executor) { await self.take(upTo: number) }
    }

    /// Takes, in the order they were sent, the messages up to `number` no task has brought yet.
    private func take(upTo number: Int) {
        let due = mailbox.withLock { box in
            let count = box.waiting.prefix { $0.number <= number }.count
            defer { box.waiting.removeFirst(count) }
            return box.waiting.prefix(count).map(\.message)
        }
        for message in due {
            switch message {
            case .suspendDownloads(let suspended): setSuspended(suspended)
            case .letVisibleRowsStart(let mayStart): setVisibleRowsMayStart(mayStart)
            case .leave(let url, let number): leave(url, number: number)
            case .leaveLine(let ticket, let line): leaveLine(ticket, line)
            case .keep(let partial): keep(partial)
            }
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
        // The load takes its place in the download line now, in the order the rows asked.
        enqueue(number, priority: priority, in: .download)
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

    /// Notes that a load's download has its slot, and whether the table was still.
    private func markStarted(_ url: URL, load number: Int) {
        guard let load = loadsInProgress[url], load.number == number else { return }
        load.hasStarted = true
        load.startedAtAStop = load.startedAtAStop || !downloadSlots.isSuspended
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

    /// Cancels a load nobody waits for any more, unless its download started at a stop: then it
    /// finishes into the disk cache, and stays listed so that a row the user comes back to joins it. A
    /// download a slow drag started on a guess that did not come true is cancelled.
    private func stop(_ load: Load, for url: URL) {
        if techniques.contains(.finishStarted) && load.startedAtAStop {
            return
        }
        loadsInProgress[url] = nil
        leaveLine(load.number)
        load.task?.cancel()
    }

    private func finish(_ url: URL, load number: Int, with result: Result<Image, any Error>) {
        guard let load = loadsInProgress[url], load.number == number else { return }
        loadsInProgress[url] = nil
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
        send(.suspendDownloads(suspended))
    }

    /// Lets visible rows' downloads start while the table moves (the finger drags at reading pace), or
    /// holds them again until it stops.
    nonisolated func letVisibleRowsStart(_ mayStart: Bool) {
        send(.letVisibleRowsStart(mayStart))
    }

    private func setVisibleRowsMayStart(_ mayStart: Bool) {
        downloadSlots.setVisibleRowsMayStart(mayStart)
    }

    private func setSuspended(_ suspended: Bool) {
        if !suspended {
            // The table stopped: loads given up while it moved, and not joined again, stop now.
            let unwanted = loadsInProgress.filter { $0.value.waiters.isEmpty }
            for (url, load) in unwanted.sorted(by: { $0.value.number < $1.value.number }) {
                stop(load, for: url)
            }
        }
        downloadSlots.setSuspended(suspended)
        setTokenTimer()
    }

    /// While visible rows wait for the rate limiter, wakes the line when its next token is due (one
    /// timer at a time, so no two wake-ups race).
    private func setTokenTimer() {
        guard !isTokenTimerSet, let wait = downloadSlots.waitForToken() else { return }
        isTokenTimerSet = true
        Task(executorPreference: executor) {
            try? await self.clock.sleep(for: .microseconds(max(1, wait)))
            await self.tokenDue()
        }
    }

    private func tokenDue() {
        isTokenTimerSet = false
        downloadSlots.tokenDue()
        setTokenTimer()
    }

    /// Waits until the download line hands this load a slot; throws `CancellationError` if the task is
    /// cancelled first (the load then leaves the line).
    private func acquireSlot(_ ticket: Int, in line: Line = .download) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                _ = withSlots(line) { $0.arrive(ticket, continuation) }
            }
        } onCancel: {
            send(.leaveLine(ticket, line))
        }
    }

    private func leaveLine(_ ticket: Int, _ line: Line = .download) {
        withSlots(line) { $0.leave(ticket) }
    }

    private func releaseSlot(in line: Line = .download) {
        withSlots(line) { $0.release() }
    }

    /// Puts a load (back) in a line.
    private func enqueue(_ ticket: Int, priority: TaskPriority, in line: Line) {
        withSlots(line) { $0.enqueue(ticket, priority: priority) }
    }

    private func withSlots<T>(_ line: Line, _ body: (inout DownloadSlots) -> T) -> T {
        switch line {
        case .download:
            defer { setTokenTimer() }
            return body(&downloadSlots)
        case .processing:
            return body(&processingSlots)
        }
    }

    /// Step 4's two operations as one function: the disk cache, else the network (with retries), then
    /// the decode and the sepia filter, checking for cancellation between the steps. `ticket` is the
    /// load's place in the download line.
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
                await leaveLine(ticket)
                try Task.checkCancellation()
                // No preview: the filter follows the read at once, so the row gets one picture, as in
                // step 4's disk reads.
                if let image = try await decodeAndFilter(cachedData, ticket: ticket) {
                    Instruments.diskCacheHit()
                    return image
                }
                // A file that does not decode is a miss: drop it and download again.
                await diskCache.removeData(for: url)
                await enqueue(ticket, priority: Task.currentPriority, in: .download)
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
        await enqueue(ticket, priority: Task.currentPriority, in: .processing)
        do {
            try Task.checkCancellation()
            try await acquireSlot(ticket, in: .processing)
        } catch {
            await leaveLine(ticket, .processing)
            throw error
        }
        let decoded = decode(data)
        if let decoded, let preview, !Task.isCancelled {
            // Not awaited: the filter goes on while the decoded poster travels to the screen (a preview
            // that arrives after the filtered poster is not shown).
            Task(executorPreference: executor) { await preview(decoded) }
        }
        let filtered = decoded.map { Task.isCancelled ? $0 : $0.applyingSepia(intensity: 0.8) }
        await releaseSlot(in: .processing)
        try Task.checkCancellation()
        return filtered
    }

    /// Downloads a URL's bytes in a download slot, which `ticket` waits for in the line. A transient
    /// failure is tried again after a pause that doubles each time; meanwhile the slot goes back, and the
    /// retry waits in the line behind every first try (step 4 queues its retry at low priority). A 404
    /// or an invalid URL is final at once.
    nonisolated func download(_ url: URL, ticket: Int, meanwhile: Preview? = nil) async throws -> Data {
        var retries = 0
        while true {
            do {
                try await acquireSlot(ticket)
            } catch {
                await leaveLine(ticket)
                throw error
            }
            await markStarted(url, load: ticket)
            do {
                let data = try await network.data(
                    from: url, resumeData: await takeResumeData(for: url), keepResumeData: keepResumeData)
                await releaseSlot()
                return data
            } catch {
                await releaseSlot()
                guard techniques.contains(.retries), let failure = error as? NetworkError,
                    failure.isTransient,
                    retries < Self.maximumRetries
                else { throw error }
                // The rows say it failed at once; a retry that succeeds replaces that with the poster.
                await meanwhile?(Image.failed)
                // The task sleeps on the phone's clock; no thread waits.
                try await clock.sleep(for: Self.firstBackoff * (1 << retries))
                retries += 1
                await enqueue(ticket, priority: .low, in: .download)
            }
        }
    }

    /// Where a cancelled transfer leaves what it received (nil without resumable downloads): the session
    /// calls it on its own thread, so the bytes come to the actor as a message.
    private nonisolated var keepResumeData: (@Sendable (ResumeData) -> Void)? {
        guard techniques.contains(.resumableDownloads) else { return nil }
        return { partial in self.send(.keep(partial)) }
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
