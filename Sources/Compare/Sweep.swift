import Files
import Foundation
import Shared

/// `Compare --sweep [N]`: every step on the first N generated scenarios (`ScenarioSweep`), and each step's
/// distance to the limit on them, median and worst case, with the limit's plan (`ClairvoyantClient`) on
/// the last row: how close a client that knows the future comes.
///
/// The distance is how far a step's figure lies beyond the limit's bound (its grey row-seconds, the bytes
/// it wasted beyond those no client could show, its slowest stop): 0 is the best any client could do. A
/// step found on the wrong side of a bound is named, and the sweep exits 1: a bound no client can beat
/// was beaten, so the bound or the simulator is wrong.
enum Sweep {
    /// The sweep's measures: a metric's key, its unit in the heading, and the divisor to that unit.
    static let measures: [(key: String, heading: String)] = [
        ("placeholder_row_seconds", "grey row-s"),
        ("bytes_wasted", "waste KB"),
        ("time_to_visible_ms_max", "slowest stop ms"),
    ]

    /// Runs the sweep's `cases` cases and prints the table; exits 1 when a bound was beaten.
    static func main(cases: Int, steps: [String], folder: URL, timeLimit: Int, picture: URL? = nil) -> Never {
        let scratch: URL
        do {
            scratch = try TemporaryFiles.makeFolder(prefix: "workbook-sweep")
        } catch {
            Compare.fail(error.description)
        }
        var distances: Distances = [:]
        var beaten: [String] = []
        let started = ContinuousClock.now
        for sweepCase in 0..<cases {
            defer {
                Compare.progress(
                    "case \(sweepCase + 1) of \(cases), \(ScenarioSweep.name(sweepCase)), done",
                    since: started)
            }
            let file = scratch.appendingPathComponent(ScenarioSweep.name(sweepCase) + ".scenario")
            do {
                try Data(ScenarioSweep.text(sweepCase).utf8).write(to: file)
            } catch {
                Compare.fail("cannot write \(file.path): \(SystemError.reason(error))")
            }
            var options = RunOptions()
            options.scenario = file.path
            for step in steps + ["plan"] {
                let column: ComparisonTable.Column
                if step == "plan" {
                    column = Compare.plan(options)
                } else {
                    let data = Compare.run(
                        folder.appendingPathComponent(step).path,
                        arguments: ["--json", "--scenario", file.path], step: step, timeLimit: timeLimit)
                    guard let read = try? ComparisonTable.column(fromJSON: data) else {
                        Compare.fail("\(step) printed something that is not its --json report")
                    }
                    column = read
                }
                for (key, _) in measures {
                    guard let value = column.metrics[key], let bound = column.limits[key] else { continue }
                    let scale = key == "bytes_wasted" ? 1000.0 : 1
                    distances[step, default: [:]][key, default: [:]][sweepCase] = (value - bound) / scale
                }
                beaten += beatenBounds(column).map { "\(step) on \(ScenarioSweep.name(sweepCase)): \($0)" }
            }
        }
        // Removed here, not in a `defer`: `exit` runs no `defer`.
        try? FileManager.default.removeItem(at: scratch)
        print(render(distances, steps: steps + ["plan"], cases: cases), terminator: "")
        if let picture {
            do {
                try Data(SweepPicture.svg(distances, steps: steps, cases: cases).utf8).write(to: picture)
            } catch {
                Compare.fail("cannot write \(picture.path): \(SystemError.reason(error))")
            }
        }
        var failed = !beaten.isEmpty
        for line in beaten { Compare.say("beyond the limit: \(line)") }
        // The last step is judged against step 4, the last before Swift concurrency.
        if let before = steps.dropLast().last(where: { $0.hasPrefix("Step4") }), let capstone = steps.last {
            let goals = SweepGoals(distances: distances, capstone: capstone, before: before, cases: cases)
            print("", goals.report(), separator: "\n", terminator: "")
            failed = failed || !goals.unmet.isEmpty
            for goal in goals.unmet { Compare.say("goal not met: \(goal)") }
        }
        exit(failed ? 1 : 0)
    }

    /// The bounds a run's report lies beyond, by key (the grey rows only for a step that never hung, the
    /// requests and bytes only for one that filled every stop without a failed request).
    static func beatenBounds(_ column: ComparisonTable.Column) -> [String] {
        var found: [String] = []
        let filledAll = column.metrics["stops_unfilled"] == 0 && column.metrics["requests_failed"] == 0
        for (key, bound) in column.limits.sorted(by: { $0.key < $1.key }) {
            guard let value = column.metrics[key] else { continue }
            switch key {
            case "memory_cache_hits": if value > bound { found.append("\(key) \(value) > \(bound)") }
            case "placeholder_row_seconds" where column.metrics["hangs"] ?? 0 > 0: continue
            case "requests_started" where !filledAll, "bytes_downloaded" where !filledAll,
                "bytes_wasted" where !filledAll:
                continue
            default:
                // Printed with one decimal: allow the rounding.
                if value + 0.05 < bound { found.append("\(key) \(value) < \(bound)") }
            }
        }
        return found
    }

    /// Each step's distance beyond the limit, by step, measure key and case number.
    typealias Distances = [String: [String: [Int: Double]]]

    /// The lower middle of sorted values; nil for none.
    static func median(_ sorted: [Double]) -> Double? {
        sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
    }

    /// The table: a row per step, the median and worst distance of each measure.
    static func render(_ distances: Distances, steps: [String], cases: Int) -> String {
        var header = ["step"]
        for (_, heading) in measures { header += ["\(heading) median", "worst"] }
        var rows: [[String]] = []
        for step in steps {
            var cells = [step]
            for (key, _) in measures {
                let values = (distances[step]?[key] ?? [:]).values.sorted()
                guard let median = median(values) else {
                    cells += ["-", "-"]
                    continue
                }
                cells += [
                    MetricValue.ratio(median).formatted, MetricValue.ratio(values.last!).formatted,
                ]
            }
            rows.append(cells)
        }
        var lines = [
            "the sweep: \(cases) generated scenarios (ScenarioSweep), each step's distance beyond the limit",
            "(0 is the best any client could do; the median is the lower middle value)", "",
        ]
        lines += ComparisonTable.aligned([header] + rows)
        return lines.joined(separator: "\n") + "\n"
    }
}
