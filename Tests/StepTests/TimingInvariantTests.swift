import Foundation
import Shared
import TestSupport
import Testing

@testable import Imaging
@testable import Report
@testable import Scenarios

/// Hitches, hangs and time to visible obey their definitions on every step, on every built-in scenario
/// and on a seeded sweep of generated ones.
extension LessonTests {
    @Test("Every step on every built-in scenario keeps the timing invariants")
    func timingOnBuiltIns() throws {
        for scenario in Scenarios.all {
            let parsed = try ScenarioParser.load(scenario)
            for step in Step.allCases {
                checkTimingInvariants(try SharedRuns.shared.result(step, scenario), scenario: parsed)
            }
        }
    }

    @Test("Generated scenarios keep the timing invariants on every step")
    func timingOnGenerated() throws {
        let folder = try StepFixtures.folder("generated")
        defer { try? FileManager.default.removeItem(at: folder) }
        for seed in UInt64(0)..<6 {
            let path = try StepFixtures.scenario(
                Self.timingScenario(seed: seed), named: "generated-\(seed)", in: folder)
            let scenario = try ScenarioParser.load(path)
            for step in Step.allCases { checkTimingInvariants(try step.run(path), scenario: scenario) }
        }
    }

    /// The reproduction: a slow network, 120 Hz, drags back to back, then two flings.
    static let slowNetwork = """
        rows 120
        seed 5
        network rtt=600ms jitter=200ms bandwidth=150KB/s connections=4
        screen height=667 row=60 refresh=120
        wait 0.5s
        drag to row 10 over 0.5s
        drag to row 3 over 0.4s
        drag to row 20 over 0.6s
        fling to row 50
        wait 4s
        fling to row 5
        wait 8s
        """

    @Test("On a slow network, step 1 is in the worst band and leaves stops unfilled; steps 2–4 stay smooth")
    func slowNetworkReproduction() throws {
        let folder = try StepFixtures.folder("slow-network")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try StepFixtures.scenario(Self.slowNetwork, named: "slow-network", in: folder)
        let scenario = try ScenarioParser.load(path)
        let naive = try Step.naive.run(path)
        checkTimingInvariants(naive, scenario: scenario)
        #expect(HitchBand(ratio: naive.metrics.hitchTimeRatio) == .immediateAttention)
        #expect(naive.metrics.stopsUnfilled > 0)
        // The frozen launch is a hang as well as a hitch.
        #expect(naive.metrics.hangs > 0)
        #expect(naive.metrics.hangTimeMicroseconds >= 250_000)
        for step in [Step.background, .idleOnly, .cacheAndPrefetch] {
            let run = try step.run(path)
            checkTimingInvariants(run, scenario: scenario)
            #expect(run.metrics.hitchTimeRatio <= 5, "\(step)")
            #expect(run.metrics.scrollingMicroseconds > 0)
        }
    }

    /// A short random scenario: few rows, a slow or a fast network, 60 or 120 Hz, then a few drags,
    /// flings and waits.
    static func timingScenario(seed: UInt64) -> String {
        var random = SeededGenerator(seed: 0x5EED_0000 &+ seed)
        let rows = 16 + random.below(16)
        let rowHeight = [60, 88, 120][random.below(3)]
        let slow = random.below(2) == 0
        var lines = [
            "rows \(rows)",
            "seed \(seed + 1)",
            slow
                ? "network rtt=\(200 + random.below(400))ms jitter=50ms bandwidth=\(80 + random.below(120))KB/s connections=\(2 + random.below(3))"
                : "network rtt=\(20 + random.below(80))ms jitter=10ms bandwidth=2000KB/s connections=6",
            "screen height=667 row=\(rowHeight) refresh=\(random.below(2) == 0 ? 60 : 120)",
        ]
        for _ in 0..<(3 + random.below(4)) {
            switch random.below(3) {
            case 0: lines.append("wait \(50 + random.below(1200))ms")
            case 1: lines.append("drag to row \(random.below(rows)) over \(100 + random.below(600))ms")
            default: lines.append("fling to row \(random.below(rows))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
