/// The short, diff-friendly text report: the same fixed-label lines in the same order for every step.
package enum TextReport {
    /// The report of a run.
    package static func render(_ result: RunResult) -> String {
        var lines: [String] = []
        lines.append("step       \(result.step)")
        lines.append("scenario   \(result.scenario)")
        lines.append("seed       \(result.seed)")
        lines.append("virtual    \(MetricValue.seconds(result.virtualMicroseconds).formatted) s")
        lines.append("")
        lines.append(pad("metric", 32) + leftPad("value", 12) + "  note")
        for (key, value) in result.metrics.entries {
            var note = ""
            switch key {
            case "requests_started": note = "oracle \(result.oracle.requests)"
            case "bytes_downloaded": note = "oracle \(result.oracle.bytes)"
            case "hitch_time_ratio_ms_per_s": note = HitchBand(ratio: value.number).rawValue
            default: note = result.limit.bound(of: key).map { "limit \($0.formatted)" } ?? ""
            }
            lines.append((pad(key, 32) + leftPad(value.formatted, 12) + (note.isEmpty ? "" : "  " + note)))
        }
        lines.append("")
        lines.append("final screen")
        for row in result.finalScreen.rows {
            lines.append(screenLine(row))
        }
        if !result.notices.isEmpty {
            lines.append("")
            lines.append(contentsOf: result.notices)
        }
        lines.append("")
        lines.append(footer)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The last line: where each line of the report is explained.
    package static let footer = "What each line means: Walkthrough.md, \"How to read a report\"."

    /// One visible row as a line: row number, what it shows, its pixel hash and title.
    static func screenLine(_ row: ScreenRow) -> String {
        let hash = row.imageHash ?? String(repeating: "-", count: 16)
        return "  " + leftPad(String(row.row), 4) + "  " + pad(row.shows, 11) + "  " + hash + "  " + row.title
    }

    package static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    package static func leftPad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}

/// Apple's bands for the hitch time ratio (Xcode Organizer), in ms of hitches per second of scrolling.
package enum HitchBand: String, Sendable {
    /// At most 5 ms/s: WWDC20's target, nothing a user notices.
    case target = "target (≤ 5)"
    /// At most 10 ms/s.
    case good = "good (≤ 10)"
    /// At most 25 ms/s.
    case warning = "warning (≤ 25)"
    /// At most 50 ms/s.
    case critical = "critical (≤ 50)"
    /// Above 50 ms/s.
    case immediateAttention = "needs immediate attention (> 50)"

    /// The band a ratio falls in.
    package init(ratio: Double) {
        switch ratio {
        case ...5: self = .target
        case ...10: self = .good
        case ...25: self = .warning
        case ...50: self = .critical
        default: self = .immediateAttention
        }
    }
}
