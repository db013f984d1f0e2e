import Testing

@testable import Compare

/// How `Compare --sweep` judges the capstone's goals, on distances made up so that the right verdict is
/// plain: CI fails on what this judge calls unmet, so a judge that counts wrong would let a missed goal
/// through, or fail a met one.
@Suite struct SweepGoalsTests {
    static let cases = 50

    /// Distances for the step before (`Step4`), the capstone (`Step5`) and the plan on `cases` cases, each
    /// figure `value(step, key, case)`.
    static func distances(_ value: (String, String, Int) -> Double) -> Sweep.Distances {
        var distances: Sweep.Distances = [:]
        for step in ["Step4", "Step5", "plan"] {
            for (key, _) in Sweep.measures {
                for sweepCase in 0..<cases {
                    distances[step, default: [:]][key, default: [:]][sweepCase] = value(step, key, sweepCase)
                }
            }
        }
        return distances
    }

    /// A capstone a quarter of the step before, at the plan's figures, on every measure and case.
    static func capstoneAtThePlan(step: String, key: String, sweepCase: Int) -> Double {
        step == "Step4" ? 4 : 1
    }

    /// `capstoneAtThePlan`, but the capstone's `key` is `value` on the first `count` cases.
    static func capstone(_ value: Double, on key: String, inFirst count: Int) -> Sweep.Distances {
        distances { step, measure, sweepCase in
            measure == key && step == "Step5" && sweepCase < count
                ? value : capstoneAtThePlan(step: step, key: measure, sweepCase: sweepCase)
        }
    }

    static func judge(_ distances: Sweep.Distances) -> SweepGoals {
        SweepGoals(distances: distances, capstone: "Step5", before: "Step4", cases: cases)
    }

    @Test("A capstone at the plan's figures and a quarter of the step before's meets every goal")
    func everyGoalMet() {
        let goals = Self.judge(Self.distances(Self.capstoneAtThePlan))
        #expect(goals.unmet.isEmpty)
        #expect(!goals.report().contains("NOT MET"))
    }

    @Test("Worse than the step before on more than a tenth of the cases misses that goal and names each case")
    func worseOnTooManyCases() {
        for worseCases in [5, 6] {
            let goals = Self.judge(Self.capstone(5, on: "bytes_wasted", inFirst: worseCases))
            let missed = goals.unmet.contains("worse than the step before on waste KB")
            #expect(missed == (worseCases > Self.cases / 10), "\(worseCases) cases worse")
            let named = goals.report().split(separator: "\n").filter { $0.hasPrefix("    sweep-") }
            #expect(named.count == worseCases)
            #expect(named.first == "    sweep-0-very-slow 5.0 against 4.0")
        }
    }

    @Test("Figures that print alike at one decimal are not worse")
    func printedAlikeIsNotWorse() {
        for (mine, worse) in [(4.04, false), (4.1, true)] {
            let goals = Self.judge(Self.capstone(mine, on: "time_to_visible_ms_max", inFirst: 6))
            #expect(goals.unmet.contains("worse than the step before on slowest stop ms") == worse, "\(mine)")
        }
    }

    @Test(
        "The median is the lower middle value: half the cases wasting nothing is the plan's median of nothing"
    )
    func medianIsTheLowerMiddle() {
        for wasting in [25, 26] {
            let goals = Self.judge(
                Self.distances { step, key, sweepCase in
                    guard key == "bytes_wasted" else {
                        return Self.capstoneAtThePlan(step: step, key: key, sweepCase: sweepCase)
                    }
                    switch step {
                    case "Step4": return 10
                    case "Step5": return sweepCase < wasting ? 1 : 0
                    default: return 0
                    }
                })
            let missed = goals.unmet.contains("median waste KB at most twice the plan's")
            #expect(missed == (wasting > 25), "\(wasting) of 50 cases wasting")
            #expect(!goals.unmet.contains("median waste KB at most half of Step4's"))
        }
    }

    @Test(
        "A goal missed for a known cause is printed as not met, with its cause, and does not fail the sweep")
    func knownCause() throws {
        let goal = "worse than the step before on grey row-s"
        let cause = try #require(SweepGoals.known[goal])
        let goals = Self.judge(Self.capstone(5, on: "placeholder_row_seconds", inFirst: 9))
        #expect(goals.unmet.isEmpty)
        #expect(goals.report().contains("NOT MET  \(goal): 9 of 50 cases, at most 5"))
        #expect(goals.report().contains("known cause: \(cause)"))
    }
}
