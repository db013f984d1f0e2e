/// What one run measured: the contract's metric keys, in their fixed report order.
package struct Metrics: Sendable, Equatable {
    package var requestsStarted = 0
    package var requestsCompleted = 0
    package var requestsCancelled = 0
    package var requestsFailed = 0
    package var operationsCancelled = 0
    /// Requests for a URL whose previous request in the run failed (not cancelled): retries, whether the
    /// app retried on purpose or asked again for a row that had failed.
    package var retries = 0
    package var bytesDownloaded = 0
    package var bytesWasted = 0
    package var duplicateDownloads = 0
    package var decodes = 0
    package var filters = 0
    package var memoryCacheHits = 0
    package var diskCacheHits = 0
    package var diskWrites = 0
    /// Microseconds the main thread spent working.
    package var mainThreadBusyMicroseconds: Int64 = 0
    package var hitches = 0
    package var hitchTimeMicroseconds: Int64 = 0
    /// Microseconds of scroll intervals: from each touch-down to the presentation of the frame showing
    /// the table at rest.
    package var scrollingMicroseconds: Int64 = 0
    package var longestMainThreadStallMicroseconds: Int64 = 0
    /// Main-thread stretches of 250 ms or more.
    package var hangs = 0
    package var hangTimeMicroseconds: Int64 = 0
    /// Each stop's wait, from the moment the table came to rest until the first presented frame on which
    /// every visible row showed its final content, or (for a stop left unfilled) until it was left.
    package var timesToVisibleMicroseconds: [Int64] = []
    package var stopsUnfilled = 0
    /// Visible-row microseconds spent showing the placeholder.
    package var placeholderRowMicroseconds: Int64 = 0
    package var wrongImageEvents = 0
    package var lateCompletions = 0
    /// Calls to the look-alike UIKit made from a thread other than the main one.
    package var mainThreadCheckerViolations = 0
    package var peakImageMemoryBytes = 0
    /// Image bytes the app let go of while handling memory warnings.
    package var memoryWarningFreedBytes = 0

    /// Makes an empty set of metrics.
    package init() {}

    /// Hitch milliseconds per second of scroll intervals (never above 1000: late windows never overlap and
    /// lie inside the intervals).
    package var hitchTimeRatio: Double {
        scrollingMicroseconds > 0 ? Double(hitchTimeMicroseconds) / Double(scrollingMicroseconds) * 1000 : 0
    }

    /// The time-to-visible percentile `p` (0–100) in microseconds, nearest rank; 0 when there was no stop.
    package func timeToVisible(percentile p: Int) -> Int64 {
        guard !timesToVisibleMicroseconds.isEmpty else { return 0 }
        let sorted = timesToVisibleMicroseconds.sorted()
        let rank = max(1, (p * sorted.count + 99) / 100)
        return sorted[min(rank, sorted.count) - 1]
    }

    /// Every metric as (contract key, value) in report order.
    package var entries: [(key: String, value: MetricValue)] {
        [
            ("requests_started", .count(requestsStarted)),
            ("requests_completed", .count(requestsCompleted)),
            ("requests_cancelled", .count(requestsCancelled)),
            ("requests_failed", .count(requestsFailed)),
            ("operations_cancelled", .count(operationsCancelled)),
            ("retries", .count(retries)),
            ("bytes_downloaded", .count(bytesDownloaded)),
            ("bytes_wasted", .count(bytesWasted)),
            ("duplicate_downloads", .count(duplicateDownloads)),
            ("decodes", .count(decodes)),
            ("filters", .count(filters)),
            ("memory_cache_hits", .count(memoryCacheHits)),
            ("disk_cache_hits", .count(diskCacheHits)),
            ("disk_writes", .count(diskWrites)),
            ("main_thread_busy_ms", .milliseconds(mainThreadBusyMicroseconds)),
            ("hitches", .count(hitches)),
            ("hitch_time_ms", .milliseconds(hitchTimeMicroseconds)),
            ("hitch_time_ratio_ms_per_s", .ratio(hitchTimeRatio)),
            ("longest_main_thread_stall_ms", .milliseconds(longestMainThreadStallMicroseconds)),
            ("hangs", .count(hangs)),
            ("hang_time_ms", .milliseconds(hangTimeMicroseconds)),
            ("time_to_visible_ms_p50", .milliseconds(timeToVisible(percentile: 50))),
            ("time_to_visible_ms_p95", .milliseconds(timeToVisible(percentile: 95))),
            ("time_to_visible_ms_max", .milliseconds(timeToVisible(percentile: 100))),
            ("stops_unfilled", .count(stopsUnfilled)),
            ("placeholder_row_seconds", .seconds(placeholderRowMicroseconds)),
            ("wrong_image_events", .count(wrongImageEvents)),
            ("late_completions", .count(lateCompletions)),
            ("peak_image_memory_bytes", .count(peakImageMemoryBytes)),
            ("memory_warning_freed_bytes", .count(memoryWarningFreedBytes)),
            ("main_thread_checker_violations", .count(mainThreadCheckerViolations)),
        ]
    }
}
