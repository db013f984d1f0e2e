import Files
import Foundation
import Report

/// The side-by-side comparison of steps on one scenario: a column per step, a row per metric, the limit
/// beside (the oracle's requests and bytes, and the bounds of `Limit`), and how far the last step is from
/// the oracle in requests and bytes.
package enum ComparisonTable {
    /// One step's report, as read back from its `--json` output.
    package struct Column: Sendable, Equatable {
        /// The step's executable name.
        package let step: String
        /// The scenario's name.
        package let scenario: String
        package let seed: UInt64
        /// Every metric by its contract key.
        package let metrics: [String: Double]
        /// The oracle's requests.
        package let oracleRequests: Int
        /// The oracle's bytes.
        package let oracleBytes: Int
        /// The limit's bound on each metric it bounds, by contract key (none from a report without one).
        package var limits: [String: Double] = [:]
    }

    /// Reads one `--json` report.
    package static func column(fromJSON data: Data) throws(WorkbookError) -> Column {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let step = object["step"] as? String, let scenario = object["scenario"] as? String,
            let seed = (object["seed"] as? NSNumber)?.uint64Value,
            let metrics = object["metrics"] as? [String: Any],
            let oracle = object["oracle"] as? [String: Any],
            let oracleRequests = (oracle["requests"] as? NSNumber)?.intValue,
            let oracleBytes = (oracle["bytes"] as? NSNumber)?.intValue
        else {
            throw WorkbookError.badInput("not a step's --json report")
        }
        var numbers: [String: Double] = [:]
        for (key, value) in metrics {
            if let number = value as? NSNumber { numbers[key] = number.doubleValue }
        }
        var limits: [String: Double] = [:]
        for (key, value) in object["limit"] as? [String: Any] ?? [:] {
            if let number = value as? NSNumber { limits[key] = number.doubleValue }
        }
        return Column(
            step: step, scenario: scenario, seed: seed, metrics: numbers, oracleRequests: oracleRequests,
            oracleBytes: oracleBytes, limits: limits)
    }

    /// The table, fixed-width, numbers right-aligned; the oracle and the last step's ratio to it for requests
    /// and bytes.
    /// `plan`, when given, is the limit's clairvoyant client on the same scenario, in a column of its own
    /// before the limit's.
    package static func render(_ columns: [Column], plan: Column? = nil) -> String {
        guard let last = columns.last, let first = columns.first else { return "no steps to compare\n" }
        let kinds = Metrics().entries.map { (key: $0.key, isCount: Self.isCount($0.value)) }
        var keys = kinds.map(\.key)
        let extra = Set(columns.flatMap { $0.metrics.keys }).subtracting(keys).sorted()
        keys += extra
        let header =
            ["metric"] + columns.map(\.step) + (plan == nil ? [] : ["plan"])
            + ["limit", "\(shortName(last.step))/limit"]
        var rows: [[String]] = []
        for key in keys {
            let isCount = kinds.first { $0.key == key }?.isCount ?? false
            var cells = [key]
            for column in columns + (plan.map { [$0] } ?? []) {
                cells.append(column.metrics[key].map { format($0, isCount: isCount) } ?? "-")
            }
            // The limit's bound, the last step's where it depends on the step (Belady's MIN on its own
            // lookups); the oracle's counts for a report without a limit.
            let oracle = ["requests_started": last.oracleRequests, "bytes_downloaded": last.oracleBytes][key]
            let bound = last.limits[key] ?? oracle.map(Double.init)
            cells.append(bound.map { format($0, isCount: isCount) } ?? "")
            if key == "requests_started" || key == "bytes_downloaded", let bound,
                let value = last.metrics[key]
            {
                cells.append(bound > 0 ? ratio(value / bound) : "-")
            } else {
                cells.append("")
            }
            rows.append(cells)
        }
        let lines = ["scenario \(first.scenario) · seed \(first.seed)", ""] + aligned([header] + rows)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Rows of cells as fixed-width lines: the first column left-aligned, the others right-aligned, two
    /// spaces apart, no trailing spaces.
    package static func aligned(_ rows: [[String]]) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { index in
            rows.map { index < $0.count ? $0[index].count : 0 }.max() ?? 0
        }
        return rows.map { cells in
            guard let first = cells.first else { return "" }
            var text = TextReport.pad(first, widths[0])
            for index in 1..<cells.count {
                text += "  " + TextReport.leftPad(cells[index], widths[index])
            }
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// `Step4CacheAndPrefetch` → `Step4`, for the ratio column's heading.
    static func shortName(_ step: String) -> String {
        let prefix = step.prefix { !$0.isNumber }
        let number = step.dropFirst(prefix.count).prefix { $0.isNumber }
        return number.isEmpty ? step : String(prefix + number)
    }

    /// Whether a metric is a whole number.
    static func isCount(_ value: MetricValue) -> Bool {
        if case .count = value { return true }
        return false
    }

    /// A metric as the reports print it: whole numbers plain, the rest with one decimal.
    static func format(_ value: Double, isCount: Bool) -> String {
        if isCount { return String(Int64(value.rounded())) }
        return tenths(Int64((value * 10).rounded()))
    }

    /// A ratio with two decimals and a times sign (`1.40x`).
    static func ratio(_ value: Double) -> String {
        let hundredths = Int64((value * 100).rounded())
        let fraction = String(hundredths % 100)
        return "\(hundredths / 100).\(fraction.count == 1 ? "0" + fraction : fraction)x"
    }

    /// Tenths as text with one decimal.
    static func tenths(_ value: Int64) -> String {
        "\(value < 0 ? "-" : "")\(abs(value) / 10).\(abs(value) % 10)"
    }
}
