import Foundation
import LiveServer

/// What a live run measured, under the simulator's report lines where they mean the same.
///
/// Requests started are counted by the app's network; the server's log gives how each answer ended and
/// the body bytes that left it. Main-thread figures come from the stretches of app work
/// (`MainThreadWork`): a stall is one stretch, a hang a stretch of 250 ms or more, and hitch time is the
/// part of each late frame's window (from the vsync it was expected at to the vsync it was shown at) that
/// overlaps app work inside a scroll interval (touch-down to the frame that shows the table at rest), so
/// lateness from the machine alone is not counted.
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
    let stretches: [MainThreadWork.Stretch]
    let lateFrames: [MainThreadWork.Stretch]
    let scrollIntervals: [MainThreadWork.Stretch]
    let screen: [ScreenRow]
    /// Whether the scenario has faults the server does not inject yet.
    let faultsIgnored: Bool

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
        let measured: [String: String] = [
            "requests_started": String(requestsStarted),
            "requests_completed": String(
                serverLog.filter { $0.outcome == .completed && $0.status < 400 }.count),
            "requests_cancelled": String(serverLog.filter { $0.outcome == .cancelled }.count),
            "requests_failed": String(
                serverLog.filter { $0.outcome == .truncated || $0.outcome == .refused || $0.status >= 400 }
                    .count),
            "bytes_downloaded": String(serverLog.reduce(0) { $0 + $1.bodyBytesSent }),
            "main_thread_busy_ms": Self.milliseconds(stretches.reduce(0) { $0 + $1.microseconds }),
            "hitches": String(hitches.filter { $0 > 0 }.count),
            "hitch_time_ms": Self.milliseconds(hitchMicroseconds),
            "hitch_time_ratio_ms_per_s": String(format: "%.1f", ratio),
            "longest_main_thread_stall_ms": Self.milliseconds(stretches.map(\.microseconds).max() ?? 0),
            "hangs": String(hangs.count),
            "hang_time_ms": Self.milliseconds(hangs.reduce(0) { $0 + $1.microseconds }),
        ]
        return Self.keys.map { ($0, measured[$0]) }
    }

    /// The simulator's metric keys, in its order.
    static let keys = [
        "requests_started", "requests_completed", "requests_cancelled", "requests_failed",
        "operations_cancelled", "bytes_downloaded", "bytes_wasted", "duplicate_downloads", "decodes",
        "filters",
        "memory_cache_hits", "disk_cache_hits", "disk_writes", "main_thread_busy_ms", "hitches",
        "hitch_time_ms",
        "hitch_time_ratio_ms_per_s", "longest_main_thread_stall_ms", "hangs", "hang_time_ms",
        "time_to_visible_ms_p50", "time_to_visible_ms_p95", "time_to_visible_ms_max", "stops_unfilled",
        "placeholder_row_seconds", "wrong_image_events", "late_completions", "peak_image_memory_bytes",
    ]

    /// For each late frame, the microseconds of its late window that app work filled inside a scroll
    /// interval.
    private func attributedLateness() -> [Int64] {
        lateFrames.map { window in
            var total: Int64 = 0
            for interval in scrollIntervals where interval.end > window.start && interval.start < window.end {
                let start = max(window.start, interval.start)
                let end = min(window.end, interval.end)
                for stretch in stretches where stretch.end > start && stretch.start < end {
                    total += min(end, stretch.end) - max(start, stretch.start)
                }
            }
            return total
        }
    }

    private static func milliseconds(_ microseconds: Int64) -> String {
        String(format: "%.1f", Double(microseconds) / 1000)
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
            "server     \(serverLog.count) requests logged", "",
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
        if faultsIgnored {
            lines += ["", "note: the scenario's faults are not injected live yet (its slow host is)"]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
