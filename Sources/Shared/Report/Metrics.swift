/// What one run measured: the contract's metric keys, in their fixed report order.
public struct Metrics: Sendable, Equatable {
    public var requestsStarted = 0
    public var requestsCompleted = 0
    public var requestsCancelled = 0
    public var requestsFailed = 0
    public var operationsCancelled = 0
    /// Requests for a URL whose previous request in the run failed (not cancelled): retries, whether the
    /// app retried on purpose or asked again for a row that had failed.
    public var retries = 0
    public var bytesDownloaded = 0
    public var bytesWasted = 0
    public var duplicateDownloads = 0
    public var decodes = 0
    public var filters = 0
    public var memoryCacheHits = 0
    public var diskCacheHits = 0
    public var diskWrites = 0
    /// Microseconds the main thread spent working.
    public var mainThreadBusyMicroseconds: Int64 = 0
    public var hitches = 0
    public var hitchTimeMicroseconds: Int64 = 0
    /// Microseconds the table spent dragging or decelerating.
    public var scrollingMicroseconds: Int64 = 0
    public var longestMainThreadStallMicroseconds: Int64 = 0
    /// Each filled stop's wait, from the stop until every visible row showed its final content.
    public var timesToVisibleMicroseconds: [Int64] = []
    public var stopsUnfilled = 0
    /// Visible-row microseconds spent showing the placeholder.
    public var placeholderRowMicroseconds: Int64 = 0
    public var wrongImageEvents = 0
    public var lateCompletions = 0
    public var peakImageMemoryBytes = 0

    /// Makes an empty set of metrics.
    public init() {}

    /// Hitch milliseconds per second of scrolling.
    public var hitchTimeRatio: Double {
        scrollingMicroseconds > 0 ? Double(hitchTimeMicroseconds) / Double(scrollingMicroseconds) * 1000 : 0
    }

    /// The time-to-visible percentile `p` (0–100) in microseconds, nearest rank; 0 when no stop filled.
    public func timeToVisible(percentile p: Int) -> Int64 {
        guard !timesToVisibleMicroseconds.isEmpty else { return 0 }
        let sorted = timesToVisibleMicroseconds.sorted()
        let rank = max(1, (p * sorted.count + 99) / 100)
        return sorted[min(rank, sorted.count) - 1]
    }

    /// Every metric as (contract key, value) in report order.
    public var entries: [(key: String, value: MetricValue)] {
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
            ("time_to_visible_ms_p50", .milliseconds(timeToVisible(percentile: 50))),
            ("time_to_visible_ms_p95", .milliseconds(timeToVisible(percentile: 95))),
            ("time_to_visible_ms_max", .milliseconds(timeToVisible(percentile: 100))),
            ("stops_unfilled", .count(stopsUnfilled)),
            ("placeholder_row_seconds", .seconds(placeholderRowMicroseconds)),
            ("wrong_image_events", .count(wrongImageEvents)),
            ("late_completions", .count(lateCompletions)),
            ("peak_image_memory_bytes", .count(peakImageMemoryBytes)),
        ]
    }
}

/// One metric's value, with the unit that decides how it prints.
public enum MetricValue: Sendable, Equatable {
    /// A whole number.
    case count(Int)
    /// A duration kept in microseconds, printed in milliseconds with one decimal.
    case milliseconds(Int64)
    /// A duration kept in microseconds, printed in seconds with one decimal.
    case seconds(Int64)
    /// A ratio printed with one decimal.
    case ratio(Double)

    /// The value as printed in reports and JSON: integers plain, others with one decimal.
    public var formatted: String {
        switch self {
        case .count(let value): return String(value)
        case .milliseconds(let micros): return Self.oneDecimal(micros, per: 1000)
        case .seconds(let micros): return Self.oneDecimal(micros, per: 1_000_000)
        case .ratio(let value):
            let tenths = value.isFinite && abs(value) < 1e15 ? Int64((value * 10).rounded()) : 0
            return Self.oneDecimal(tenths, per: 10, alreadyTenths: true)
        }
    }

    /// The value as a number (milliseconds, seconds or the count).
    public var number: Double {
        switch self {
        case .count(let value): return Double(value)
        case .milliseconds(let micros): return Double(micros) / 1000
        case .seconds(let micros): return Double(micros) / 1_000_000
        case .ratio(let value): return value
        }
    }

    private static func oneDecimal(_ value: Int64, per unit: Int64, alreadyTenths: Bool = false) -> String {
        // Round half away from zero to tenths using integers only, so output never depends on float printing.
        let tenths: Int64
        if alreadyTenths {
            tenths = value
        } else {
            let scaled = value * 10
            tenths = (scaled + (scaled >= 0 ? unit / 2 : -unit / 2)) / unit
        }
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}
