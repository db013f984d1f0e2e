import Foundation
import Shared
import TestSupport
import Testing

@testable import Step2Background
@testable import Step3IdleOnly
@testable import Step4CacheAndPrefetch

/// What a run leaves behind: at the end of a run that finished its work (no cut), the in-progress maps
/// of steps 2 to 4 are empty, since every operation that ended took its row out. A leaked entry changes
/// no figure of the run (the row's picture is already shown), so only these tests see it. (`Course check
/// 2.5` runs step 2's against the student's `startDownloadForRecord`.)
@Suite("At the end of a run that finished its work, the in-progress maps are empty")
struct EndOfRunTests {
    /// A short run on a quick link: a launch, a drag that brings new rows, a fling and a fling back, and
    /// time for every download and filtration to end. Row 11's poster was removed (a 404), so a failed
    /// download ends too.
    static let scenario = """
        rows 40
        seed 7
        network rtt=20ms jitter=5ms bandwidth=2MB/s connections=6 timeout=10s
        wait 1s
        drag to row 6 over 0.5s
        wait 1s
        fling to row 30
        wait 1s
        fling to row 8
        wait 2s
        """

    /// Plays `step` on `scenario` (or on the built-in scenario named `builtIn`) and returns the app of the
    /// last launch; the run must have finished its work (not cut at its time limit) after downloading
    /// posters, and on `scenario` after failing to download one.
    static func play(_ step: Step, builtIn: String? = nil) throws -> TableViewController {
        let folder = try StepFixtures.folder("end-of-run")
        defer { try? FileManager.default.removeItem(at: folder) }
        let apps = Apps()
        var options = RunOptions()
        options.scenario =
            try builtIn ?? StepFixtures.scenario(Self.scenario, named: "end-of-run", in: folder)
        let result = try Workbook.run(step: step.rawValue, options: options) { options in
            let app = step.makeApp(options)
            apps.last = app
            return app
        }
        try #require(result.notices.isEmpty, "the run must finish its work: \(result.notices)")
        try #require(
            result.metrics.requestsCompleted > 0 && (builtIn != nil || result.metrics.requestsFailed > 0))
        return try #require(apps.last)
    }

    /// What a map still holds at the end, in words; nil when it is empty.
    static func leak(_ count: Int, in map: String) -> String? {
        count == 0 ? nil : "\(count) entr\(count == 1 ? "y" : "ies") left in \(map)"
    }

    /// The leaks of step 2's or step 3's two maps, keyed by row.
    static func leaks(downloads: Int, filtrations: Int) -> [String] {
        [
            leak(downloads, in: "downloadsInProgress at the end: a finished download must remove its row"),
            leak(
                filtrations, in: "filtrationsInProgress at the end: a finished filtration must remove its row"
            ),
        ].compactMap { $0 }
    }

    /// Records each leak as an issue of its own, so that its words are the line `Course check` shows.
    static func record(_ leaks: [String]) {
        for leak in leaks { Issue.record(Comment(rawValue: leak)) }
    }

    @Test("Step 2 leaves no row in downloadsInProgress or filtrationsInProgress")
    func stepTwoLeavesNothing() throws {
        let app = try Self.play(.background)
        let list = try #require(app as? Step2Background.ListViewController)
        let operations = list.movieOperations
        Self.record(
            Self.leaks(
                downloads: operations.downloadsInProgress.count,
                filtrations: operations.filtrationsInProgress.count))
    }

    @Test("Step 3 leaves no row in downloadsInProgress or filtrationsInProgress")
    func stepThreeLeavesNothing() throws {
        let app = try Self.play(.idleOnly)
        let list = try #require(app as? Step3IdleOnly.ListViewController)
        let operations = list.movieOperations
        Self.record(
            Self.leaks(
                downloads: operations.downloadsInProgress.count,
                filtrations: operations.filtrationsInProgress.count))
    }

    /// On mix-up, two rows wait for one poster and the cell of one is reused before it arrives: the load
    /// skipped for the reused cell must not keep the URL's entry in loadsInProgress.
    @Test(
        "Step 4 leaves no URL in its operations' maps, loadsInProgress or prefetchLoads",
        arguments: [nil, "mix-up"])
    func stepFourLeavesNothing(builtIn: String?) throws {
        let app = try Self.play(.cacheAndPrefetch, builtIn: builtIn)
        let list = try #require(app as? Step4CacheAndPrefetch.ListViewController)
        let leaks = [
            Self.leak(
                list.movieOperations.downloadsInProgress.count,
                in: "downloadsInProgress at the end: a finished download must remove its URL"),
            Self.leak(
                list.movieOperations.filtrationsInProgress.count,
                in: "filtrationsInProgress at the end: a finished filtration must remove its URL"),
            Self.leak(
                list.loadsInProgress.values.joined().count,
                in: "loadsInProgress at the end: a finished or given-up load must be removed"),
            Self.leak(
                list.prefetchLoads.count, in: "prefetchLoads at the end: a finished prefetch must be removed"),
        ].compactMap { $0 }
        Self.record(leaks)
    }
}

/// What a run cut at its time limit left in the app's queues: each operation, traced with its queue and
/// whether it ran or waited (`Course check` reports them as a leak); a run that finished its work traces
/// none.
@Suite("A run cut at its time limit traces the operations it left in the app's queues")
struct OperationsLeftTests {
    /// A link so slow that no poster arrives before the time limit.
    static let crawlingLink = """
        rows 20
        seed 7
        network rtt=100ms jitter=0ms bandwidth=500B/s connections=6
        wait 1s
        """

    /// The operations a run left, as (operation, queue, state).
    static func left(_ result: RunResult) -> [[String]] {
        result.trace.compactMap { event in
            guard case .operationLeft(let operation, let queue, let state) = event.kind else { return nil }
            return [operation, queue, state]
        }
    }

    @Test("Step 2 cut in its first download leaves that download running and the visible rows' waiting")
    func aCutRunTracesWhatItLeft() throws {
        let folder = try StepFixtures.folder("operations-left")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Step.background.run(
            StepFixtures.scenario(Self.crawlingLink, named: "crawl", in: folder))
        try #require(result.notices.contains { $0.contains("the run was cut") }, "\(result.notices)")
        let left = Self.left(result)
        // One download at a time: the first runs, the other visible rows' downloads wait behind it.
        #expect(left.first == ["ImageDownloader", "Download queue", "running"], "\(left)")
        #expect(left.count > 1, "\(left)")
        #expect(
            left.dropFirst().allSatisfy { $0 == ["ImageDownloader", "Download queue", "waiting"] }, "\(left)")
    }

    @Test("A run that finished its work traces nothing left")
    func aFinishedRunLeavesNothing() throws {
        let folder = try StepFixtures.folder("operations-left")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Step.background.run(
            StepFixtures.scenario(EndOfRunTests.scenario, named: "end-of-run", in: folder))
        try #require(result.notices.isEmpty, "\(result.notices)")
        try #require(result.metrics.requestsCompleted > 0)
        #expect(Self.left(result) == [])
    }
}

/// The app of the last launch, kept by the closure that makes it.
private final class Apps: @unchecked Sendable {
    var last: TableViewController?
}
