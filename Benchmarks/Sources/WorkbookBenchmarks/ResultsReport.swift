import Foundation

/// The results table: each Swift figure next to its reference and their ratio, and every target checked.
///
/// Reads the two figures files `Benchmarks/run` collected and prints a Markdown table (also written to a
/// file, which the script pastes into the README's Results section), then the list of targets with
/// PASS or MISS.
struct ResultsReport {
    /// The Swift side's figures, by key.
    let swift: [String: Figure]
    /// The references' figures, by key (empty when the reference could not run).
    let reference: [String: Figure]

    /// The decoded-image sets, in table order.
    static let imageSets = ["posters", "photo", "flat", "deep16", "interlaced"]
    /// The steps, in table order.
    static let steps = ["Step1Naive", "Step2Background", "Step3IdleOnly", "Step4CacheAndPrefetch"]
    /// The growth curve's catalog sizes.
    static let rowCounts = [1_000, 10_000, 100_000]
    /// The growth curve's script lengths in minutes.
    static let minuteCounts = [1, 5, 30]

    /// One line of the table.
    struct Row {
        /// What the line shows.
        var label: String
        /// The Swift figure, formatted.
        var swift: String
        /// The reference figure, formatted, or a dash.
        var reference: String
        /// Swift ÷ reference, or a dash.
        var ratio: String
    }

    /// A checked target.
    struct Target {
        /// The target in words.
        var text: String
        /// nil when a figure it needs is missing.
        var passed: Bool?
        /// The figures that decided it.
        var detail: String
    }

    /// The table rows.
    func rows() -> [Row] {
        var rows: [Row] = []
        func add(_ label: String, _ key: String, referenceName: String = "Pillow") {
            guard let mine = swift[key] else { return }
            let theirs = reference[key]
            let ratio =
                theirs.map { $0.median > 0 ? String(format: "%.2f×", mine.median / $0.median) : "–" } ?? "–"
            rows.append(
                Row(
                    label: "\(label) (\(mine.unit))", swift: mine.summary,
                    reference: theirs.map { "\($0.summary) \(referenceName)" } ?? "unavailable", ratio: ratio)
            )
        }
        for set in Self.imageSets {
            add("PNG decode, \(set), compressed input", "decode.\(set).MBps")
            add("PNG decode, \(set), pixels", "decode.\(set).Mpxps")
        }
        for set in Self.imageSets {
            add("PNG encode, \(set), speed", "encode.\(set).Mpxps")
            add("PNG encode, \(set), output size", "encode.\(set).bytes")
        }
        add("Sepia 1920×1080, one core", "sepia.Mpxps", referenceName: "numpy")
        if let agreement = reference["sepia.agree"] {
            rows.append(Row(label: "Sepia pixels vs numpy", swift: agreement.note, reference: "", ratio: ""))
        }
        return rows
    }

    /// The targets of the benchmarks issue, each checked against the figures.
    func targets() -> [Target] {
        var targets: [Target] = []
        for set in Self.imageSets {
            let key = "decode.\(set).MBps"
            guard let mine = swift[key] else { continue }
            let theirs = reference[key]
            let ratio = theirs.map { mine.median / $0.median }
            targets.append(
                Target(
                    text: "decode \(set) ≥ 0.5× Pillow", passed: ratio.map { $0 >= 0.5 },
                    detail: ratio.map { String(format: "%.2f×", $0) } ?? "no reference"))
        }
        for set in Self.imageSets {
            let key = "encode.\(set).bytes"
            guard let mine = swift[key] else { continue }
            let ratio = reference[key].map { mine.median / $0.median }
            targets.append(
                Target(
                    text: "encode \(set) output ≤ 1.3× Pillow's size", passed: ratio.map { $0 <= 1.3 },
                    detail: ratio.map { String(format: "%.2f×", $0) } ?? "no reference"))
        }
        if let sepia = swift["sepia.Mpxps"] {
            targets.append(
                Target(
                    text: "sepia ≥ 200 Mpx/s on one core", passed: sepia.median >= 200,
                    detail: "\(FigureWriter.display(sepia.median)) Mpx/s"))
        }
        if let agreement = reference["sepia.agree"] {
            targets.append(
                Target(
                    text: "sepia agrees with numpy pixel for pixel", passed: agreement.median == 1,
                    detail: agreement.note))
        }
        for step in Self.steps {
            if let release = swift["step.\(step).release.seconds"] {
                targets.append(
                    Target(
                        text: "\(step) on course < 0.5 s (release)", passed: release.median < 0.5,
                        detail: "\(FigureWriter.display(release.median)) s"))
            }
            if let debug = swift["step.\(step).debug.seconds"] {
                targets.append(
                    Target(
                        text: "\(step) on course < 3 s (debug, built)", passed: debug.median < 3,
                        detail: "\(FigureWriter.display(debug.median)) s"))
            }
        }
        targets.append(contentsOf: growthTargets())
        return targets
    }

    /// The simulator's growth targets.
    func growthTargets() -> [Target] {
        func value(_ rows: Int, _ minutes: Int, _ what: String) -> Double? {
            swift["sim.\(rows).\(minutes).\(what)"]?.median
        }
        var targets: [Target] = []
        if let seconds = value(10_000, 5, "seconds") {
            targets.append(
                Target(
                    text: "10,000 rows × 5 minutes < 10 s", passed: seconds < 10,
                    detail: "\(FigureWriter.display(seconds)) s"))
        }
        // Linear in gesture time: the cost of a virtual minute at 30 minutes is at most 1.5× that at 5.
        if let five = value(10_000, 5, "seconds"), let thirty = value(10_000, 30, "seconds") {
            let growth = (thirty / 30) / (five / 5)
            targets.append(
                Target(
                    text:
                        "time linear in gesture time (10,000 rows: per-minute cost at 30 min ≤ 1.5× at 5 min)",
                    passed: growth <= 1.5, detail: String(format: "%.2f×", growth)))
        }
        // At most logarithmic in rows: 100× the rows costs at most log(100,000) / log(1,000) = 1.67× the time.
        if let small = value(1_000, 5, "seconds"), let large = value(100_000, 5, "seconds") {
            let growth = large / small
            let bound = log(100_000.0) / log(1_000.0)
            targets.append(
                Target(
                    text:
                        "time at most logarithmic in rows (5 min: 100,000 rows ≤ \(String(format: "%.2f", bound))× 1,000 rows)",
                    passed: growth <= bound, detail: String(format: "%.2f×", growth)))
        }
        // Memory: what the run holds above the catalog does not grow with rows (within 2 MB or 25 %). Compared
        // at 30 minutes between 10,000 and 100,000 rows, where the script visits the same rows (with 1,000
        // rows it wraps round to the top and sees fewer distinct posters).
        if let small = value(10_000, 30, "aboveCatalogMB"), let large = value(100_000, 30, "aboveCatalogMB") {
            targets.append(
                Target(
                    text: "memory above the catalog not growing with rows (30 min: 100,000 vs 10,000 rows)",
                    passed: large <= max(small * 1.25, small + 2),
                    detail: "\(FigureWriter.display(large)) MB vs \(FigureWriter.display(small)) MB"))
        }
        return targets
    }

    /// The steps on `course`: release wall time and peak memory, debug wall time.
    func stepTable() -> [String] {
        var lines = [
            "| step on `course` | release wall (s) | release peak RSS (MB) | debug wall, built (s) |",
            "|---|---|---|---|",
        ]
        for step in Self.steps {
            let cells = ["release.seconds", "release.peakMB", "debug.seconds"].map {
                swift["step.\(step).\($0)"]?.summary ?? "–"
            }
            lines.append("| \(step) | " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    /// The simulator's growth curve: a row per catalog size, a column per script length; each cell the wall
    /// time, the peak RSS and the part of it above the RSS just after the catalog was built.
    func growthTable() -> [String] {
        let header = Self.minuteCounts.map { "\($0) min: wall, peak RSS (above catalog)" }
        var lines = [
            "| simulator, placeholder app | " + header.joined(separator: " | ") + " |",
            "|---|" + String(repeating: "---|", count: header.count),
        ]
        for rows in Self.rowCounts {
            let cells = Self.minuteCounts.map { minutes -> String in
                let key = "sim.\(rows).\(minutes)"
                guard let wall = swift[key + ".seconds"], let peak = swift[key + ".peakMB"],
                    let above = swift[key + ".aboveCatalogMB"]
                else { return "–" }
                return "\(wall.summary) s, \(peak.summary) MB (\(above.summary))"
            }
            lines.append("| \(rows) rows | " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    /// The whole report as Markdown: the figures table and the targets list.
    func markdown() -> String {
        var lines = [
            "| figure | Swift: median (min–max) | reference: median (min–max) | Swift ÷ reference |",
            "|---|---|---|---|",
        ]
        for row in rows() {
            lines.append("| \(row.label) | \(row.swift) | \(row.reference) | \(row.ratio) |")
        }
        lines.append("")
        lines.append(contentsOf: stepTable())
        lines.append("")
        lines.append(contentsOf: growthTable())
        lines.append("")
        lines.append("| target | result | figures |")
        lines.append("|---|---|---|")
        for target in targets() {
            let result = target.passed.map { $0 ? "PASS" : "**MISS**" } ?? "n/a"
            lines.append("| \(target.text) | \(result) | \(target.detail) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
