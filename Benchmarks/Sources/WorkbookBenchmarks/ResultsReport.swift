import Foundation

/// The results: each Swift figure next to its references and their ratios, and every target checked.
///
/// Reads the one figures file `Benchmarks/run` collected, where each key starts with who measured it:
/// `swift.`, `libpng.`, `pillow.` or `numpy.` for the codec and filter figures; the steps' figures
/// (`step.…`, `growth.…`) and the poster file cache's (`cache.…`) come from the script itself. Prints
/// Markdown tables (also written to a file, which the script pastes into the README's Results section),
/// then the list of targets with PASS or MISS. Every target is a ratio of figures measured in the same
/// run, except the simulator's seconds per virtual minute, which is this machine's.
struct ResultsReport {
    /// Every figure, by key.
    let figures: [String: Figure]

    /// The decoder's image classes, in table order (the file names `reference.py images` writes).
    static let decodeSets =
        ["posters"]
        + ["1920x1080", "4000x3000"].flatMap { size in
            ["rgb", "rgba"].flatMap { kind in (["1", "6", "9"]).map { "\(kind)-\(size)-l\($0)" } }
        } + ["interlaced", "palette", "grey", "deep16"]
    /// The encoder's image classes, in table order.
    static let encodeSets = [
        "posters", "rgb-1920x1080-l6", "rgba-1920x1080-l6", "palette", "grey", "deep16", "interlaced",
    ]
    /// The steps, in table order.
    static let steps = [
        "Step1Naive", "Step2Background", "Step3IdleOnly", "Step4CacheAndPrefetch", "Step5Concurrency",
    ]
    /// The growth curve's sizes: (rows, minutes).
    static let growthSizes = [(10_000, 1), (10_000, 5), (10_000, 30), (1_000, 5), (100_000, 5)]
    /// The most peak memory a step may use on 10,000 rows × 30 minutes, in MiB.
    static let memoryCeilingMiB = 100.0

    /// A checked target.
    struct Target {
        /// The target in words.
        var text: String
        /// nil when a figure it needs is missing.
        var passed: Bool?
        /// The figures that decided it.
        var detail: String
    }

    /// `mine ÷ theirs` of two figures' medians, formatted, or a dash.
    static func ratio(_ mine: Figure?, _ theirs: Figure?) -> String {
        guard let mine, let theirs, theirs.median > 0 else { return "–" }
        return String(format: "%.2f×", mine.median / theirs.median)
    }

    /// The decoder table: Mpx/s of each class for the Swift decoder, libpng and Pillow.
    func decodeTable() -> [String] {
        var lines = [
            "| decode, Mpx/s: median (min–max) | Swift | libpng | Pillow | Swift ÷ libpng | Swift ÷ Pillow |",
            "|---|---|---|---|---|---|",
        ]
        for set in Self.decodeSets {
            let key = "decode.\(set).Mpxps"
            guard let mine = figures["swift." + key] else { continue }
            let libpng = figures["libpng." + key]
            let pillow = figures["pillow." + key]
            let cells = [
                set, mine.summary, libpng?.summary ?? "unavailable", pillow?.summary ?? "unavailable",
                Self.ratio(mine, libpng), Self.ratio(mine, pillow),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    /// The encoder table: output bytes against Pillow's `optimize=True`, and speed.
    func encodeTable() -> [String] {
        var lines = [
            "| encode | Swift smallest bytes | Pillow optimize bytes | Swift ÷ Pillow size | Swift smallest Mpx/s "
                + "| Pillow Mpx/s | Swift standard bytes |",
            "|---|---|---|---|---|---|---|",
        ]
        for set in Self.encodeSets {
            guard let mine = figures["swift.encode.\(set).bytes"] else { continue }
            let theirs = figures["pillow.encode.\(set).bytes"]
            let cells = [
                set, mine.summary, theirs?.summary ?? "unavailable", Self.ratio(mine, theirs),
                figures["swift.encode.\(set).Mpxps"]?.summary ?? "–",
                figures["pillow.encode.\(set).Mpxps"]?.summary ?? "–",
                figures["swift.encode.\(set).standardBytes"]?.summary ?? "–",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        if let mine = figures["swift.sepia.Mpxps"] {
            let theirs = figures["numpy.sepia.Mpxps"]
            lines.append("")
            lines.append("| sepia 1920×1080, one core | Swift Mpx/s | numpy Mpx/s | Swift ÷ numpy | pixels |")
            lines.append("|---|---|---|---|---|")
            lines.append(
                "| | \(mine.summary) | \(theirs?.summary ?? "unavailable") | \(Self.ratio(mine, theirs)) | "
                    + "\(figures["numpy.sepia.agree"]?.note ?? "not compared") |")
        }
        return lines
    }

    /// The steps on `course`: wall time and peak memory, release and debug.
    func stepTable() -> [String] {
        var lines = [
            "| step on `course` | release CPU s | release peak RSS (MiB) | debug CPU s | debug peak RSS (MiB) |",
            "|---|---|---|---|---|",
        ]
        for step in Self.steps {
            let cells = ["release.cpuSeconds", "release.peakMiB", "debug.cpuSeconds", "debug.peakMiB"].map {
                figures["step.\(step).\($0)"]?.summary ?? "–"
            }
            lines.append("| \(step) | " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    /// The steps' growth curve: wall time and peak memory per size, release (and debug where measured).
    func growthTable() -> [String] {
        let header = Self.growthSizes.map { "\($0.0) rows × \($0.1) min" }
        var lines = [
            "| growth: CPU s, peak RSS MiB | " + header.joined(separator: " | ") + " |",
            "|---|" + String(repeating: "---|", count: header.count),
        ]
        for step in Self.steps {
            for build in ["release", "debug"] {
                let cells = Self.growthSizes.map { rows, minutes -> String in
                    let key = "growth.\(step).\(build).\(rows).\(minutes)"
                    guard let wall = figures[key + ".cpuSeconds"], let peak = figures[key + ".peakMiB"] else {
                        return "–"
                    }
                    return "\(wall.summary) s, \(peak.summary) MiB"
                }
                guard cells.contains(where: { $0 != "–" }) else { continue }
                lines.append("| \(step) (\(build)) | " + cells.joined(separator: " | ") + " |")
            }
        }
        return lines
    }

    /// The targets, each checked against the figures.
    func targets() -> [Target] {
        var targets: [Target] = []
        func ratioTarget(_ text: String, _ mine: Figure?, _ theirs: Figure?, passes: (Double) -> Bool) {
            guard let mine else { return }
            let value = theirs.flatMap { $0.median > 0 ? mine.median / $0.median : nil }
            targets.append(
                Target(
                    text: text, passed: value.map(passes),
                    detail: value.map { String(format: "%.2f×", $0) } ?? "no reference"))
        }
        for set in Self.decodeSets {
            let key = "decode.\(set).Mpxps"
            ratioTarget(
                "decode \(set) ≥ 1.0× libpng", figures["swift." + key], figures["libpng." + key]
            ) { $0 >= 1 }
        }
        for set in Self.decodeSets {
            let key = "decode.\(set).Mpxps"
            ratioTarget(
                "decode \(set) ≥ 1.0× Pillow", figures["swift." + key], figures["pillow." + key]
            ) { $0 >= 1 }
        }
        for set in Self.encodeSets {
            // Bytes compared exactly: a ratio that rounds to 1.00× may still be larger.
            let key = "encode.\(set).bytes"
            guard let mine = figures["swift." + key] else { continue }
            let theirs = figures["pillow." + key]
            targets.append(
                Target(
                    text: "encode \(set) size ≤ 1.0× Pillow optimize",
                    passed: theirs.map { mine.median <= $0.median },
                    detail: theirs.map {
                        String(
                            format: "%.4f× (%+.0f bytes)", mine.median / $0.median, mine.median - $0.median)
                    } ?? "no reference"))
        }
        ratioTarget("sepia ≥ 1.0× numpy", figures["swift.sepia.Mpxps"], figures["numpy.sepia.Mpxps"]) {
            $0 >= 1
        }
        if let agreement = figures["numpy.sepia.agree"] {
            targets.append(
                Target(
                    text: "sepia agrees with numpy pixel for pixel", passed: agreement.median == 1,
                    detail: agreement.note))
        }
        targets.append(contentsOf: growthTargets())
        return targets
    }

    /// Each step's memory and time over the growth curve.
    func growthTargets() -> [Target] {
        var targets: [Target] = []
        for step in Self.steps {
            for build in ["release", "debug"] {
                func figure(_ rows: Int, _ minutes: Int, _ what: String) -> Figure? {
                    figures["growth.\(step).\(build).\(rows).\(minutes).\(what)"]
                }
                if let peak = figure(10_000, 30, "peakMiB") {
                    let ceiling = FigureWriter.display(Self.memoryCeilingMiB)
                    targets.append(
                        Target(
                            text: "\(step) (\(build)) peak RSS ≤ \(ceiling) MiB on 10,000 rows × 30 min",
                            passed: peak.maximum <= Self.memoryCeilingMiB,
                            detail: "\(FigureWriter.display(peak.maximum)) MiB"))
                }
                // Flat: the longest run's peak at most 10 % above the shortest's.
                if let short = figure(10_000, 1, "peakMiB"), let long = figure(10_000, 30, "peakMiB") {
                    targets.append(
                        Target(
                            text: "\(step) (\(build)) peak RSS flat in virtual time (30 min ≤ 1.1× 1 min)",
                            passed: long.median <= short.median * 1.1,
                            detail: String(format: "%.2f×", long.median / short.median)))
                }
                if let few = figure(1_000, 5, "peakMiB"), let many = figure(100_000, 5, "peakMiB") {
                    targets.append(
                        Target(
                            text:
                                "\(step) (\(build)) peak RSS flat in rows (100,000 ≤ 1.1× 1,000 rows, 5 min)",
                            passed: many.median <= few.median * 1.1,
                            detail: String(format: "%.2f×", many.median / few.median)))
                }
                if build == "release", let wall = figure(10_000, 30, "cpuSeconds") {
                    let perMinute = wall.median / 30
                    targets.append(
                        Target(
                            text:
                                "\(step) ≤ 2 CPU s per virtual minute on 10,000 rows × 30 min (this machine)",
                            passed: perMinute <= 2, detail: "\(FigureWriter.display(perMinute)) s"))
                }
            }
        }
        return targets
    }

    /// The whole report as Markdown: the tables and the targets list.
    func markdown() -> String {
        var lines = decodeTable()
        lines.append("")
        lines.append(contentsOf: encodeTable())
        lines.append("")
        lines.append(contentsOf: stepTable())
        lines.append("")
        lines.append(contentsOf: growthTable())
        if let cache = figures["cache.posters.MiB"] {
            lines.append("")
            lines.append(
                "Poster file cache after the run: \(cache.summary) MiB (\(cache.note)).")
        }
        lines.append("")
        lines.append("| target | result | figures |")
        lines.append("|---|---|---|")
        let checked = targets()
        for target in checked {
            let result = target.passed.map { $0 ? "PASS" : "**MISS**" } ?? "n/a"
            lines.append("| \(target.text) | \(result) | \(target.detail) |")
        }
        let passed = checked.filter { $0.passed == true }.count
        let missed = checked.filter { $0.passed == false }.count
        lines.append("")
        lines.append("Targets: \(passed) PASS, \(missed) MISS, \(checked.count - passed - missed) n/a.")
        return lines.joined(separator: "\n") + "\n"
    }
}
