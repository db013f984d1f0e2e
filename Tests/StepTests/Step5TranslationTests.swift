import Foundation
import Shared
import Synchronization
import TestSupport
import Testing

@testable import Step5Concurrency

/// Step 5 is step 4 written in Swift concurrency, so it must behave as step 4 does: the same requests,
/// bytes and cache hits on the built-in scenarios and on generated ones (within `tolerance`), and never
/// a wrong picture or a late completion. Its five-at-once queue must hold under cancellation, on real
/// threads.
@Suite("Step 5 is step 4 in Swift concurrency") struct Step5TranslationTests {
    /// The counts compared, and how far step 5's may be from step 4's: 5 % of step 4's figure, or 2,
    /// whichever is more. A row's task reaches the download line through the cooperative pool and the
    /// actor, so at a stop the same downloads may start in another order, and on a slow link another
    /// poster finishes before the next drag (sweep case 0: 2 memory hits fewer, 4 % more bytes, the most
    /// found on the built-ins and 24 sweep cases); anything more is a change of behaviour.
    static let compared = ["requests_started", "bytes_downloaded", "memory_cache_hits", "disk_cache_hits"]
    static let tolerance = (fraction: 0.05, count: 2.0)

    /// The generated cases: one of each sweep family, the first six of `Compare --sweep`.
    static let sweepCases = Array(0..<ScenarioSweep.families.count)

    /// Every scenario compared: the built-ins by name, the sweep's cases as `sweep-N`.
    static let scenarios = Scenarios.all + sweepCases.map { "sweep-\($0)" }

    /// Step 4's and step 5's runs on one scenario.
    static func runs(_ scenario: String) throws -> (four: RunResult, five: RunResult) {
        guard scenario.hasPrefix("sweep-"), let n = Int(scenario.dropFirst(6)) else {
            return (
                try SharedRuns.shared.result(.cacheAndPrefetch, scenario),
                try SharedRuns.shared.result(.concurrency, scenario)
            )
        }
        let folder = try StepFixtures.folder("translation")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try StepFixtures.scenario(ScenarioSweep.text(n), named: ScenarioSweep.name(n), in: folder)
        return (try Step.cacheAndPrefetch.run(path), try Step.concurrency.run(path))
    }

    /// Whether step 5's figure is within the tolerance of step 4's.
    static func isClose(_ five: Double, to four: Double) -> Bool {
        abs(five - four) <= max(tolerance.count, tolerance.fraction * four)
    }

    @Test(
        "Step 5 makes step 4's requests, bytes and cache hits, and never shows a wrong picture or a late one",
        arguments: scenarios)
    func stepFiveMatchesStepFour(scenario: String) throws {
        let (four, five) = try Self.runs(scenario)
        for key in Self.compared {
            #expect(
                Self.isClose(five.metric(key), to: four.metric(key)),
                "\(scenario): \(key) is \(five.metric(key)) in step 5, \(four.metric(key)) in step 4")
        }
        // A download retried after a failure counts as a duplicate, in step 4 as here.
        #expect(five.metric("duplicate_downloads") <= four.metric("duplicate_downloads"), "\(scenario)")
        #expect(five.metric("wrong_image_events") == 0, "\(scenario)")
        #expect(five.metric("late_completions") == 0, "\(scenario)")
    }

    @Test(
        "The comparison fails a step 5 with a technique turned off: duplicates, wrong pictures, late ones",
        arguments: [
            ("one-load-per-url", "duplicate_downloads"), ("cancel-on-reuse", "wrong_image_events"),
            ("cancel-on-reuse", "late_completions"),
        ])
    func comparisonCatchesATechniqueTurnedOff(technique: String, key: String) throws {
        var options = try OptionsParser.parse(
            ["--without", technique], techniques: Step.concurrency.info.techniques)
        options.scenario = "mix-up"
        let changed = try Workbook.run(
            step: Step.concurrency.rawValue, options: options, makeApp: Step.concurrency.makeApp)
        #expect(changed.metric(key) > 0)
    }

    /// Runs `count` tasks through a queue of `width`, cancelling every third at once and every fifth
    /// after a while, and reports the most that ran at once and what each task saw.
    static func exercise(width: Int, count: Int, suspended: Bool) async -> (
        most: Int, ran: Int, cancelled: Int
    ) {
        let queue = TaskQueue(maxConcurrentOperationCount: width)
        queue.isSuspended = suspended
        let counts = Counts()
        let tasks = (0..<count).map { index in
            Task(priority: index % 2 == 0 ? .low : .medium) { () -> Bool in
                do {
                    try await queue.run {
                        counts.state.withLock {
                            $0.running += 1; $0.most = max($0.most, $0.running)
                        }
                        try? await Task.sleep(for: .milliseconds(2))
                        counts.state.withLock { $0.running -= 1 }
                    }
                    return true
                } catch {
                    return false
                }
            }
        }
        for (index, task) in tasks.enumerated() where index % 3 == 0 { task.cancel() }
        try? await Task.sleep(for: .milliseconds(5))
        for (index, task) in tasks.enumerated() where index % 5 == 0 { task.cancel() }
        queue.isSuspended = false
        var ran = 0
        var cancelled = 0
        for task in tasks {
            if await task.value { ran += 1 } else { cancelled += 1 }
        }
        return (counts.state.withLock { $0.most }, ran, cancelled)
    }

    @Test(
        "The task queue runs at most its width at once, lets a cancelled waiter go at once and loses no turn",
        arguments: [(2, false), (5, false), (3, true)])
    func taskQueueHoldsUnderCancellation(width: Int, suspended: Bool) async throws {
        for _ in 0..<20 {
            let outcome = await Self.exercise(width: width, count: 40, suspended: suspended)
            #expect(outcome.most <= width)
            #expect(outcome.ran + outcome.cancelled == 40)
            // While suspended, nothing runs before the cancellations: the 19 cancelled tasks (every third,
            // and five more of every fifth) leave the line, the other 21 run. Otherwise a cancelled task
            // may have had its turn already.
            if suspended {
                #expect(outcome.cancelled == 19 && outcome.ran == 21)
            } else {
                #expect(outcome.cancelled <= 19)
            }
        }
        // No turn was lost: a fresh task gets through a queue that just ran all that.
        let queue = TaskQueue(maxConcurrentOperationCount: 1)
        for _ in 0..<3 {
            let cancelled = Task { try await queue.run { try await Task.sleep(for: .seconds(60)) } }
            try? await Task.sleep(for: .milliseconds(1))
            cancelled.cancel()
            _ = await cancelled.result
        }
        let value = try await queue.run { 42 }
        #expect(value == 42)
    }
}

/// How many tasks run a queue's stage now, and the most at once.
private final class Counts: Sendable {
    let state = Mutex((running: 0, most: 0))
}

extension Step5TranslationTests {
    /// The body of a `translation` block (`<!-- workbook: translation : KEY … -->`): a row per built-in
    /// scenario, each metric as step 4's figure, then step 5's.
    static func table(keys: [String]) throws -> String {
        var lines = ["| scenario | " + keys.map { "`\($0)` 4 / 5" }.joined(separator: " | ") + " |"]
        lines.append("|---|" + keys.map { _ in "---:|" }.joined())
        for scenario in Scenarios.all {
            let (four, five) = try runs(scenario)
            let cells = keys.map { key in
                [four, five].map { run in
                    run.metrics.entries.first { $0.key == key }?.value.formatted ?? "?"
                }.joined(separator: " / ")
            }
            lines.append("| \(scenario) | " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}
