import Shared

/// The last step's goals on the sweep, judged from each step's distance beyond the limit against step 4
/// (the step before Swift concurrency) and the plan:
///
/// - grey row-seconds: the median at most half of step 4's and at most twice the plan's;
/// - waste beyond the bound: the median at most half of step 4's (the plan's, which knows when the user
///   leaves, is printed beside it but is not a goal);
/// - worse than step 4 on grey or on waste on at most a tenth of the cases, each named with the cause
///   its family gives (a case whose family has no known cause fails); worse on both at once on none.
///
/// A case is worse on a measure when its figure, printed with one decimal, is higher than step 4's.
struct SweepGoals {
    /// The goals not met, one line each.
    private(set) var unmet: [String] = []
    private var lines: [String] = []

    /// Why a client without foresight is worse than step 4 on a case of a family, by family
    /// (`ScenarioSweep.families`).
    static let causes: [String: String] = [
        "reading-pace":
            "step 4 prefetches the next rows at every stop, the launch's included; the last step waits until "
            + "the user has read on (two short scrolls one way), so the first drag of a reading run finds "
            + "its next row still on its way",
        "dense-screen":
            "a screen of 20 rows or more: the last step, faster, has started the stop's bottom rows when the "
            + "user drags back up, and their bytes arrive for rows no longer on screen; step 4, slower, had "
            + "not reached them",
    ]

    init(
        distances: Sweep.Distances, capstone: String, before: String, cases: Int,
        causes: [String: String] = Self.causes
    ) {
        let (grey, waste) = (Sweep.measures[0], Sweep.measures[1])
        lines.append("\(capstone)'s goals on the sweep, against \(before) and the plan:")
        let mine = Self.median(distances[capstone]?[grey.key])
        let theirs = Self.median(distances[before]?[grey.key])
        let plan = Self.median(distances["plan"]?[grey.key])
        judge(
            "median \(grey.heading) at most half of \(before)'s", value: mine, limit: theirs.map { $0 / 2 },
            detail: "\(Self.text(mine)) against \(Self.text(theirs))")
        judge(
            "median \(grey.heading) at most twice the plan's", value: mine, limit: plan.map { $0 * 2 },
            detail: "\(Self.text(mine)) against \(Self.text(plan))")
        let wasted = Self.median(distances[capstone]?[waste.key])
        let wastedBefore = Self.median(distances[before]?[waste.key])
        let wastedPlan = Self.median(distances["plan"]?[waste.key])
        judge(
            "median \(waste.heading) at most half of \(before)'s", value: wasted,
            limit: wastedBefore.map { $0 / 2 },
            detail:
                "\(Self.text(wasted)) against \(Self.text(wastedBefore)) (the plan's \(Self.text(wastedPlan)), "
                + "not a goal)")

        var worse: [(name: String, family: String, on: [String])] = []
        for number in 0..<cases {
            let on = [grey, waste].filter { measure in
                guard let mine = distances[capstone]?[measure.key]?[number],
                    let theirs = distances[before]?[measure.key]?[number]
                else { return false }
                return MetricValue.ratio(mine).formatted != MetricValue.ratio(theirs).formatted
                    && mine > theirs
            }
            .map { measure in
                let mine = distances[capstone]?[measure.key]?[number]
                let theirs = distances[before]?[measure.key]?[number]
                return "\(measure.heading) \(Self.text(mine)) against \(Self.text(theirs))"
            }
            guard !on.isEmpty else { continue }
            let family = ScenarioSweep.families[number % ScenarioSweep.families.count]
            worse.append((ScenarioSweep.name(number), family, on))
        }
        let allowed = cases / 10
        judge(
            "worse than \(before) on grey row-s or on waste KB", value: Double(worse.count),
            limit: Double(allowed), detail: "\(worse.count) of \(cases) cases, at most \(allowed)")
        for (name, family, on) in worse {
            lines.append("    \(name): \(on.joined(separator: "; "))")
            lines.append("      cause: \(causes[family] ?? "none known")")
        }
        let both = worse.filter { $0.on.count == 2 }.count
        judge(
            "worse than \(before) on both at once on no case", value: Double(both), limit: 0,
            detail: "\(both) of \(cases) cases")
        let unexplained = worse.filter { causes[$0.family] == nil }.count
        judge(
            "each case worse than \(before) has a known cause", value: Double(unexplained), limit: 0,
            detail: "\(unexplained) without one")
    }

    /// The goals, one line each, with the cases behind the counts.
    func report() -> String {
        lines.joined(separator: "\n") + "\n"
    }

    private mutating func judge(_ goal: String, value: Double?, limit: Double?, detail: String) {
        let met = value.flatMap { value in limit.map { value <= $0 + 0.05 } } ?? false
        lines.append("  \(met ? "met    " : "NOT MET")  \(goal): \(detail)")
        if !met { unmet.append(goal) }
    }

    private static func median(_ values: [Int: Double]?) -> Double? {
        Sweep.median((values ?? [:]).values.sorted())
    }

    private static func text(_ value: Double?) -> String {
        value.map { MetricValue.ratio($0).formatted } ?? "-"
    }
}
