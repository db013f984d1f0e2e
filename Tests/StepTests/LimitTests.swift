import Foundation
import Shared
import TestSupport
import Testing

/// The limit's lower bounds hold for every step, on the built-in scenarios and on generated ones: no
/// step does better than the best any client could do.
extension LessonTests {
    /// Writes the generated scenario of each sweep family into `folder` and returns their paths.
    static func generatedScenarios(in folder: URL) throws -> [String] {
        try (0..<ScenarioSweep.families.count).map {
            try StepFixtures.scenario(ScenarioSweep.text($0), named: ScenarioSweep.name($0), in: folder)
        }
    }

    @Test("No step beats the limit on a built-in scenario")
    func noStepBeatsLimitOnBuiltIns() throws {
        for step in Step.allCases {
            for scenario in Scenarios.all {
                try Self.expectWithinLimit(SharedRuns.shared.result(step, scenario))
            }
        }
    }

    @Test("No step beats the limit on a generated scenario of each family")
    func noStepBeatsLimitOnGenerated() throws {
        let folder = try StepFixtures.folder("limit-sweep")
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in try Self.generatedScenarios(in: folder) {
            for step in Step.allCases { try Self.expectWithinLimit(step.run(path)) }
        }
    }

    @Test("A launch screen left before its posters could arrive counts as a stop no client fills")
    func launchScreenLeftEarlyIsUnfillable() throws {
        // slow-reuse flings away one second after launch, with 800 ms round trips at 150 KB/s.
        let run = try SharedRuns.shared.result(.idleOnly, "slow-reuse")
        #expect(run.limit.stopsUnfilled >= 1)
        #expect(run.limit.timesToVisibleMicroseconds.first == 1_000_000)
        #expect(run.limit.placeholderRowMicroseconds > 0)
    }

    @Test("Belady's MIN allows at least the hits of the step's own cache, and more where LRU loses some")
    func beladyAllowsAtLeastTheStepsHits() throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, "course")
        let most = try #require(run.limit.memoryCacheHits)
        #expect(most >= run.metrics.memoryCacheHits)
        #expect(most > 0)
        #expect(try SharedRuns.shared.result(.idleOnly, "course").limit.memoryCacheHits == nil)
    }

    /// Checks each of the limit's bounds against what the run measured.
    static func expectWithinLimit(_ run: RunResult) {
        let limit = run.limit
        let measured = run.metrics
        let context = Comment(rawValue: "\(run.step) on \(run.scenario)")
        // The same stops, each waited for at least as long as the limit's.
        #expect(measured.timesToVisibleMicroseconds.count == limit.timesToVisibleMicroseconds.count, context)
        for (wait, bound) in zip(
            measured.timesToVisibleMicroseconds.sorted(), limit.timesToVisibleMicroseconds.sorted())
        {
            #expect(wait >= bound, context)
        }
        #expect(measured.stopsUnfilled >= limit.stopsUnfilled, context)
        // A main thread that hangs shows no placeholder while it hangs: step 1 beats the grey rows by freezing.
        if measured.hangs == 0 {
            #expect(measured.placeholderRowMicroseconds >= limit.placeholderRowMicroseconds, context)
        }
        // The byte bounds are for a client that shows every stop's posters.
        if measured.stopsUnfilled == 0 && measured.requestsFailed == 0 {
            #expect(measured.requestsStarted >= limit.requestsStarted, context)
            #expect(measured.bytesDownloaded >= limit.bytesDownloaded, context)
            #expect(measured.bytesWasted >= limit.bytesWasted, context)
        }
        if let most = limit.memoryCacheHits {
            #expect(measured.memoryCacheHits <= most, context)
        }
    }
}

/// The limit's clairvoyant plan, replayed on the phone: a client too, so within every bound, and as good
/// as its schedule promises.
extension LessonTests {
    static func play(_ scenario: String) throws -> RunResult {
        var options = RunOptions()
        options.scenario = scenario
        return try Workbook.run(step: "plan", options: options, keepTrace: true) { _ in ClairvoyantClient() }
    }

    @Test(
        "The plan stays within every bound on every built-in scenario, and without faults asks for each poster once"
    )
    func planStaysWithinBoundsOnBuiltIns() throws {
        // Each built-in scenario is played once for both judgements.
        for scenario in Scenarios.all {
            let run = try Self.play(scenario)
            LessonTests.expectWithinLimit(run)
            guard Scenarios.faultless.contains(scenario) else { continue }
            #expect(run.metrics.duplicateDownloads == 0, "on \(scenario)")
            #expect(run.metrics.requestsCancelled == 0, "on \(scenario)")
            let started = run.trace.compactMap { event -> String? in
                if case .requestStart(let url, _) = event.kind { return url }
                return nil
            }
            #expect(Set(started).count == started.count, "on \(scenario)")
        }
    }

    @Test("On a generated scenario of every family the plan stays within every bound")
    func planStaysWithinBoundsOnGenerated() throws {
        let folder = try StepFixtures.folder("plan-sweep")
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in try Self.generatedScenarios(in: folder) {
            let run = try Self.play(path)
            LessonTests.expectWithinLimit(run)
        }
    }

}
