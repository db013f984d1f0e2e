import Foundation
import Shared
import TestSupport
import Testing

@testable import Step6ImagePipeline

/// Step 6 against step 4 at equal download concurrency (five), and what each of its techniques buys.
@Suite("Step 6: Swift concurrency and the image libraries' techniques")
struct Step6Tests {
    /// The metrics on which step 6 must be no worse than step 4.
    static let noWorseKeys = [
        "time_to_visible_ms_p95", "placeholder_row_seconds", "stops_unfilled", "bytes_downloaded",
        "bytes_wasted", "peak_image_memory_bytes", "main_thread_busy_ms",
    ]

    /// The comparisons with step 4 that do not hold yet, each with its reason (found by running both;
    /// a gap listed here that closes makes its test fail, so the list stays true).
    static let knownGaps: [String: Comment] = [
        "slow-reuse/bytes_downloaded": """
        step 6 brings about twice as many posters to the screen (58 transfers complete against step \
        4's 28), so it moves more bytes; step 4 cancels most of its transfers when the user moves on, \
        as article 004 does. Step 6's waste is the lower of the two
        """,
        "slow-reuse/main_thread_busy_ms": """
        each of the posters step 6 brings and step 4 does not (above) is a hop to the main actor and a \
        cell update
        """,
        "flaky/main_thread_busy_ms": """
        step 6 shows more posters while the table coasts (39 transfers complete against 35, 40 memory \
        cache hits against 32), each a hop to the main actor and a cell update
        """,
    ]

    /// Expects `six` no worse than `four` on a metric, as a known issue when the gap is listed (on a
    /// generated seed, `scenario#seed`, a gap the built-in shows may or may not show).
    static func expectNoWorse(_ six: RunResult, _ four: RunResult, _ key: String, at place: String) {
        let scenario = place.split(separator: "#").first.map(String.init) ?? place
        if let reason = knownGaps["\(scenario)/\(key)"] {
            withKnownIssue(reason, isIntermittent: place.contains("#")) {
                #expect(six.metric(key) <= four.metric(key), "\(key) on \(place)")
            }
        } else {
            #expect(six.metric(key) <= four.metric(key), "\(key) on \(place)")
        }
    }

    /// Seeds for the generated sweep, fixed before looking at any result.
    static let sweepSeeds: [UInt64] = [1, 2, 3]

    @Test(
        "Step 6 is no worse than step 4 on what the user waits for and what the network carries",
        arguments: Scenarios.all)
    func noWorseThanStepFour(scenario: String) throws {
        let four = try SharedRuns.shared.result(.cacheAndPrefetch, scenario)
        let six = try SharedRuns.shared.result(.imagePipeline, scenario)
        for key in Self.noWorseKeys {
            Self.expectNoWorse(six, four, key, at: scenario)
        }
        #expect(six.metric("requests_completed") > 0)
    }

    @Test(
        "Decoding at display size keeps peak image memory at least three times lower than step 4's",
        arguments: Scenarios.all)
    func memoryIsThreeTimesLower(scenario: String) throws {
        let four = try SharedRuns.shared.result(.cacheAndPrefetch, scenario)
        let six = try SharedRuns.shared.result(.imagePipeline, scenario)
        #expect(six.metric("peak_image_memory_bytes") > 0)
        #expect(six.metric("peak_image_memory_bytes") * 3 <= four.metric("peak_image_memory_bytes"))
    }

    /// Scenarios where step 6 downloads more than 1.1 times the oracle's bytes; a scenario that comes
    /// within the bound makes its test fail until it is taken off the list.
    static let overOracle: Set<String> = ["relaunch"]

    @Test("Step 6 downloads at most 1.1 times the oracle's bytes", arguments: Scenarios.all)
    func bytesNearTheOracle(scenario: String) throws {
        let six = try SharedRuns.shared.result(.imagePipeline, scenario)
        let oracle = Double(six.oracle.bytes)
        #expect(oracle > 0)
        if Self.overOracle.contains(scenario) {
            withKnownIssue("the prefetch's guesses past the user's last stop, downloaded and never shown") {
                #expect(six.metric("bytes_downloaded") <= 1.1 * oracle, "\(scenario)")
            }
        } else {
            #expect(six.metric("bytes_downloaded") <= 1.1 * oracle, "\(scenario)")
        }
    }

    @Test("Without decoding at display size, step 6 holds as much image memory as step 4")
    func memoryGainComesFromDisplaySize() throws {
        let four = try SharedRuns.shared.result(.cacheAndPrefetch, "course")
        let fullSize = try Self.run("course", techniques: Techniques.all.subtracting(.decodeAtDisplaySize))
        #expect(fullSize.metric("peak_image_memory_bytes") * 3 > four.metric("peak_image_memory_bytes"))
    }

    @Test("Step 6 never runs completion work for a cancelled task", arguments: Scenarios.all)
    func noLateCompletions(scenario: String) throws {
        let run = try SharedRuns.shared.result(.imagePipeline, scenario)
        #expect(run.metric("late_completions") == 0)
        #expect(run.metric("wrong_image_events") == 0)
    }

    @Test(
        "On generated seeds of the fault-free scenarios, step 6 is no worse than step 4",
        arguments: Scenarios.faultless, sweepSeeds)
    func sweep(scenario: String, seed: UInt64) throws {
        let four = try Step.cacheAndPrefetch.run(scenario, seed: seed)
        let six = try Step.imagePipeline.run(scenario, seed: seed)
        for key in [
            "time_to_visible_ms_p95", "placeholder_row_seconds", "stops_unfilled", "main_thread_busy_ms",
        ] {
            Self.expectNoWorse(six, four, key, at: "\(scenario)#\(seed)")
        }
        #expect(six.metric("peak_image_memory_bytes") * 3 <= four.metric("peak_image_memory_bytes"))
        #expect(six.metric("wrong_image_events") == 0)
        #expect(six.metric("late_completions") == 0)
    }

    @Test(
        "Step 6 ends on the same screens as step 4, compared at the cell's size",
        arguments: Scenarios.faultless)
    func sameFinalScreenAtCellSize(scenario: String) throws {
        let four = try SharedRuns.shared.result(.cacheAndPrefetch, scenario)
        let six = try SharedRuns.shared.result(.imagePipeline, scenario)
        #expect(six.finalScreen.rows.map(\.row) == four.finalScreen.rows.map(\.row))
        #expect(six.finalScreen.rows.map(\.shows) == four.finalScreen.rows.map(\.shows))
        #expect(six.finalScreen.rows.map(\.url) == four.finalScreen.rows.map(\.url))
        var compared = 0
        for (row4, row6) in zip(four.finalScreen.rows, six.finalScreen.rows) {
            guard let full = row4.bitmap, let small = row6.bitmap else { continue }
            // Step 6's poster was decoded smaller: it must not be the full-size one.
            #expect(small.width < full.width)
            let cell4 = full.downsampled(toFit: 56, 76)
            let cell5 = small.downsampled(toFit: 56, 76)
            #expect(cell4.width == cell5.width && cell4.height == cell5.height)
            #expect(
                Self.meanDifference(cell4, cell5) <= Self.sameAtCellSize, "row \(row4.row) on \(scenario)")
            compared += 1
        }
        #expect(compared > 0)
    }

    @Test("At cell size, every other row's poster is told apart from the same poster decoded smaller")
    func cellSizeComparisonCatchesAWrongPoster() throws {
        let four = try SharedRuns.shared.result(.cacheAndPrefetch, "course")
        let six = try SharedRuns.shared.result(.imagePipeline, "course")
        let full = four.finalScreen.rows.compactMap(\.bitmap).map { $0.downsampled(toFit: 56, 76) }
        let small = six.finalScreen.rows.compactMap(\.bitmap).map { $0.downsampled(toFit: 56, 76) }
        try #require(full.count >= 2 && full.count == small.count)
        for (i, poster) in full.enumerated() {
            for (j, other) in small.enumerated() where i != j && poster.width == other.width {
                #expect(Self.meanDifference(poster, other) > Self.sameAtCellSize, "rows \(i) and \(j)")
            }
        }
    }

    @Test("The work runs on the phone's threads: decodes and filters on the cooperative pool, never on main")
    func workRunsOnThePool() throws {
        let run = try SharedRuns.shared.result(.imagePipeline, "course")
        let threads = Set((run.events("decode") + run.events("filter")).compactMap { $0.text("thread") })
        #expect(!threads.isEmpty)
        #expect(threads.allSatisfy { $0.hasPrefix("cooperative-pool-") })
    }

    @Test("Step 6's sources promise no Sendable the compiler cannot check")
    func noUncheckedSendable() throws {
        let files = try Self.sources(in: "Step6ImagePipeline")
        #expect(files.count >= 8)
        for (file, text) in files {
            #expect(!text.contains("@unchecked"), "\(file)")
            #expect(!text.contains("nonisolated(unsafe)"), "\(file)")
        }
    }

    @Test(
        "Every step starts each task on the phone's pool, never detaches or sleeps a task, and tells its actors things in order"
    )
    func tasksKeepTheirExecutorAndOrder() throws {
        // Every step folder, so that a step a teacher copies from step 6 is held to the same rules.
        let files = try Step.allCases.flatMap { step in
            try Self.sources(in: step.rawValue).map { ("\(step.rawValue)/\($0.name)", $0.text) }
        }
        #expect(files.contains { $0.0.hasPrefix("Step6ImagePipeline/") })
        // A task with no executor preference runs on Swift's global executor, outside the simulation.
        let bareTask = try Regex(#"\bTask\s*(\{|\((?!executorPreference:))"#)
        // A task whose body only hops into the actor: two of them reach it in no order. Allowed only for
        // what commutes: a row's `leave` names its own waiter, and reads what it depends on when it
        // arrives (a mailbox's `take(upTo:)` brings numbered messages in order); step 5's `loadCancelled`
        // carries the number of the load it means, and its `loadImage` is a load's own work, started
        // once per load.
        let bareHop = try Regex(
            #"Task\(executorPreference:[^)]*\)\s*\{\s*(try\s+)?await self\.(?!take\(upTo:|leave\(|loadCancelled\(|loadImage\()"#
        )
        var tasks = 0
        for (file, text) in files {
            let code = Self.code(text)
            tasks += code.matches(of: try Regex(#"\bTask\s*\("#)).count
            #expect(code.matches(of: bareTask).count == 0, "\(file): a Task without an executor preference")
            #expect(!code.contains("Task.detached"), "\(file)")
            #expect(!code.contains("Task.sleep"), "\(file): sleep on the phone's clock")
            #expect(code.matches(of: bareHop).count == 0, "\(file): a bare hop into the actor")
        }
        #expect(tasks >= 5, "the lint found step 6's tasks")
    }

    @Test(
        "Shared's concurrency layer, and the pictures and memo every phone shares, give a reason for each unchecked Sendable"
    )
    func uncheckedSendableHasAReason() throws {
        var unchecked = 0
        for folder in ["Concurrency", "Posters", "UI"] {
            for (file, text) in try Self.sources(in: folder) {
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                for (index, line) in lines.enumerated() where Self.code(line).contains("@unchecked Sendable")
                {
                    unchecked += 1
                    let above = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                    #expect(
                        above.hasPrefix("/// Unchecked Sendable: ") && above.count > 40,
                        "\(folder)/\(file):\(index + 1) needs a one-line `/// Unchecked Sendable: <reason>` above it"
                    )
                }
            }
        }
        #expect(unchecked > 0, "the lint found the layer's unchecked conformances")
    }

    /// The Swift files of a folder under `Sources`, by name, with their text.
    static func sources(in folder: String) throws -> [(name: String, text: String)] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/\(folder)")
        return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".swift") }
            .sorted().map { ($0, try String(contentsOf: url.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// Source text without its comments (whole comment lines, and a `//` comment after code).
    static func code(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("//") { return "" }
            return line.range(of: " // ").map { String(line[..<$0.lowerBound]) } ?? String(line)
        }.joined(separator: "\n")
    }

    // MARK: Helpers

    @Test("Rows a slow drag brings on screen load before the table stops, with no byte wasted on them")
    func slowDragsLoadOnTheWay() throws {
        let shipped = try Self.run("reading", techniques: .all)
        let held = try Self.run("reading", techniques: Techniques.all.subtracting(.slowDragLoading))
        // Every scroll of `reading` is a slow drag: with the technique, requests start during them.
        #expect(Self.startsWhileScrolling(shipped).contains { $0.starts > 0 })
        #expect(Self.startsWhileScrolling(held).allSatisfy { $0.starts == 0 })
        #expect(shipped.metric("placeholder_row_seconds") < held.metric("placeholder_row_seconds"))
        #expect(shipped.metric("bytes_wasted") <= held.metric("bytes_wasted"))
        // A fling is not a slow drag: without loading at its target, its rows wait for the stop.
        let fling = try Self.run("long-fling", techniques: Techniques.all.subtracting(.loadAtTarget))
        #expect(Self.startsWhileScrolling(fling).allSatisfy { $0.starts == 0 })
    }

    @Test(
        "At a fling's lift, only the rows near where the table will stop start loading, and they fill sooner")
    func flingsLoadAtTheirTarget() throws {
        let shipped = try Self.run("long-fling", techniques: .all)
        let waiting = try Self.run("long-fling", techniques: Techniques.all.subtracting(.loadAtTarget))
        let movies = try MovieCatalog.bundled().rows(try ScenarioParser.load("long-fling").rows)
        // The rows whose requests started while the table coasted, judged at the rest that ends the coast.
        var coasting = false
        var visible: ClosedRange<Int>?
        var started: [Int] = []
        var judged = 0
        for event in shipped.trace {
            if let state = event.scrollState {
                if coasting, state != .decelerating, let visible {
                    // The rows on screen at rest, and the couple the table slid past on the way in.
                    let near = (visible.lowerBound - 3)...(visible.upperBound + 3)
                    #expect(started.allSatisfy(near.contains), "rows \(started) for a stop on \(visible)")
                    judged += started.count
                    started = []
                }
                coasting = state == .decelerating
            }
            if event.name == "visible_rows", let first = event.number("first"),
                let last = event.number("last")
            {
                visible = first...last
            }
            if coasting, event.name == "request_start", let url = event.text("url") {
                started += movies.indices.filter { movies[$0].urlString == url }
            }
        }
        #expect(judged > 0, "no request started while the table coasted")
        #expect(Self.startsWhileScrolling(waiting).allSatisfy { $0.starts == 0 })
        #expect(shipped.metric("placeholder_row_seconds") < waiting.metric("placeholder_row_seconds"))
        #expect(shipped.metric("time_to_visible_ms_p95") <= waiting.metric("time_to_visible_ms_p95"))
    }

    /// For each stretch from a touch-down to the table's rest, how long it lasted and how many requests
    /// started inside it.
    static func startsWhileScrolling(_ run: RunResult) -> [(seconds: Double, starts: Int)] {
        var stretches: [(start: Int64, end: Int64)] = []
        var movingSince: Int64?
        for event in run.trace {
            guard let state = event.scrollState else { continue }
            let idle = state == .idle
            if idle, let start = movingSince {
                stretches.append((start, event.time))
                movingSince = nil
            } else if !idle, movingSince == nil {
                movingSince = event.time
            }
        }
        let starts = run.events("request_start").map(\.time)
        return stretches.map { stretch in
            (
                Double(stretch.end - stretch.start) / 1_000_000,
                starts.filter { $0 > stretch.start && $0 < stretch.end }.count
            )
        }
    }

    /// Plays step 6 with only some techniques.
    static func run(_ scenario: String, techniques: Techniques, seed: UInt64? = nil) throws -> RunResult {
        var options = RunOptions()
        options.scenario = scenario
        options.seed = seed
        return try Workbook.run(step: "Step6ImagePipeline", options: options, keepTrace: true) { options in
            Step6ImagePipeline.StepInfo.makeApp(options, techniques: techniques)
        }
    }

    /// The most two cell-size thumbnails of one poster may differ (mean per channel, of 255): decoding
    /// at display size then scaling again rounds differently from scaling the full poster once.
    static let sameAtCellSize = 6.0

    /// The mean difference of the channels of two bitmaps of one size (0 to 255).
    static func meanDifference(_ first: Bitmap, _ second: Bitmap) -> Double {
        let total = zip(first.rgba, second.rgba).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(max(1, first.rgba.count))
    }
}
