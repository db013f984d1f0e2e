import Foundation
import Shared
import TestSupport
import Testing

/// Each step's improvement over the previous one, measured on several built-in scenarios.
@Suite("The progression from step to step")
struct ProgressionTests {
    @Test(
        "Step 1 stutters: its hitch time ratio is in Apple's worst band",
        arguments: ["course", "long-fling", "reading"])
    func stepOneStutters(scenario: String) throws {
        let run = try SharedRuns.shared.result(.naive, scenario)
        #expect(run.metric("hitch_time_ratio_ms_per_s") > 50)
        #expect(run.metric("hitches") > 0)
        #expect(HitchBand(ratio: run.metric("hitch_time_ratio_ms_per_s")) == .immediateAttention)
    }

    @Test(
        "Steps 2 to 4 scroll smoothly on every built-in scenario",
        arguments: [Step.background, .idleOnly, .cacheAndPrefetch], Scenarios.all)
    func laterStepsAreSmooth(step: Step, scenario: String) throws {
        let run = try SharedRuns.shared.result(step, scenario)
        #expect(run.metric("hitch_time_ratio_ms_per_s") <= 5)
    }

    @Test(
        "Step 2 takes at least ninety per cent of the work off the main thread",
        arguments: ["course", "long-fling", "reading"])
    func stepTwoFreesTheMainThread(scenario: String) throws {
        let naive = try SharedRuns.shared.result(.naive, scenario)
        let background = try SharedRuns.shared.result(.background, scenario)
        #expect(background.metric("main_thread_busy_ms") * 10 <= naive.metric("main_thread_busy_ms"))
    }

    @Test("Step 3 fetches less and fills stops sooner than step 2 after flings", arguments: Scenarios.flings)
    func stepThreeBeatsStepTwoOnFlings(scenario: String) throws {
        let background = try SharedRuns.shared.result(.background, scenario)
        let idleOnly = try SharedRuns.shared.result(.idleOnly, scenario)
        #expect(idleOnly.metric("requests_started") < background.metric("requests_started"))
        #expect(idleOnly.metric("bytes_downloaded") < background.metric("bytes_downloaded"))
        #expect(idleOnly.metric("time_to_visible_ms_p95") < background.metric("time_to_visible_ms_p95"))
        #expect(idleOnly.metric("operations_cancelled") > 0)
    }

    @Test("Step 3 starts no request while the table is dragging or decelerating", arguments: Scenarios.all)
    func stepThreeStartsNothingWhileScrolling(scenario: String) throws {
        let run = try SharedRuns.shared.result(.idleOnly, scenario)
        var state = TraceEvent.ScrollState.idle
        var requestsWhileScrolling: [Int64] = []
        var requests = 0
        for event in run.trace {
            if let scrollState = event.scrollState { state = scrollState }
            if event.name == "relaunch" { state = .idle }
            if event.name == "request_start" {
                requests += 1
                if state != .idle { requestsWhileScrolling.append(event.time) }
            }
        }
        #expect(requests > 0)
        #expect(!run.trace.compactMap(\.scrollState).isEmpty)
        #expect(
            requestsWhileScrolling.isEmpty, "requests started while scrolling at \(requestsWhileScrolling)")
    }

    @Test("Step 2, unlike step 3, starts requests while the table scrolls")
    func stepTwoStartsRequestsWhileScrolling() throws {
        let run = try SharedRuns.shared.result(.background, "course")
        var state = TraceEvent.ScrollState.idle
        var requestsWhileScrolling = 0
        for event in run.trace {
            if let scrollState = event.scrollState { state = scrollState }
            if event.name == "request_start", state != .idle { requestsWhileScrolling += 1 }
        }
        #expect(requestsWhileScrolling > 0)
    }

    @Test("Step 4 never downloads a URL twice in one launch", arguments: Scenarios.all)
    func stepFourHasNoDuplicateDownloads(scenario: String) throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, scenario)
        #expect(run.metric("duplicate_downloads") == 0)
        // Checked from the trace too: no URL completes twice between relaunches.
        var completed: Set<String> = []
        var repeats: [String] = []
        for event in run.trace {
            if event.name == "relaunch" { completed = [] }
            if event.name == "request_end", event.number("status") == 200, let url = event.text("url") {
                if !completed.insert(url).inserted { repeats.append(url) }
            }
        }
        #expect(repeats.isEmpty)
    }

    @Test("Step 1 downloads a row again every time it comes back on screen")
    func stepOneDownloadsAgain() throws {
        let run = try SharedRuns.shared.result(.naive, "course")
        #expect(run.metric("duplicate_downloads") > 0)
    }

    @Test("After a relaunch, step 4 shows rows seen before from disk, with no request")
    func stepFourRelaunchesFromDisk() throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, "relaunch")
        #expect(run.metric("disk_cache_hits") > 0)
        var beforeRelaunch: Set<String> = []
        var afterRelaunchRequests: [String] = []
        var relaunched = false
        for event in run.trace {
            if event.name == "relaunch" { relaunched = true }
            if event.name == "request_end", event.number("status") == 200, let url = event.text("url"),
                !relaunched
            {
                beforeRelaunch.insert(url)
            }
            if event.name == "request_start", relaunched, let url = event.text("url"),
                beforeRelaunch.contains(url)
            {
                afterRelaunchRequests.append(url)
            }
        }
        #expect(relaunched)
        #expect(!beforeRelaunch.isEmpty)
        #expect(afterRelaunchRequests.isEmpty, "re-requested after relaunch: \(afterRelaunchRequests)")
        // Step 3 has no disk cache: it downloads those rows again.
        let idleOnly = try SharedRuns.shared.result(.idleOnly, "relaunch")
        #expect(idleOnly.metric("requests_started") > run.metric("requests_started"))
    }

    @Test("Step 4 serves revisited rows from memory", arguments: ["course", "reading"])
    func stepFourHitsMemory(scenario: String) throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, scenario)
        #expect(run.metric("memory_cache_hits") > 0)
        let idleOnly = try SharedRuns.shared.result(.idleOnly, scenario)
        #expect(idleOnly.metric("memory_cache_hits") == 0)
    }

    @Test("At reading pace, step 4's prefetch fills the typical stop sooner than step 3 and than without it")
    func stepFourPrefetchesAtReadingPace() throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, "reading")
        let idleOnly = try AblationBlocks.result(
            "Step3IdleOnly --concurrency \(AblationBlocks.stepFourConcurrency)", scenario: "reading")
        let withoutPrefetch = try AblationBlocks.result(
            "Step4CacheAndPrefetch --without prefetch", scenario: "reading")
        #expect(run.metric("time_to_visible_ms_p50") < idleOnly.metric("time_to_visible_ms_p50"))
        #expect(run.metric("time_to_visible_ms_p50") < withoutPrefetch.metric("time_to_visible_ms_p50"))
    }

    @Test("Step 4 downloads within 1.25 times the oracle everywhere", arguments: Scenarios.all)
    func stepFourStaysNearTheOracle(scenario: String) throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, scenario)
        #expect(run.oracle.bytes > 0)
        #expect(run.metric("bytes_downloaded") <= 1.25 * Double(run.oracle.bytes))
    }

    @Test("At reading pace step 4 downloads within 1.3 times the oracle, prefetch waste included")
    func stepFourIsFrugalAtReadingPace() throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, "reading")
        #expect(run.metric("bytes_downloaded") <= 1.3 * Double(run.oracle.bytes))
        // The rows prefetched past the last stop were never shown: their bytes are wasted.
        #expect(run.metric("bytes_wasted") > 0)
    }

    @Test(
        "Step 4's image memory stays bounded while step 3's grows with every row shown",
        arguments: Scenarios.all)
    func stepFourBoundsMemory(scenario: String) throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, scenario)
        // Step 4's memory cache holds 5,000,000 bytes; a screen shows at most nine 180×270 posters.
        let screen = 9 * 180 * 270 * 4
        #expect(run.metric("peak_image_memory_bytes") <= Double(5_000_000 + screen))
    }

    @Test("On a scenario that stops on more rows than the cache holds, step 3's memory outgrows step 4's")
    func stepThreeMemoryGrows() throws {
        let idleOnly = try SharedRuns.shared.result(.idleOnly, "long-fling")
        let cached = try SharedRuns.shared.result(.cacheAndPrefetch, "long-fling")
        #expect(idleOnly.metric("peak_image_memory_bytes") > 5_000_000 + 9 * 180 * 270 * 4)
        #expect(idleOnly.metric("peak_image_memory_bytes") > cached.metric("peak_image_memory_bytes"))
    }

    @Test(
        "At equal concurrency step 4 fills stops no later than step 3 and leaves no more unfilled",
        arguments: Scenarios.all)
    func stepFourNoSlowerThanStepThreeAtEqualConcurrency(scenario: String) throws {
        let idleOnly = try AblationBlocks.result(
            "Step3IdleOnly --concurrency \(AblationBlocks.stepFourConcurrency)", scenario: scenario)
        let cached = try SharedRuns.shared.result(.cacheAndPrefetch, scenario)
        #expect(cached.metric("time_to_visible_ms_p95") <= idleOnly.metric("time_to_visible_ms_p95"))
        #expect(cached.metric("stops_unfilled") <= idleOnly.metric("stops_unfilled"))
        #expect(cached.metric("placeholder_row_seconds") <= idleOnly.metric("placeholder_row_seconds"))
    }

    /// Runs `body` as a known issue when `known` (Swift Testing then fails the test once it passes, so a
    /// fix shows), else as an ordinary check.
    static func expectKnown(_ known: Bool, _ why: String, _ body: () throws -> Void) rethrows {
        if known {
            withKnownIssue(Comment(rawValue: why)) { try body() }
        } else {
            try body()
        }
    }

    @Test("Step 4 wastes at most 5 per cent of what it downloads", arguments: Scenarios.all)
    func stepFourWastesLittle(scenario: String) throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, scenario)
        #expect(run.metric("bytes_downloaded") > 0)
        // On `slow-reuse` no step can meet the budget, and on `flaky` the corrupt bodies leave almost
        // none of it: see the test below.
        Self.expectKnown(
            ["flaky", "slow-reuse"].contains(scenario),
            "the first screen's posters (slow-reuse) alone exceed 5 %, and corrupt bodies (flaky) take "
                + "nearly all of it"
        ) {
            #expect(run.metric("bytes_wasted") <= 0.05 * run.metric("bytes_downloaded"))
        }
    }

    @Test(
        "On slow-reuse, bytes no step can show exceed step 4's waste budget; on flaky, nearly all of it")
    func wasteNoStepCanAvoid() throws {
        // flaky: bodies that arrived whole (200) but do not decode. The server corrupted them, so no
        // client can show them; they leave less than a tenth of the budget for anything else.
        let flaky = try SharedRuns.shared.result(.cacheAndPrefetch, "flaky")
        let corrupt = Set(
            flaky.events("decode").filter { $0.flag("ok") == false }.compactMap { $0.text("url") })
        let corruptBytes = flaky.events("request_end")
            .filter { $0.number("status") == 200 && corrupt.contains($0.text("url") ?? "") }
            .compactMap { $0.number("bytes") }.reduce(0, +)
        #expect(Double(corruptBytes) > 0.9 * 0.05 * flaky.metric("bytes_downloaded"))
        // slow-reuse: the launch screen's posters, asked for while the user looks at the first screen,
        // arrive after the first fling has taken it away, and the user never comes back to those rows.
        let slow = try SharedRuns.shared.result(.cacheAndPrefetch, "slow-reuse")
        let firstTouch = try #require(slow.trace.first { $0.scrollState == .dragging }).time
        let shown = Set(
            slow.events("cell_image").filter { $0.text("shows") == "image" }.compactMap { $0.text("url") })
        let launchScreen = Set(
            slow.events("request_start").filter { $0.time < firstTouch }.compactMap { $0.text("url") })
        let lostBytes = slow.events("request_end")
            .filter { launchScreen.contains($0.text("url") ?? "") && !shown.contains($0.text("url") ?? "") }
            .compactMap { $0.number("bytes") }.reduce(0, +)
        #expect(launchScreen.count >= 5)
        #expect(Double(lostBytes) > 0.05 * slow.metric("bytes_downloaded"))
    }

    @Test(
        "On generated scenarios too, step 4 fills stops no later than step 3 at equal concurrency, and wastes little",
        arguments: [101, 202, 303, 404, 505, 606, 707, 808] as [UInt64])
    func stepFourNoSlowerOnGeneratedScenarios(seed: UInt64) throws {
        let folder = try StepFixtures.folder("sweep")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try StepFixtures.scenario(
            Self.generatedScenario(seed: seed), named: "sweep-\(seed)", in: folder)
        var options = RunOptions()
        options.scenario = path
        options.concurrency = AblationBlocks.stepFourConcurrency
        let idleOnly = try Workbook.run(
            step: Step.idleOnly.rawValue, options: options, makeApp: Step.idleOnly.makeApp)
        let cached = try Workbook.run(
            step: Step.cacheAndPrefetch.rawValue, options: options, makeApp: Step.cacheAndPrefetch.makeApp)
        #expect(cached.metric("time_to_visible_ms_p95") <= idleOnly.metric("time_to_visible_ms_p95"))
        #expect(cached.metric("stops_unfilled") <= idleOnly.metric("stops_unfilled"))
        #expect(cached.metric("wrong_image_events") == 0)
        #expect(cached.metric("bytes_downloaded") <= 1.25 * Double(cached.oracle.bytes))
        #expect(cached.metric("placeholder_row_seconds") <= idleOnly.metric("placeholder_row_seconds"))
        #expect(cached.metric("bytes_wasted") <= 0.05 * cached.metric("bytes_downloaded"))
    }

    /// A browsing session drawn from a seed: drags of a few rows and flings, with pauses.
    static func generatedScenario(seed: UInt64) -> String {
        var random = SeededGenerator(seed: seed)
        func next(_ bound: Int) -> Int { random.below(bound) }
        var lines = ["rows 200", "seed \(seed)", "wait 2s"]
        var row = 0
        for _ in 0..<8 {
            if next(3) == 0 {
                row = next(190)
                lines.append("fling to row \(row)")
            } else {
                row = max(0, min(190, row + next(9) - 3))
                lines.append("drag to row \(row) over \(5 + next(10))00ms")
            }
            lines.append("wait \(3 + next(25))00ms")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(
        "Each of step 4's techniques buys what the chapter credits it with",
        arguments: [
            (Technique.memoryCache, "course", "decodes"),
            (.diskCache, "relaunch", "requests_started"),
            (.oneLoadPerURL, "mix-up", "duplicate_downloads"),
            (.cancelOnReuse, "mix-up", "wrong_image_events"),
            (.prefetch, "reading", "placeholder_row_seconds"),
            (.diskWhileScrolling, "long-fling", "placeholder_row_seconds"),
            (.extraConcurrency, "course", "time_to_visible_ms_p95"),
            (.finishStarted, "flaky", "placeholder_row_seconds"),
            (.finishStarted, "slow-reuse", "bytes_wasted"),
            (.resumeDownloads, "flaky", "bytes_wasted"),
        ])
    func eachTechniqueEarnsItsPlace(technique: Technique, scenario: String, worse key: String) throws {
        let cached = try SharedRuns.shared.result(.cacheAndPrefetch, scenario)
        let without = try AblationBlocks.result(
            "Step4CacheAndPrefetch --without \(technique.rawValue)", scenario: scenario)
        #expect(without.metric(key) > cached.metric(key), "without \(technique.rawValue), \(key) should grow")
    }

    @Test(
        "With started work cancelled, the windowed cancel and resumed downloads buy what the chapter credits",
        arguments: [
            (Technique.windowedCancel, "slow-reuse", "placeholder_row_seconds"),
            (.resumeDownloads, "slow-reuse", "bytes_wasted"),
        ])
    func cancelTechniquesEarnTheirPlace(technique: Technique, scenario: String, worse key: String) throws {
        // Letting started work finish leaves a cancel nothing received and nothing under way: these two
        // matter where work is cancelled wherever it is.
        let base = "Step4CacheAndPrefetch --without \(Technique.finishStarted.rawValue)"
        let cancelling = try AblationBlocks.result(base, scenario: scenario)
        let without = try AblationBlocks.result("\(base),\(technique.rawValue)", scenario: scenario)
        #expect(
            without.metric(key) > cancelling.metric(key), "without \(technique.rawValue), \(key) should grow")
    }
}
