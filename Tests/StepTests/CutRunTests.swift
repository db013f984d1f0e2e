import Foundation
import Scenarios
import Shared
import TestSupport
import Testing

/// A run that reaches its time limit with the app still working: it says it was cut, and main-thread work
/// under way then counts up to the cut, so a step blocked in a download is not reported as idle.
@Suite struct CutRunTests {
    /// A link so slow that no poster arrives before the time limit.
    static let crawlingLink = """
        rows 20
        seed 7
        network rtt=100ms jitter=0ms bandwidth=500B/s connections=6
        wait 1s
        """

    @Test(
        "Every step on a link no poster crosses before the time limit says the run was cut",
        arguments: Step.allCases)
    func everyStepSaysItWasCut(step: Step) throws {
        let folder = try StepFixtures.folder("cut-run")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try step.run(StepFixtures.scenario(Self.crawlingLink, named: "crawl", in: folder))
        #expect(result.notices.contains { $0.contains("the run was cut") }, "\(result.notices)")
        #expect(result.virtualMicroseconds >= GestureTimeline.settleAllowance)
    }

    @Test("Step 1, blocked in a download at the cut, stalled the main thread until then")
    func theStallUnderWayAtTheCutCounts() throws {
        let folder = try StepFixtures.folder("cut-run")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Step.naive.run(StepFixtures.scenario(Self.crawlingLink, named: "crawl", in: folder))
        let limitMilliseconds = Double(GestureTimeline.settleAllowance) / 1000
        #expect(result.metric("longest_main_thread_stall_ms") >= limitMilliseconds)
        #expect(result.metric("main_thread_busy_ms") >= limitMilliseconds)
        #expect(result.metric("hangs") >= 1)
    }

    @Test("A run that finishes its work in time says nothing of a cut")
    func aQuietRunIsNotCut() throws {
        let result = try SharedRuns.shared.result(.cacheAndPrefetch, "course")
        #expect(!result.notices.contains { $0.contains("cut") }, "\(result.notices)")
    }
}
