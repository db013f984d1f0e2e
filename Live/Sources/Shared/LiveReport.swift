import Foundation
import LiveServer
import Scenarios

/// What a live run measured, under the simulator's report lines where they mean the same.
///
/// Requests started are counted by the app's network; the server's log gives how each answer ended and
/// the body bytes that left it. Main-thread figures come from the stretches of app work
/// (`MainThreadWork`): a stall is one stretch, a hang a stretch of 250 ms or more, and hitch time is the
/// part of each late frame's window (from the vsync it was expected at to the vsync it was shown at) that
/// overlaps app work inside a scroll interval (touch-down to the frame that shows the table at rest), so
/// lateness from the machine alone is not counted. Decodes, filters, cache hits, disk writes and image
/// memory are counted by the twins (`LiveTally`); duplicate downloads are URLs the server answered in full
/// more than once in one launch; stops, placeholder time and wrong pictures are judged frame by frame
/// (`LiveJudge`).
struct LiveReport {
    /// One visible row at the end.
    struct ScreenRow {
        let row: Int
        let shows: String
        let imageHash: String?
        let title: String
    }

    let step: String
    let scenario: String
    let seed: UInt64
    let wallMicroseconds: Int64
    let frames: Int
    let requestsStarted: Int
    let serverLog: [LiveRequestRecord]
    /// The run's clock, by which the log's times are given.
    let clock: RunClock
    let stretches: [MainThreadWork.Stretch]
    let lateFrames: [MainThreadWork.Stretch]
    let scrollIntervals: [MainThreadWork.Stretch]
    let screen: [ScreenRow]
    /// What the judge saw on screen.
    let judged: LiveJudge.Verdict
    /// The twins' counts, by figure.
    let tallies: [LiveTally.Figure: Int]
    let peakImageMemory: Int
    /// The image bytes memory warnings got back.
    let memoryWarningFreed: Int
    /// The bytes of the bodies rows showed (`LiveWaste`).
    let shownBytes: Int
    /// The scenario's faults, which the server injected with the simulator's draws.
    let faults: FaultSettings
    /// The catalog's URLs by the plain `http` address the server logs: the draws are keyed by the former.
    let catalogURLs: [String: String]
    /// What the user must be told beyond the numbers (`LiveNotices`), one line each.
    let notices: [String]

    /// A stretch of main-thread work this long or longer is a hang (Apple's definition).
    static let hangMicroseconds: Int64 = 250_000

    /// The report's metric lines, in the simulator's order: a value, or nil for one not measured live.
    var metrics: [(key: String, value: String?)] {
        let hangs = stretches.filter { $0.microseconds >= Self.hangMicroseconds }
        let hitches = attributedLateness()
        let hitchMicroseconds = hitches.reduce(0, +)
        let scrollMicroseconds = scrollIntervals.reduce(0) { $0 + $1.microseconds }
        let ratio =
            scrollMicroseconds > 0 ? Double(hitchMicroseconds) / 1000 / (Double(scrollMicroseconds) / 1e6) : 0
        let stops = judged.timesToVisible.sorted()
        func percentile(_ p: Int) -> String {
            guard !stops.isEmpty else { return Self.milliseconds(0) }
            let rank = max(1, (p * stops.count + 99) / 100)
            return Self.milliseconds(stops[min(rank, stops.count) - 1])
        }
        let downloaded = serverLog.reduce(0) { $0 + $1.bodyBytesSent }
        let measured: [String: String] = [
            "requests_started": String(requestsStarted),
            "requests_completed": String(
                serverLog.filter { $0.outcome == .completed && $0.status < 400 }.count),
            "requests_cancelled": String(serverLog.filter { $0.outcome == .cancelled }.count),
            "requests_failed": String(serverLog.filter(Self.failed).count),
            "retries": String(retries),
            "bytes_downloaded": String(downloaded),
            "bytes_wasted": String(max(0, downloaded - shownBytes)),
            "duplicate_downloads": String(duplicateDownloads),
            "decodes": String(tallies[.decodes] ?? 0),
            "filters": String(tallies[.filters] ?? 0),
            "memory_cache_hits": String(tallies[.memoryCacheHits] ?? 0),
            "disk_cache_hits": String(tallies[.diskCacheHits] ?? 0),
            "disk_writes": String(tallies[.diskWrites] ?? 0),
            "main_thread_busy_ms": Self.milliseconds(stretches.reduce(0) { $0 + $1.microseconds }),
            "hitches": String(hitches.filter { $0 > 0 }.count),
            "hitch_time_ms": Self.milliseconds(hitchMicroseconds),
            "hitch_time_ratio_ms_per_s": String(format: "%.1f", ratio),
            "longest_main_thread_stall_ms": Self.milliseconds(stretches.map(\.microseconds).max() ?? 0),
            "hangs": String(hangs.count),
            "hang_time_ms": Self.milliseconds(hangs.reduce(0) { $0 + $1.microseconds }),
            "time_to_visible_ms_p50": percentile(50),
            "time_to_visible_ms_p95": percentile(95),
            "time_to_visible_ms_max": percentile(100),
            "stops_unfilled": String(judged.stopsUnfilled),
            "placeholder_row_seconds": String(
                format: "%.1f", Double(judged.placeholderRowMicroseconds) / 1e6),
            "wrong_image_events": String(judged.wrongImages),
            "peak_image_memory_bytes": String(peakImageMemory),
            "memory_warning_freed_bytes": String(memoryWarningFreed),
            "operations_cancelled": String(tallies[.operationsCancelled] ?? 0),
            "late_completions": String(tallies[.lateCompletions] ?? 0),
            "main_thread_checker_violations": String(tallies[.mainThreadCheckerViolations] ?? 0),
        ]
        return Self.keys.map { ($0, measured[$0]) }
    }

    /// The simulator's metric keys, in its order.
    static let keys = [
        "requests_started", "requests_completed", "requests_cancelled", "requests_failed",
        "operations_cancelled", "retries", "bytes_downloaded", "bytes_wasted", "duplicate_downloads",
        "decodes", "filters", "memory_cache_hits", "disk_cache_hits", "disk_writes", "main_thread_busy_ms",
        "hitches", "hitch_time_ms", "hitch_time_ratio_ms_per_s", "longest_main_thread_stall_ms", "hangs",
        "hang_time_ms", "time_to_visible_ms_p50", "time_to_visible_ms_p95", "time_to_visible_ms_max",
        "stops_unfilled", "placeholder_row_seconds", "wrong_image_events", "late_completions",
        "peak_image_memory_bytes", "memory_warning_freed_bytes", "main_thread_checker_violations",
    ]

    /// Answers the server sent in full for a URL it had already answered in full in the same launch. A
    /// request belongs to the launch during which it arrived: the server numbers requests as they
    /// arrive, and the judge noted how many the app had started at each relaunch.
    var duplicateDownloads: Int {
        var duplicates = 0
        var completedByLaunch: [Int: Set<String>] = [:]
        for record in serverLog where record.outcome == .completed && record.status < 400 {
            let launch = judged.requestsStartedAtRelaunches.filter { $0 <= record.sequence }.count
            if !completedByLaunch[launch, default: []].insert(record.url).inserted { duplicates += 1 }
        }
        return duplicates
    }

    /// Requests for a URL whose previous request the server logged failed (a cancel is no failure), as
    /// the simulator counts them; a URL with no host never reaches the server, so its failures, which the
    /// simulator counts, are not seen here.
    var retries: Int {
        var lastFailed: Set<String> = []
        var count = 0
        for record in serverLog {
            if lastFailed.contains(record.url) { count += 1 }
            if Self.failed(record) {
                lastFailed.insert(record.url)
            } else {
                lastFailed.remove(record.url)
            }
        }
        return count
    }

    /// Requests the app started after the last relaunch (all of them when there was none).
    var requestsAfterLastRelaunch: Int {
        requestsStarted - (judged.requestsStartedAtRelaunches.last ?? 0)
    }

    /// Posters the server answered in full (2xx) after the last relaunch (all of them when there was
    /// none): what a disk cache that survives a relaunch saves.
    var postersDownloadedAfterLastRelaunch: Int {
        let boundary = judged.requestsStartedAtRelaunches.last ?? 0
        return serverLog.filter {
            $0.sequence >= boundary && $0.outcome == .completed && (200..<300).contains($0.status)
        }.count
    }

    /// For each late frame, the microseconds of its late window that app work filled inside a scroll
    /// interval.
    private func attributedLateness() -> [Int64] {
        lateFrames.map {
            MainThreadWork.lateness(of: $0, scrollIntervals: scrollIntervals, stretches: stretches)
        }
    }

    private static func milliseconds(_ microseconds: Int64) -> String {
        String(format: "%.1f", Double(microseconds) / 1000)
    }

    /// Whether a request the server logged failed: cut short, closed or held unanswered, refused as a bad
    /// request, or answered with an error status.
    static func failed(_ record: LiveRequestRecord) -> Bool {
        switch record.outcome {
        case .truncated, .refused, .closedUnanswered, .heldUnanswered, .abandoned: true
        case .completed, .cancelled: record.status >= 400
        }
    }

    /// The catalog URL a logged request was for (its draws' key).
    func catalogURL(of record: LiveRequestRecord) -> String {
        catalogURLs[record.url] ?? record.url
    }

    /// The fault the server drew for a logged request (the simulator's draw for its URL and attempt).
    func drawnFault(_ record: LiveRequestRecord) -> Fault? {
        faults.fault(url: catalogURL(of: record), attempt: record.attempt, seed: seed)
    }

    /// How many logged requests drew each fault, in the draw's order.
    var faultsDrawn: [(fault: Fault, count: Int)] {
        let drawn = serverLog.compactMap(drawnFault)
        return Fault.allCases.map { fault in (fault, drawn.filter { $0 == fault }.count) }
    }

    /// The text report: the simulator's layout, with the server's own count beside the app's.
    var text: String {
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }
        func leftPad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
        }
        var lines = [
            "step       \(step)", "scenario   \(scenario)", "seed       \(seed)",
            "live       \(String(format: "%.1f", Double(wallMicroseconds) / 1e6)) s of wall-clock time, \(frames) frames",
            "server     \(serverLog.count) requests logged",
        ]
        if faults.drawsFaults {
            let drawn = faultsDrawn
            lines.append(
                "faults     \(drawn.reduce(0) { $0 + $1.count }) of them drew a fault, injected: "
                    + drawn.map { "\($0.count) \($0.fault.name)" }.joined(separator: ", "))
        }
        lines += [
            "",
            pad("metric", 32) + leftPad("value", 12),
        ]
        for (key, value) in metrics {
            lines.append(
                pad(key, 32) + leftPad(value ?? "-", 12) + (value == nil ? "  not measured live" : ""))
        }
        lines += ["", "final screen"]
        for row in screen {
            let hash = row.imageHash ?? String(repeating: "-", count: 16)
            lines.append(
                "  " + leftPad(String(row.row), 4) + "  " + pad(row.shows, 11) + "  " + hash + "  "
                    + row.title)
        }
        if !notices.isEmpty { lines += [""] + notices }
        return lines.joined(separator: "\n") + "\n"
    }
}
