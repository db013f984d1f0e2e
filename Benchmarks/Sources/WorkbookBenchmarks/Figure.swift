/// One measured figure as read back from a figures file: a line written by `FigureWriter` (or by
/// `Benchmarks/run` and the Python reference, in the same format).
struct Figure: Sendable {
    /// What was measured, for example `decode.posters.MBps`.
    let key: String
    /// Its unit, for example `MB/s`.
    let unit: String
    /// The median of the runs.
    let median: Double
    /// The fastest or smallest run.
    let minimum: Double
    /// The slowest or largest run.
    let maximum: Double
    /// A free-form remark (file counts, agreement, …).
    let note: String

    /// Parses the figures of a file's text, keyed by figure; malformed lines are skipped.
    static func parse(_ text: String) -> [String: Figure] {
        var figures: [String: Figure] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 5, let median = Double(fields[2]), let minimum = Double(fields[3]),
                let maximum = Double(fields[4])
            else { continue }
            figures[fields[0]] = Figure(
                key: fields[0], unit: fields[1], median: median, minimum: minimum, maximum: maximum,
                note: fields.count > 5 ? fields[5] : "")
        }
        return figures
    }

    /// The median with its range, for example `41.2 (39.8–43.0)`; just the median when all runs agree.
    var summary: String {
        if minimum == maximum { return FigureWriter.display(median) }
        let low = FigureWriter.display(minimum, scale: self.median)
        let high = FigureWriter.display(maximum, scale: self.median)
        return "\(FigureWriter.display(self.median, scale: self.median)) (\(low)–\(high))"
    }
}
