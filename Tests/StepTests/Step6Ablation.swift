import Foundation
import Shared

@testable import Step6ImagePipeline

/// The walkthrough's ablation table for step 6: each technique taken out alone, on the scenario where
/// it matters, with the metrics it moves (and, for retries, the failures it does not).
enum Step6Ablation {
    /// One row group of the table: a technique, where it shows, and what it moves.
    struct Entry {
        let name: String
        let technique: Techniques
        let scenario: String
        let keys: [String]
    }

    static let entries = [
        Entry(
            name: "decode at display size", technique: .decodeAtDisplaySize, scenario: "course",
            keys: ["peak_image_memory_bytes"]),
        Entry(
            name: "one load per URL", technique: .coalescing, scenario: "slow-reuse",
            keys: ["duplicate_downloads", "bytes_wasted"]),
        Entry(
            name: "retries with backoff", technique: .retries, scenario: "flaky",
            keys: ["retries", "requests_failed"]),
        Entry(
            name: "disk cache", technique: .diskCache, scenario: "relaunch",
            keys: ["requests_started", "disk_cache_hits"]),
        Entry(
            name: "loading at reading pace", technique: .slowDragLoading, scenario: "reading",
            keys: ["placeholder_row_seconds"]),
        Entry(
            name: "prefetch", technique: .prefetch, scenario: "reading",
            keys: ["placeholder_row_seconds", "bytes_wasted"]),
        Entry(
            name: "loading at the fling's target", technique: .loadAtTarget, scenario: "long-fling",
            keys: ["placeholder_row_seconds"]),
        Entry(
            name: "resumable downloads", technique: .resumableDownloads, scenario: "flaky",
            keys: ["bytes_wasted"]),
        Entry(
            name: "disk reads while scrolling", technique: .diskWhileScrolling, scenario: "long-fling",
            keys: ["placeholder_row_seconds", "disk_cache_hits"]),
        Entry(
            name: "remembered failures", technique: .rememberFailures, scenario: "flaky",
            keys: ["requests_started", "bytes_downloaded"]),
    ]

    /// The Markdown table, from fresh runs.
    static func table() throws -> String {
        var lines = ["| technique | scenario | metric | Step6ImagePipeline | with it taken out |"]
        lines.append("|---|---|---|---:|---:|")
        for entry in entries {
            // The step as shipped: the run every test shares.
            let with = try SharedRuns.shared.result(.imagePipeline, entry.scenario)
            let changed = try Step6Tests.run(
                entry.scenario, techniques: Techniques.all.subtracting(entry.technique))
            for key in entry.keys {
                lines.append(
                    "| \(entry.name) | \(entry.scenario) | `\(key)` | \(value(with, key)) | \(value(changed, key)) |"
                )
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func value(_ result: RunResult, _ key: String) -> String {
        result.metrics.entries.first { $0.key == key }?.value.formatted ?? "?"
    }
}
