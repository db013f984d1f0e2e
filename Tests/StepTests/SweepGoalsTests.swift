import Scenarios
import Testing

@testable import Compare

/// How `Compare --sweep` judges the last step's goals against step 4 and the plan, on distances made up
/// so that the right verdict is plain: CI fails on what this judge calls unmet, so a judge that counts
/// wrong would let a missed goal through, or fail a met one.
@Suite struct SweepGoalsTests {
    static let cases = 50

    /// A cause for every family, so that a test about counting is not also about causes.
    static let everyFamily = Dictionary(uniqueKeysWithValues: ScenarioSweep.families.map { ($0, "made up") })

    /// Distances for step 4 (`Step4`), the last step (`Step6`) and the plan on `cases` cases, each figure
    /// `value(step, key, case)`.
    static func distances(_ value: (String, String, Int) -> Double) -> Sweep.Distances {
        var distances: Sweep.Distances = [:]
        for step in ["Step4", "Step6", "plan"] {
            for (key, _) in Sweep.measures {
                for sweepCase in 0..<cases {
                    distances[step, default: [:]][key, default: [:]][sweepCase] = value(step, key, sweepCase)
                }
            }
        }
        return distances
    }

    /// A last step a quarter of step 4, at the plan's figures, on every measure and case.
    static func atThePlan(step: String, key: String, sweepCase: Int) -> Double {
        step == "Step4" ? 4 : 1
    }

    /// `atThePlan`, but the last step's figure is `value` on `key` for the cases `chosen` picks.
    static func lastStep(_ value: Double, on key: String, where chosen: (Int) -> Bool) -> Sweep.Distances {
        distances { step, measure, sweepCase in
            measure == key && step == "Step6" && chosen(sweepCase)
                ? value : atThePlan(step: step, key: measure, sweepCase: sweepCase)
        }
    }

    static func judge(_ distances: Sweep.Distances, causes: [String: String] = everyFamily) -> SweepGoals {
        SweepGoals(distances: distances, capstone: "Step6", before: "Step4", cases: cases, causes: causes)
    }

    /// The report's lines naming a case.
    static func named(_ goals: SweepGoals) -> [Substring] {
        goals.report().split(separator: "\n").filter { $0.hasPrefix("    sweep-") }
    }

    @Test("A last step at the plan's figures and a quarter of step 4's meets every goal")
    func everyGoalMet() {
        let goals = Self.judge(Self.distances(Self.atThePlan))
        #expect(goals.unmet.isEmpty)
        #expect(!goals.report().contains("NOT MET"))
        #expect(Self.named(goals).isEmpty)
    }

    @Test(
        "Worse than step 4 on more than a tenth of the cases misses that goal and names each case",
        arguments: ["placeholder_row_seconds", "bytes_wasted"])
    func worseOnTooManyCases(key: String) {
        for worseCases in [5, 6] {
            let goals = Self.judge(Self.lastStep(5, on: key) { $0 < worseCases })
            let missed = goals.unmet.contains("worse than Step4 on grey row-s or on waste KB")
            #expect(missed == (worseCases > Self.cases / 10), "\(worseCases) cases worse")
            let named = Self.named(goals)
            #expect(named.count == worseCases)
            let heading = key == "bytes_wasted" ? "waste KB" : "grey row-s"
            #expect(named.first == "    sweep-0-very-slow: \(heading) 5.0 against 4.0")
        }
    }

    @Test(
        "A case worse on grey and on waste at once misses that goal; worse on each in different cases does not"
    )
    func worseOnBothAtOnce() {
        let apart = Self.distances { step, key, sweepCase in
            guard step == "Step6" else { return Self.atThePlan(step: step, key: key, sweepCase: sweepCase) }
            return (key == "placeholder_row_seconds" && sweepCase == 0)
                || (key == "bytes_wasted" && sweepCase == 1)
                ? 5 : 1
        }
        let together = Self.distances { step, key, sweepCase in
            guard step == "Step6" else { return Self.atThePlan(step: step, key: key, sweepCase: sweepCase) }
            return key != "time_to_visible_ms_max" && sweepCase == 0 ? 5 : 1
        }
        let goal = "worse than Step4 on both at once on no case"
        #expect(!Self.judge(apart).unmet.contains(goal))
        #expect(Self.judge(together).unmet.contains(goal))
        #expect(
            Self.named(Self.judge(together)) == [
                "    sweep-0-very-slow: grey row-s 5.0 against 4.0; waste KB 5.0 against 4.0"
            ])
    }

    @Test("Figures that print alike at one decimal are not worse")
    func printedAlikeIsNotWorse() {
        for (mine, worse) in [(4.04, false), (4.1, true)] {
            let goals = Self.judge(Self.lastStep(mine, on: "placeholder_row_seconds") { $0 < 6 })
            #expect(goals.unmet.contains("worse than Step4 on grey row-s or on waste KB") == worse, "\(mine)")
        }
    }

    @Test("A slower worst stop is not one of the goals")
    func slowestStopIsNotAGoal() {
        let goals = Self.judge(Self.lastStep(9, on: "time_to_visible_ms_max") { _ in true })
        #expect(goals.unmet.isEmpty)
    }

    @Test(
        "The median is the lower middle value: half the cases wasting is a median of nothing",
        arguments: [25, 26])
    func medianIsTheLowerMiddle(wasting: Int) {
        let goals = Self.judge(
            Self.distances { step, key, sweepCase in
                guard key == "bytes_wasted" else {
                    return Self.atThePlan(step: step, key: key, sweepCase: sweepCase)
                }
                switch step {
                case "Step4": return 10
                case "Step6": return sweepCase < wasting ? 6 : 0
                default: return 0
                }
            })
        #expect(goals.unmet.contains("median waste KB at most half of Step4's") == (wasting > 25))
        // The plan's waste is shown, not judged: a median of 6 against the plan's 0 fails nothing else.
        #expect(goals.unmet.count == (wasting > 25 ? 1 : 0), "\(goals.unmet)")
    }

    @Test("The waste goal is half of step 4's: a median far above the plan's, at half of step 4's, meets it")
    func wasteIsJudgedAgainstStepFour() {
        for (mine, met) in [(5.0, true), (5.1, false)] {
            let goals = Self.judge(
                Self.distances { step, key, _ in
                    guard key == "bytes_wasted" else { return step == "Step4" ? 4 : 1 }
                    return step == "Step4" ? 10 : step == "Step6" ? mine : 0.5
                })
            #expect(goals.unmet == (met ? [] : ["median waste KB at most half of Step4's"]), "\(mine)")
            #expect(goals.report().contains("(the plan's 0.5, not a goal)"))
        }
    }

    @Test(
        "Grey row-seconds at exactly twice the plan's and half of step 4's meet the goals; a tenth more does not"
    )
    func greyLimitsAreInclusive() {
        for (mine, met) in [(2.0, true), (2.1, false)] {
            let goals = Self.judge(
                Self.distances { step, key, _ in
                    guard key == "placeholder_row_seconds" else { return step == "Step4" ? 4 : 1 }
                    return step == "Step4" ? 4 : step == "Step6" ? mine : 1
                })
            #expect(goals.unmet.contains("median grey row-s at most twice the plan's") == !met, "\(mine)")
            #expect(goals.unmet.contains("median grey row-s at most half of Step4's") == !met, "\(mine)")
        }
    }

    @Test("Each case worse than step 4 is printed with its family's cause; one whose family has none fails")
    func causes() {
        let worse = Self.lastStep(5, on: "placeholder_row_seconds") { $0 == 1 }
        let goal = "each case worse than Step4 has a known cause"
        let explained = Self.judge(worse, causes: ["reading-pace": "drags at reading pace"])
        #expect(!explained.unmet.contains(goal))
        #expect(
            explained.report().contains(
                "    sweep-1-reading-pace: grey row-s 5.0 against 4.0\n      cause: drags at reading pace\n"))
        let unexplained = Self.judge(worse, causes: ["very-slow": "slow"])
        #expect(unexplained.unmet == [goal])
        #expect(unexplained.report().contains("      cause: none known\n"))
    }
}
