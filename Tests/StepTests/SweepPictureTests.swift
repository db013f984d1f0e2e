import Scenarios
import Testing

@testable import Compare

/// The sweep's picture, drawn from made-up distances whose dots are plain.
@Suite struct SweepPictureTests {
    /// Distances for steps 1 to 4 and the plan on `cases` cases: step 3 and 4 at the same figures.
    static func distances(cases: Int) -> Sweep.Distances {
        var distances: Sweep.Distances = [:]
        let figures = ["Step1": 9.0, "Step2": 8, "Step3": 2, "Step4": 2, "plan": 1]
        for (step, figure) in figures {
            for (key, _) in Sweep.measures {
                for sweepCase in 0..<cases {
                    distances[step, default: [:]][key, default: [:]][sweepCase] = figure
                }
            }
        }
        return distances
    }

    @Test(
        "The picture has a panel per family, and a dot per step from step 3 on, steps at one point sharing it"
    )
    func panelsAndDots() {
        let svg = SweepPicture.svg(
            Self.distances(cases: 12), steps: ["Step1", "Step2", "Step3", "Step4"], cases: 12)
        for family in ScenarioSweep.families { #expect(svg.contains(">\(family) (2 cases)</text>")) }
        #expect(svg.components(separatedBy: "<circle").count - 1 == 2 * ScenarioSweep.families.count)
        #expect(svg.contains(">3, 4</text>"))
        // Steps 1 and 2 (at 9 and 8) are not drawn: the axes end at step 3's and 4's 2.
        #expect(svg.contains(">2 KB</text>") && !svg.contains(">10 KB</text>"))
        #expect(svg.contains("<title>plan: 1.0 grey row-s, 1.0 KB wasted</title>"))
    }

    @Test("An axis ends at 1, 2 or 5 times a power of ten at or above the largest figure")
    func roundUp() {
        for (value, end) in [
            (0.0, 1.0), (1, 1), (1.5, 2), (3, 5), (7, 10), (85.2, 100), (161.8, 200), (482, 500),
        ] {
            #expect(SweepPicture.roundUp(value) == end, "\(value)")
        }
    }
}
