import Foundation
import Shared
import TestSupport
import Testing

/// Each step's improvement over the previous one, measured on several built-in scenarios.
extension LessonTests {
    @Test("Step 1 stutters on course, long-fling and reading: its hitch time ratio is in Apple's worst band")
    func stepOneStutters() throws {
        for scenario in ["course", "long-fling", "reading"] {
            let run = try SharedRuns.shared.result(.naive, scenario)
            #expect(run.metric("hitch_time_ratio_ms_per_s") > 50, "on \(scenario)")
            #expect(run.metric("hitches") > 0, "on \(scenario)")
            #expect(
                HitchBand(ratio: run.metric("hitch_time_ratio_ms_per_s")) == .immediateAttention,
                "on \(scenario)")
        }
    }

    @Test("Steps 2 to 4 scroll smoothly on every built-in scenario")
    func stepsTwoToFourScrollSmoothly() throws {
        for step in [Step.background, .idleOnly, .cacheAndPrefetch] {
            for scenario in Scenarios.all {
                let run = try SharedRuns.shared.result(step, scenario)
                #expect(run.metric("hitch_time_ratio_ms_per_s") <= 5, "\(step) on \(scenario)")
            }
        }
    }

    @Test(
        "Step 2 takes at least ninety per cent of the work off the main thread on course, long-fling and reading"
    )
    func stepTwoTakesWorkOffMain() throws {
        for scenario in ["course", "long-fling", "reading"] {
            let naive = try SharedRuns.shared.result(.naive, scenario)
            let background = try SharedRuns.shared.result(.background, scenario)
            #expect(
                background.metric("main_thread_busy_ms") * 10 <= naive.metric("main_thread_busy_ms"),
                "on \(scenario)")
        }
    }

    @Test("Step 1 downloads a row again every time it comes back on screen")
    func stepOneDownloadsAgain() throws {
        let run = try SharedRuns.shared.result(.naive, "course")
        #expect(run.metric("duplicate_downloads") > 0)
    }

    @Test("Step 2, unlike step 3, starts requests while the table scrolls")
    func stepTwoStartsWhileScrolling() throws {
        let run = try SharedRuns.shared.result(.background, "course")
        var state = TraceEvent.ScrollState.idle
        var requestsWhileScrolling = 0
        for event in run.trace {
            if let scrollState = event.scrollState { state = scrollState }
            if event.name == "request_start", state != .idle { requestsWhileScrolling += 1 }
        }
        #expect(requestsWhileScrolling > 0)
    }

    @Test("Step 3 fetches less and fills stops sooner than step 2 after flings")
    func stepThreeFetchesLess() throws {
        for scenario in Scenarios.flings {
            let background = try SharedRuns.shared.result(.background, scenario)
            let idleOnly = try SharedRuns.shared.result(.idleOnly, scenario)
            let context = Comment(rawValue: "on \(scenario)")
            #expect(idleOnly.metric("requests_started") < background.metric("requests_started"), context)
            #expect(idleOnly.metric("bytes_downloaded") < background.metric("bytes_downloaded"), context)
            #expect(
                idleOnly.metric("time_to_visible_ms_p95") < background.metric("time_to_visible_ms_p95"),
                context)
            #expect(idleOnly.metric("operations_cancelled") > 0, context)
        }
    }

    @Test("Step 3 starts no request while the table is dragging or decelerating, on any built-in scenario")
    func stepThreeStartsNothingWhileScrolling() throws {
        for scenario in Scenarios.all {
            try expectNoRequestWhileScrolling(SharedRuns.shared.result(.idleOnly, scenario))
        }
    }

    /// Checks that step 3's run started requests, and none while the table was dragging or decelerating.
    func expectNoRequestWhileScrolling(_ run: RunResult) {
        let context = Comment(rawValue: "on \(run.scenario)")
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
        #expect(requests > 0, context)
        #expect(!run.trace.compactMap(\.scrollState).isEmpty, context)
        #expect(
            requestsWhileScrolling.isEmpty,
            "\(context): requests started while scrolling at \(requestsWhileScrolling)")
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

    @Test("Step 4 serves revisited rows from memory on course and reading")
    func stepFourServesRevisitsFromMemory() throws {
        for scenario in ["course", "reading"] {
            let run = try SharedRuns.shared.result(.cacheAndPrefetch, scenario)
            #expect(run.metric("memory_cache_hits") > 0, "on \(scenario)")
            let idleOnly = try SharedRuns.shared.result(.idleOnly, scenario)
            #expect(idleOnly.metric("memory_cache_hits") == 0, "on \(scenario)")
        }
    }

    @Test("At reading pace, step 4's prefetch fills the typical stop sooner than step 3 and than without it")
    func prefetchFillsStopsSooner() throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, "reading")
        let idleOnly = try AblationBlocks.result(
            "Step3IdleOnly --concurrency \(AblationBlocks.stepFourConcurrency)", scenario: "reading")
        let withoutPrefetch = try AblationBlocks.result(
            "Step4CacheAndPrefetch --without prefetch", scenario: "reading")
        #expect(run.metric("time_to_visible_ms_p50") < idleOnly.metric("time_to_visible_ms_p50"))
        #expect(run.metric("time_to_visible_ms_p50") < withoutPrefetch.metric("time_to_visible_ms_p50"))
    }

    @Test("Step 4 downloads within 1.25 times the oracle on every built-in scenario")
    func stepFourWithinOracle() throws {
        for scenario in Scenarios.all {
            let run = try SharedRuns.shared.result(.cacheAndPrefetch, scenario)
            #expect(run.oracle.bytes > 0, "on \(scenario)")
            #expect(run.metric("bytes_downloaded") <= 1.25 * Double(run.oracle.bytes), "on \(scenario)")
        }
    }

    @Test("At reading pace step 4 downloads within 1.3 times the oracle, prefetch waste included")
    func stepFourAtReadingPace() throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, "reading")
        #expect(run.metric("bytes_downloaded") <= 1.3 * Double(run.oracle.bytes))
        // The rows prefetched past the last stop were never shown: their bytes are wasted.
        #expect(run.metric("bytes_wasted") > 0)
    }

    @Test("On a scenario that stops on more rows than the cache holds, step 3's memory outgrows step 4's")
    func stepThreeMemoryOutgrowsStepFour() throws {
        let idleOnly = try SharedRuns.shared.result(.idleOnly, "long-fling")
        let cached = try SharedRuns.shared.result(.cacheAndPrefetch, "long-fling")
        #expect(idleOnly.metric("peak_image_memory_bytes") > 5_000_000 + 9 * 180 * 270 * 4)
        #expect(idleOnly.metric("peak_image_memory_bytes") > cached.metric("peak_image_memory_bytes"))
    }

    @Test("Step 4's image memory stays bounded on every built-in scenario")
    func stepFourBoundsMemory() throws {
        // Step 4's memory cache holds 5,000,000 bytes; a screen shows at most nine 180×270 posters.
        let screen = 9 * 180 * 270 * 4
        for scenario in Scenarios.all {
            let run = try SharedRuns.shared.result(.cacheAndPrefetch, scenario)
            #expect(run.metric("peak_image_memory_bytes") <= Double(5_000_000 + screen), "on \(scenario)")
        }
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

    /// What each of step 4's techniques buys: the scenario where it shows, and the metric that grows
    /// without it.
    static let stepFourCredits = [
        ("memory-cache", "course", "decodes"),
        ("disk-cache", "relaunch", "requests_started"),
        ("one-load-per-url", "mix-up", "duplicate_downloads"),
        ("cancel-on-reuse", "mix-up", "wrong_image_events"),
        ("prefetch", "reading", "placeholder_row_seconds"),
        ("extra-concurrency", "course", "time_to_visible_ms_p95"),
    ]

    @Test(
        "Each of step 4's techniques buys what the chapter credits it with, and every technique its --without takes is credited, and only those"
    )
    func eachTechniqueEarnsItsPlace() throws {
        for (technique, scenario, key) in Self.stepFourCredits {
            let cached = try SharedRuns.shared.result(.cacheAndPrefetch, scenario)
            let without = try AblationBlocks.result(
                "Step4CacheAndPrefetch --without \(technique)", scenario: scenario)
            #expect(
                without.metric(key) > cached.metric(key),
                "without \(technique), \(key) should grow on \(scenario)")
        }
        #expect(Set(Self.stepFourCredits.map(\.0)) == Set(Step.cacheAndPrefetch.info.techniques))
    }
}
