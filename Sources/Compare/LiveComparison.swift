import Files
import Foundation
import Shared

/// `Compare --live`: every step on one scenario, simulated and live, each figure beside its live twin, and
/// whether each of the course's lessons holds live.
///
/// The simulated steps are the ones built next to `Compare`; the live ones are the `Live` package's
/// executables of the same names, from `--live-bin DIR` or else built with `swift build --package-path
/// Live` (in `Compare`'s own configuration) and found with `--show-bin-path`. Each step runs alone, the
/// simulated one with `--json --trace` (the trace says which posters were downloaded after the last relaunch), then
/// the live one with `--json`. A lesson is judged live only where the simulator shows it on the scenario;
/// `Compare` exits 1 when one that the simulator shows fails live.
enum LiveComparison {
    /// One step's two reports.
    struct Pair {
        let step: String
        let simulated: Report
        let live: Report
    }

    /// What `Compare --live` reads of one `--json` report: its metrics (nil for one not measured) and, for
    /// a live run, its `live` object's numbers.
    struct Report {
        let step: String
        let scenario: String
        let seed: UInt64
        /// Every metric by its contract key; a key present with null is a figure not measured live.
        let metrics: [String: Double?]
        /// The live object's numbers (`wall_seconds`, `frames`, …); empty for a simulated run.
        let live: [String: Double]
        /// Posters downloaded in full (a 2xx answer) after the last relaunch; nil when the run had none.
        var postersAfterLastRelaunch: Int?

        /// Reads a `--json` report.
        static func read(_ data: Data) throws(WorkbookError) -> Report {
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let step = object["step"] as? String, let scenario = object["scenario"] as? String,
                let seed = (object["seed"] as? NSNumber)?.uint64Value,
                let metrics = object["metrics"] as? [String: Any]
            else {
                throw WorkbookError.badInput("not a step's --json report")
            }
            var numbers: [String: Double?] = [:]
            for (key, value) in metrics {
                if let number = value as? NSNumber {
                    numbers[key] = .some(number.doubleValue)
                } else if value is NSNull {
                    numbers[key] = .some(nil)
                }
            }
            var live: [String: Double] = [:]
            for (key, value) in object["live"] as? [String: Any] ?? [:] {
                // A true or false comes as a number too; only the numbers are shown.
                if let number = value as? NSNumber { live[key] = number.doubleValue }
            }
            var report = Report(
                step: step, scenario: scenario, seed: seed, metrics: numbers, live: live,
                postersAfterLastRelaunch: nil)
            if let relaunches = live["relaunches"], relaunches > 0 {
                report.postersAfterLastRelaunch = live["posters_downloaded_after_last_relaunch"].map {
                    Int($0)
                }
            }
            return report
        }

        /// A metric's value, nil when it is missing or not measured.
        func value(_ key: String) -> Double? {
            metrics[key] ?? nil
        }
    }

    /// Posters downloaded in full (`request_end` with a 2xx status) after the last `relaunch` in a trace
    /// (JSON Lines); nil when it has no relaunch.
    static func postersAfterLastRelaunch(trace: String) -> Int? {
        var count: Int?
        for line in trace.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let event = object["event"] as? String
            else { continue }
            if event == "relaunch" {
                count = 0
            } else if event == "request_end", let downloaded = count,
                let status = (object["status"] as? NSNumber)?.intValue, (200..<300).contains(status)
            {
                count = downloaded + 1
            }
        }
        return count
    }

    /// How one lesson fared.
    enum Verdict: Equatable {
        /// It holds live.
        case holds
        /// The simulator shows it on this scenario and the live run does not.
        case fails(String)
        /// Not judged live, and why.
        case notJudged(String)
    }

    /// One of the course's lessons, judged in the simulator and live.
    struct Lesson {
        let claim: String
        let verdict: Verdict
    }

    /// The lessons `Compare --live` checks, judged on the pairs (steps found by their number) of a
    /// scenario with or without flings and relaunches.
    static func lessons(_ pairs: [Pair], hasFlings: Bool, hasRelaunch: Bool) -> [Lesson] {
        func pair(_ number: Int) -> Pair? {
            pairs.first { stepNumber($0.step) == number }
        }
        /// Judges `holds` on the simulated and the live report of each of `steps`.
        func judge(
            _ claim: String, steps: [Int], applies: String? = nil,
            holds: ([Report]) -> Bool?
        ) -> Lesson {
            if let applies { return Lesson(claim: claim, verdict: .notJudged(applies)) }
            let found = steps.compactMap(pair)
            guard found.count == steps.count else {
                return Lesson(claim: claim, verdict: .notJudged("a step it names was not run"))
            }
            guard let simulated = holds(found.map(\.simulated)) else {
                return Lesson(claim: claim, verdict: .notJudged("the simulator's figures for it are missing"))
            }
            guard simulated else {
                return Lesson(
                    claim: claim, verdict: .notJudged("the simulator does not show it on this scenario"))
            }
            guard let live = holds(found.map(\.live)) else {
                return Lesson(claim: claim, verdict: .notJudged("a figure it needs is not measured live"))
            }
            return Lesson(claim: claim, verdict: live ? .holds : .fails("the live run does not show it"))
        }
        return [
            judge("step 1 hangs and steps 2-6 do not", steps: [1, 2, 3, 4, 5, 6]) { reports in
                let hangs = reports.map { $0.value("hangs") }
                guard hangs.allSatisfy({ $0 != nil }) else { return nil }
                return hangs[0]! >= 1 && hangs.dropFirst().allSatisfy { $0! == 0 }
            },
            judge(
                "step 3 moves fewer bytes than step 2 on flings", steps: [2, 3],
                applies: hasFlings ? nil : "the scenario has no fling"
            ) { reports in
                guard let two = reports[0].value("bytes_downloaded"),
                    let three = reports[1].value("bytes_downloaded")
                else { return nil }
                return three < two
            },
            judge(
                "step 4 needs no network after a relaunch", steps: [4],
                applies: hasRelaunch ? nil : "the scenario has no relaunch"
            ) { reports in
                reports[0].postersAfterLastRelaunch.map { $0 == 0 }
            },
            judge("no wrong picture in steps 4 to 6", steps: [4, 5, 6]) { reports in
                let wrong = reports.map { $0.value("wrong_image_events") }
                guard wrong.allSatisfy({ $0 != nil }) else { return nil }
                return wrong.allSatisfy { $0! == 0 }
            },
        ]
    }

    /// The table: a row per metric in the report order, a simulated and a live column per step (`-` for
    /// a figure not measured live), the posters downloaded after the last relaunch and the live run's wall time and
    /// frames; then the lessons.
    static func render(_ pairs: [Pair], lessons: [Lesson]) -> String {
        guard let first = pairs.first else { return "no steps to compare\n" }
        let kinds = Metrics().entries.map { (key: $0.key, isCount: isCount($0.value)) }
        var keys = kinds.map(\.key)
        keys += Set(pairs.flatMap { Array($0.simulated.metrics.keys) + Array($0.live.metrics.keys) })
            .subtracting(keys).sorted()
        let header =
            ["metric"]
            + pairs.flatMap { ["\(shortName($0.step)) sim", "live"] }
        var rows: [[String]] = [header]
        func cell(_ value: Double?, isCount: Bool) -> String {
            value.map { format($0, isCount: isCount) } ?? "-"
        }
        for key in keys {
            let isCount = kinds.first { $0.key == key }?.isCount ?? false
            rows.append(
                [key]
                    + pairs.flatMap {
                        [
                            cell($0.simulated.value(key), isCount: isCount),
                            cell($0.live.value(key), isCount: isCount),
                        ]
                    })
        }
        rows.append(
            ["posters_after_last_relaunch"]
                + pairs.flatMap {
                    [
                        cell($0.simulated.postersAfterLastRelaunch.map(Double.init), isCount: true),
                        cell($0.live.postersAfterLastRelaunch.map(Double.init), isCount: true),
                    ]
                })
        for (key, isCount) in [("wall_seconds", false), ("frames", true)] {
            rows.append(["live_" + key] + pairs.flatMap { ["", cell($0.live.live[key], isCount: isCount)] })
        }
        var lines =
            [
                "scenario \(first.simulated.scenario) · seed \(first.simulated.seed) · simulated beside live",
                "",
            ]
            + ComparisonTable.aligned(rows)
        lines += ["", "lessons, live"]
        for lesson in lessons {
            switch lesson.verdict {
            case .holds: lines.append("  holds        \(lesson.claim)")
            case .fails(let why): lines.append("  FAILS        \(lesson.claim): \(why)")
            case .notJudged(let why): lines.append("  not judged   \(lesson.claim): \(why)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether any lesson the simulator shows failed live.
    static func anyFailed(_ lessons: [Lesson]) -> Bool {
        lessons.contains {
            if case .fails = $0.verdict { return true }
            return false
        }
    }

    /// How long a scenario plays, in whole seconds (rounded up).
    static func scenarioSeconds(_ scenario: Scenario) -> Int {
        let timeline = GestureTimeline(
            actions: scenario.actions, rows: scenario.rows, rowHeight: Double(scenario.screen.rowHeight),
            viewport: Double(scenario.screen.height))
        return Int((Double(timeline.endTime) / 1e6).rounded(.up))
    }

    /// The number after `Step` in a step's name (`Step4CacheAndPrefetch` → 4).
    static func stepNumber(_ step: String) -> Int? {
        guard step.hasPrefix("Step") else { return nil }
        return Int(step.dropFirst(4).prefix { $0.isASCII && $0.isNumber })
    }

    /// `Step4CacheAndPrefetch` → `Step4`, for the column headings.
    static func shortName(_ step: String) -> String {
        stepNumber(step).map { "Step\($0)" } ?? step
    }

    /// Whether a metric is a whole number.
    static func isCount(_ value: MetricValue) -> Bool {
        if case .count = value { return true }
        return false
    }

    /// A figure as the reports print it: whole numbers plain, the rest with one decimal.
    static func format(_ value: Double, isCount: Bool) -> String {
        if isCount { return String(Int64(value.rounded())) }
        let tenths = Int64((value * 10).rounded())
        return "\(tenths < 0 ? "-" : "")\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    /// The first executable of this name on `PATH`.
    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
