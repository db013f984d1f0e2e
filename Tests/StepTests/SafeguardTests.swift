import Foundation
import Shared
import TestSupport
import Testing

/// What each safeguard of steps 3 and 4 keeps from the user. `Scripts/check-safeguards` removes the
/// safeguards one at a time from a scratch copy and expects the test named beside each to fail.
extension LessonTests {
    /// The poster that rows 13 and 15 share, in the bundled catalog.
    static let sharedPoster = "p2288974656.png"

    /// The rows whose poster a URL is, on a scenario's table.
    static func rows(showing url: String, rows count: Int) throws -> [Int] {
        try MovieCatalog.bundled().rows(count).enumerated().filter { $0.element.urlString == url }.map(
            \.offset)
    }

    /// Every `request_start` of a run whose row was off screen when it started, as "row@t".
    static func requestsForRowsOffScreen(_ run: RunResult, rows count: Int) throws -> (
        all: Int, off: [String]
    ) {
        let movies = try MovieCatalog.bundled().rows(count)
        var visible: ClosedRange<Int>?
        var all = 0
        var off: [String] = []
        for event in run.trace {
            if event.name == "relaunch" { visible = nil }
            if event.name == "visible_rows", let first = event.number("first"),
                let last = event.number("last")
            {
                visible = first...last
            }
            guard event.name == "request_start", let url = event.text("url"), let visible else { continue }
            all += 1
            let rows = movies.indices.filter { movies[$0].urlString == url }
            if !rows.contains(where: visible.contains) { off.append("\(rows)@\(event.time)") }
        }
        return (all, off)
    }

    @Test("Step 4 never shows a reused cell the poster of the row it showed before")
    func stepFourKeepsLatePostersOutOfReusedCells() throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, "mix-up")
        #expect(run.events("wrong_image").isEmpty)
        #expect(run.metric("wrong_image_events") == 0)
        // Not vacuous: the shared poster was still on its way when row 15 left the screen, and row 13
        // (still on screen) got it.
        let shared = run.events("request_end").filter { $0.text("url")?.hasSuffix(Self.sharedPoster) == true }
        let rowFifteenLeft = run.events("visible_rows").first {
            ($0.number("last") ?? 99) < 15 && $0.time > 5_000_000
        }
        #expect(shared.count == 1)
        #expect(rowFifteenLeft != nil)
        if let arrived = shared.first?.time, let left = rowFifteenLeft?.time { #expect(left < arrived) }
        #expect(
            run.events("cell_image").contains {
                $0.number("row") == 13 && $0.text("url")?.hasSuffix(Self.sharedPoster) == true
            })
    }

    @Test("Step 4 downloads a poster that two rows share once")
    func stepFourDownloadsASharedPosterOnce() throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, "mix-up")
        let url = try #require(
            MovieCatalog.bundled().rows(60).first { $0.urlString.hasSuffix(Self.sharedPoster) }?.urlString)
        #expect(try Self.rows(showing: url, rows: 60) == [13, 15])
        let downloads = run.events("request_end").filter {
            $0.text("url") == url && $0.number("status") == 200
        }
        #expect(downloads.count == 1)
        #expect(run.metric("duplicate_downloads") == 0)
    }

    @Test(
        "After a memory warning, steps 4 and 5 hold no more image memory than the posters on screen",
        arguments: [Step.cacheAndPrefetch, .concurrency])
    func letsGoOfMemoryOnWarning(step: Step) throws {
        let run = try SharedRuns.shared.result(step, "course")
        let handled = run.events("memory_warning_handled")
        #expect(handled.count == 1)
        // At most one screen of 180×270 posters stays: the rows on screen keep theirs.
        let screen = 9 * 180 * 270 * 4
        for event in handled {
            let before = try #require(event.number("image_bytes_before"))
            let after = try #require(event.number("image_bytes_after"))
            #expect(before > screen, "the warning came with more than a screen held, or this test is vacuous")
            #expect(after <= screen, "more than a screen of posters held after the warning")
        }
    }

    @Test("Step 4's image memory stays under its cache's limit plus one screen on long flings")
    func stepFourStaysUnderItsCacheBound() throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, "long-fling")
        let screen = 9 * 180 * 270 * 4
        #expect(run.metric("peak_image_memory_bytes") <= Double(5_000_000 + screen))
        // Not vacuous: step 3, which keeps every poster, goes over that bound on the same scenario.
        let idleOnly = try SharedRuns.shared.result(.idleOnly, "long-fling")
        #expect(idleOnly.metric("peak_image_memory_bytes") > Double(5_000_000 + screen))
    }

    @Test("Two posters whose URLs end in the same file name both come from disk after a relaunch")
    func stepFourKeepsSameNamedPostersApart() throws {
        let movies = try MovieCatalog.bundled().rows(40)
        let twins = [24, 27].map { movies[$0].urlString }
        #expect(twins[0] != twins[1])
        let names: [String] = twins.map { url in url.split(separator: "/").last.map(String.init) ?? "" }
        #expect(!names[0].isEmpty && names[0] == names[1], "the twins end in \(names)")
        let folder = try StepFixtures.folder("twins")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try StepFixtures.scenario(
            "rows 40\nwait 2s\ndrag to row 22 over 1s\nwait 5s\nrelaunch\nwait 1s\ndrag to row 22 over 1s\nwait 3s\n",
            named: "twins", in: folder)
        let run = try Step.cacheAndPrefetch.run(scenario)
        var relaunched = false
        var before: [String] = []
        var after: [String] = []
        for event in run.trace {
            if event.name == "relaunch" { relaunched = true }
            guard event.name == "request_start", let url = event.text("url"), twins.contains(url) else {
                continue
            }
            if relaunched { after.append(url) } else { before.append(url) }
        }
        #expect(before.sorted() == twins.sorted(), "both posters were downloaded once before the relaunch")
        #expect(after.isEmpty, "downloaded again after the relaunch: \(after)")
    }

    @Test("Step 3 never reloads a row for a download that was cancelled")
    func stepThreeIgnoresCancelledCompletions() throws {
        let run = try SharedRuns.shared.result(.idleOnly, "slow-reuse")
        #expect(run.events("late_completion").isEmpty)
        // Not vacuous: downloads were cancelled on this scenario.
        #expect(run.metric("operations_cancelled") > 0)
    }

    @Test(
        "Step 3 never downloads a poster for a row that has left the screen")
    func stepThreeCancelsOffScreenWork() throws {
        for scenario in ["course", "long-fling"] {
            let run = try SharedRuns.shared.result(.idleOnly, scenario)
            let rows = try ScenarioParser.load(scenario).rows
            let requests = try Self.requestsForRowsOffScreen(run, rows: rows)
            #expect(requests.all > 0, "\(scenario)")
            #expect(requests.off.isEmpty, "\(scenario): rows requested while off screen: \(requests.off)")
        }
    }
}
