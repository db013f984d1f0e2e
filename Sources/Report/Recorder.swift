import Files
import Runtime

/// Collects a run's metrics and trace as the world reports what happens.
///
/// Everything here runs under the scheduler's baton, so plain properties are safe. Reports from a
/// thread of an app killed by a relaunch are dropped: that app no longer exists.
package final class Recorder {
    private unowned let scheduler: Scheduler
    package private(set) var metrics = Metrics()
    package private(set) var trace: [TraceEvent] = []
    /// What a user must be told about the run beyond its numbers (the app turned its disk cache off), in
    /// the order it happened.
    package private(set) var notices: [String] = []
    /// Why the last disk write failed, for the notice when the app then turns its disk cache off.
    private var lastDiskWriteFailure: String?
    /// Whether trace events are kept (callers skip building costly fields when not).
    package let keepsTrace: Bool
    private var downloads: [DownloadRecord] = []
    /// URLs completed in the current launch, for `duplicate_downloads`.
    private var completedURLsThisLaunch: Set<String> = []
    /// The last download of each URL that completed, in any launch: a poster read back from a disk cache
    /// was made from its bytes.
    private var lastCompletedDownload: [String: Int] = [:]
    /// The URLs the app looked up in its memory cache or stored in it, in order, a list per launch.
    private var memoryCacheLookups: [[BeladyMIN.Reference<String>]] = [[]]
    /// Whether a disk-cache mismatch was traced in this launch.
    private var reportedMismatchThisLaunch = false
    /// The memory cache's limit in bytes, once the app stored a picture in it.
    private var memoryCacheLimit: Int?
    /// The cost of the smallest picture the app stored in its memory cache.
    private var smallestCachedCost: Int?

    /// One transfer's bytes and whether a cell ever showed its picture.
    private struct DownloadRecord {
        let url: String
        var bytes = 0
        var shown = false
        /// The cancelled transfer whose bytes this one resumed.
        var resumes: Int?
    }

    package init(scheduler: Scheduler, keepsTrace: Bool) {
        self.scheduler = scheduler
        self.keepsTrace = keepsTrace
    }

    /// Whether the report comes from a live app (not a thread of an app killed by a relaunch).
    private var isLive: Bool { !(SimulatedThread.current?.isKilled ?? false) }

    /// Adds a trace line at the current virtual time.
    package func event(_ kind: TraceEvent.Kind) {
        event(at: scheduler.now, kind)
    }

    /// Adds a trace line at another time: a moment the user saw that the main thread learns of only
    /// later (a touch-down while it was blocked) or earlier (the vsync that will present a frame). The
    /// trace stays in time order; among equal times, lines keep the order they were added in.
    func event(at time: Int64, _ kind: TraceEvent.Kind) {
        guard keepsTrace else { return }
        let line = TraceEvent(time: time, kind)
        guard let last = trace.last, last.time > time else {
            trace.append(line)
            return
        }
        var low = 0
        var high = trace.count
        while low < high {
            let middle = (low + high) / 2
            if trace[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        trace.insert(line, at: low)
    }

    // MARK: Network

    /// A request began; returns its download number for later reports.
    package func requestStarted(url: String, thread: String, isRetry: Bool) -> Int {
        metrics.requestsStarted += 1
        if isRetry { metrics.retries += 1 }
        downloads.append(DownloadRecord(url: url))
        event(.requestStart(url: url, thread: thread))
        return downloads.count - 1
    }

    /// Body bytes arrived for a request (partial or whole).
    package func bytesMoved(_ bytes: Int, download: Int) {
        metrics.bytesDownloaded += bytes
        downloads[download].bytes += bytes
    }

    /// A request ended with a status (200 on success).
    package func requestEnded(url: String, status: Int, bytes: Int, download: Int, failed: Bool) {
        if failed {
            metrics.requestsFailed += 1
        } else {
            metrics.requestsCompleted += 1
            if completedURLsThisLaunch.contains(url) {
                metrics.duplicateDownloads += 1
            }
            completedURLsThisLaunch.insert(url)
            lastCompletedDownload[url] = download
        }
        event(.requestEnd(url: url, status: status, bytes: bytes))
    }

    /// A request was cancelled after moving `bytes`.
    package func requestCancelled(url: String, bytes: Int) {
        metrics.requestsCancelled += 1
        event(.requestCancel(url: url, bytes: bytes))
    }

    /// A cell showed a poster: made from `download`'s bytes, or, when it does not know (a poster read
    /// back from a disk cache), from the last completed download of its URL.
    package func posterShown(download: Int?, url: String?) {
        if let download = download ?? url.flatMap({ lastCompletedDownload[$0] }) { downloadShown(download) }
    }

    /// A cell showed the picture made from this download.
    func downloadShown(_ download: Int) {
        var next: Int? = download
        while let current = next, !downloads[current].shown {
            downloads[current].shown = true
            next = downloads[current].resumes
        }
    }

    /// A request resumed the bytes an earlier, cancelled one moved: they count as shown with it.
    package func downloadResumed(_ download: Int, from earlier: Int) {
        downloads[download].resumes = earlier
    }

    // MARK: Work

    /// A decode ran on a thread.
    package func decoded(url: String?, thread: String, micros: Int64, succeeded: Bool) {
        guard isLive else { return }
        metrics.decodes += 1
        event(.decode(url: url, thread: thread, micros: micros, succeeded: succeeded))
    }

    /// A filter ran on a thread.
    package func filtered(url: String?, thread: String, micros: Int64) {
        guard isLive else { return }
        metrics.filters += 1
        event(.filter(url: url, thread: thread, micros: micros))
    }

    /// An operation was cancelled before it finished.
    package func operationCancelled(_ operation: Operation) {
        guard isLive else { return }
        metrics.operationsCancelled += 1
        if operation.isTraced, operation.wasCancelledAsHandedOut, let thread = SimulatedThread.current {
            event(.operationCancelledAsHandedOut(operation: operation.traceName, thread: thread.name))
        }
    }

    /// A disk write finished.
    package func diskWritten(path: String, bytes: Int, thread: String, micros: Int64) {
        guard isLive else { return }
        metrics.diskWrites += 1
        event(.diskWrite(file: path, bytes: bytes, thread: thread, micros: micros))
    }

    /// A disk write failed (the folder is gone, or the disk is full).
    package func diskWriteFailed(path: String, reason: String, thread: String) {
        guard isLive else { return }
        lastDiskWriteFailure = reason
        event(.diskWriteFailed(file: path, reason: reason, thread: thread))
    }

    /// The app stopped using its disk cache.
    package func diskCacheOff(reason: String) {
        guard isLive else { return }
        let notice = RunNotice.diskCacheOff(reason: reason, failure: lastDiskWriteFailure)
        if !notices.contains(notice) { notices.append(notice) }
        event(.diskCacheOff(reason: reason))
    }

    /// The run reached its time limit at `micros` with the app still working.
    package func cut(at micros: Int64, settleMicroseconds: Int64) {
        notices.append(
            RunNotice.cut(atSeconds: Double(micros) / 1e6, settleSeconds: Double(settleMicroseconds) / 1e6))
    }

    /// A disk read began (nil bytes: the file was missing).
    package func diskRead(path: String, bytes: Int?, thread: String, micros: Int64) {
        guard isLive else { return }
        event(.diskRead(file: path, bytes: bytes ?? 0, thread: thread, micros: micros))
    }

    /// A disk-cache file held another URL's header: traced the first time in a launch.
    package func diskCacheMismatch(file: String, url: String, found: String) {
        guard !reportedMismatchThisLaunch else { return }
        reportedMismatchThisLaunch = true
        event(.diskCacheMismatch(file: file, url: url, found: found))
    }

    /// The app looked a URL up in its memory cache and found its picture (`hit`) or not.
    package func memoryCacheLookup(url: String, hit: Bool) {
        guard isLive else { return }
        if hit { metrics.memoryCacheHits += 1 }
        memoryCacheLookups[memoryCacheLookups.count - 1].append(BeladyMIN.Reference(url, isLookup: true))
    }

    /// The app stored `url`'s picture of `cost` bytes in its memory cache of `limit` bytes.
    package func memoryCacheStored(url: String, cost: Int, limit: Int) {
        guard isLive else { return }
        memoryCacheLookups[memoryCacheLookups.count - 1].append(BeladyMIN.Reference(url, isLookup: false))
        memoryCacheLimit = limit
        smallestCachedCost = min(smallestCachedCost ?? cost, cost)
    }

    /// Belady's MIN on the app's memory-cache lookups, each launch's on its own (a launch starts with an
    /// empty memory), with room for as many of the smallest picture it stored as its limit holds; nil when
    /// it never stored one.
    package var memoryCacheHitsLimit: Int? {
        guard let limit = memoryCacheLimit, let smallest = smallestCachedCost else { return nil }
        let capacity = smallest > 0 ? limit / smallest : memoryCacheLookups.map(\.count).reduce(0, +)
        return memoryCacheLookups.reduce(0) { $0 + BeladyMIN.hits($1, capacity: capacity) }
    }

    /// The app served a picture from its disk cache.
    package func diskCacheHit() {
        guard isLive else { return }
        metrics.diskCacheHits += 1
    }

    /// The app handled a memory warning: the image bytes it held just before and just after.
    package func memoryWarningHandled(before: Int, after: Int) {
        metrics.memoryWarningFreedBytes += max(0, before - after)
        event(.memoryWarningHandled(imageBytesBefore: before, imageBytesAfter: after))
    }

    /// The main thread checker: the app called `method` of the look-alike UIKit on `thread`, not main.
    package func mainThreadViolation(method: String, thread: String) {
        metrics.mainThreadCheckerViolations += 1
        event(.mainThreadViolation(method: method, thread: thread))
    }

    /// Main-queue work ran for an operation that was cancelled: a late completion.
    package func lateCompletion() {
        metrics.lateCompletions += 1
        event(.lateCompletion)
    }

    // MARK: Main thread and screen

    /// The main thread worked for a span that began `micros` ago (`kind`: launch, frame or block). A span
    /// of `hangThreshold` or more is a hang, as Apple's tools count them, whether the table scrolls or not.
    package func mainThreadBusy(_ micros: Int64, kind: String) {
        metrics.mainThreadBusyMicroseconds += micros
        metrics.longestMainThreadStallMicroseconds = max(metrics.longestMainThreadStallMicroseconds, micros)
        let start = scheduler.now - micros
        if micros > 0 {
            event(.mainBusy(kind: kind, start: start))
        }
        if micros >= Self.hangThreshold {
            metrics.hangs += 1
            metrics.hangTimeMicroseconds += micros
            event(.hang(micros: micros, start: start))
        }
    }

    /// The shortest main-thread stretch that is a hang: 250 ms, Apple's threshold.
    static let hangThreshold: Int64 = 250_000

    /// A request's answer began to arrive (or failed) after its latency.
    package func responseStarted(url: String, status: Int, bodyBytes: Int) {
        event(.requestResponse(url: url, status: status, bytes: bodyBytes))
    }

    /// An operation began running on a worker thread.
    /// A run cut at its time limit left an operation (`name`) in an app's queue, in `state`.
    package func operationLeft(_ name: String, queue: String, state: String) {
        event(.operationLeft(operation: name, queue: queue, state: state))
    }

    package func operationStarted(_ name: String, thread: String) {
        event(.operationStart(operation: name, thread: thread))
    }

    /// An operation finished on a worker thread.
    package func operationFinished(_ name: String, thread: String, cancelled: Bool) {
        event(.operationEnd(operation: name, thread: thread, cancelled: cancelled))
    }

    /// A frame that overlapped a scroll interval was presented at `presented`, late since `lateFrom`: the
    /// span between is its hitch time. The trace line is at the presentation.
    package func hitch(lateFrom: Int64, presented: Int64) {
        let micros = presented - lateFrom
        metrics.hitches += 1
        metrics.hitchTimeMicroseconds += micros
        event(at: presented, .hitch(micros: micros, start: lateFrom))
    }

    /// A scroll interval ended: from a touch-down to the presentation of the frame showing the table at
    /// rest (or a relaunch, or the end of the run).
    package func scrollInterval(from start: Int64, to end: Int64) {
        guard end > start else { return }
        metrics.scrollingMicroseconds += end - start
        event(at: end, .scrollInterval(micros: end - start, start: start))
    }

    /// A stop that began when the table came to rest at `start` filled: every visible row showed its
    /// final content on the frame presented at `end`.
    package func stopFilled(from start: Int64, to end: Int64) {
        metrics.timesToVisibleMicroseconds.append(end - start)
        event(at: end, .stopFilled(micros: end - start, start: start))
    }

    /// A stop that began at `start` was left at `end` (a touch-down, a relaunch, or the end of the run)
    /// before all its rows showed their content. The wait counts among the times to visible as a lower
    /// bound: the user waited at least that.
    package func stopUnfilled(from start: Int64, to end: Int64) {
        metrics.stopsUnfilled += 1
        metrics.timesToVisibleMicroseconds.append(end - start)
        event(at: end, .stopUnfilled(micros: end - start, start: start))
    }

    /// Visible rows showed the placeholder for a span.
    package func placeholderRows(_ rows: Int, for micros: Int64) {
        metrics.placeholderRowMicroseconds += Int64(rows) * micros
    }

    /// A cell began to show another row's picture.
    package func wrongImage(row: Int, url: String?) {
        metrics.wrongImageEvents += 1
        event(.wrongImage(row: row, url: url))
    }

    /// A new launch began: downloads of the previous one no longer count as duplicates.
    package func launched() {
        completedURLsThisLaunch = []
        reportedMismatchThisLaunch = false
        if !(memoryCacheLookups.last?.isEmpty ?? false) { memoryCacheLookups.append([]) }
    }

    /// Fills in what is known only at the end: wasted bytes and peak memory.
    package func finish(peakImageMemory: Int) {
        metrics.bytesWasted = downloads.reduce(0) { $0 + ($1.shown ? 0 : $1.bytes) }
        metrics.peakImageMemoryBytes = peakImageMemory
    }
}
