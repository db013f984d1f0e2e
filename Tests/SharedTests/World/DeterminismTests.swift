import Foundation
import Shared
import TestSupport
import Testing

@testable import Imaging
@testable import Report
@testable import Runtime
@testable import UI
@testable import World

/// An app in the manner of step 2: each row's poster downloads on a worker, decodes there, and its row
/// reloads on the main thread.
final class LoadingApp: ScriptApp, @unchecked Sendable {
    var posters: [Int: Image] = [:]
    var started: Set<Int> = []
    var queue: OperationQueue!

    override func viewDidLoad() {
        queue = OperationQueue()
        queue.name = "Downloads"
        super.viewDidLoad()
    }

    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = super.tableView(tableView, cellForRowAt: indexPath)
        let row = indexPath.row
        cell.imageView.image = posters[row]
        if posters[row] == nil, !started.contains(row), let url = phone.movies[row].url {
            started.insert(row)
            queue.addOperation {
                guard let data = Network.shared.data(contentsOf: url), let poster = Image(data: data) else {
                    return
                }
                OperationQueue.main.addOperation {
                    self.posters[row] = poster
                    self.tableView.reloadRows(at: [indexPath], with: .fade)
                }
            }
        }
        return cell
    }
}

/// Same scenario and seed, same run; another seed, other network timings.
extension WorldTests {
    static let determinismScenario = testScenario(
        "determinism", rows: 60,
        actions: [
            .wait(microseconds: 800_000), .fling(toRow: 30), .wait(microseconds: 600_000),
            .drag(toRow: 12, microseconds: 800_000), .memoryWarning, .wait(microseconds: 600_000),
        ],
        rtt: 120_000, jitter: 30_000, bandwidth: 1_000_000, connections: 6)

    static func run(seed: UInt64) throws -> RunResult {
        try play(determinismScenario, seed: seed) { LoadingApp(log: Log()) }
    }

    @Test("The same scenario and seed give identical reports and traces, even when run side by side")
    func sameScenarioSameRun() async throws {
        async let first = Self.run(seed: 7)
        async let second = Self.run(seed: 7)
        let (a, b) = try await (first, second)
        let third = try Self.run(seed: 7)
        // Not vacuous: posters were fetched and shown, and the table scrolled.
        #expect(a.metrics.requestsCompleted >= 15)
        #expect(a.events("cell_image").count >= 15)
        #expect(a.trace.compactMap(\.scrollState).count == 5)
        for other in [b, third] {
            #expect(TextReport.render(a) == TextReport.render(other))
            #expect(JSONReport.render(a) == JSONReport.render(other))
            #expect(a.trace.map(\.jsonLine) == other.trace.map(\.jsonLine))
            #expect(a.metrics == other.metrics)
        }
    }

    @Test("Another seed changes the network's timings through jitter")
    func anotherSeedChangesTimings() async throws {
        let seven = try Self.run(seed: 7)
        let eight = try Self.run(seed: 8)
        let endsSeven = seven.events("request_end").map(\.time)
        let endsEight = eight.events("request_end").map(\.time)
        #expect(endsSeven.count >= 15)
        #expect(endsSeven != endsEight)
        // Jitter is below 30 ms: the first request's answer moves, but by less than that.
        let firstStart = try #require(seven.events("request_start").first?.time)
        let firstEndSeven = try #require(endsSeven.first)
        let firstEndEight = try #require(endsEight.first)
        #expect(firstStart == eight.events("request_start").first?.time)
        for end in [firstEndSeven, firstEndEight] {
            #expect(end - firstStart >= 120_000)
        }
        #expect(abs(firstEndSeven - firstEndEight) < 30_000)
        #expect(TextReport.render(seven) != TextReport.render(eight))
    }

}

/// The scheduler's clock and its event queue.
extension WorldTests {
    @Test("Events at equal times run in the order they were scheduled, and the clock follows them")
    func equalTimesRunInOrder() {
        let scheduler = Scheduler()
        var order: [String] = []
        var clock: [Int64] = []
        for label in ["a", "b", "c"] {
            scheduler.schedule(at: 500) {
                order.append(label)
                clock.append(scheduler.now)
            }
        }
        scheduler.schedule(at: 100) {
            order.append("early")
            clock.append(scheduler.now)
            // Scheduled later for the same time as a, b and c: runs after them.
            scheduler.schedule(at: 500) {
                order.append("d")
                clock.append(scheduler.now)
            }
            // In the past: runs now, after what is already due now.
            scheduler.schedule(at: 0) {
                order.append("now")
                clock.append(scheduler.now)
            }
        }
        scheduler.schedule(at: 900) { order.append("late") }
        scheduler.run(until: 600)
        #expect(order == ["early", "now", "a", "b", "c", "d"])
        #expect(clock == [100, 100, 500, 500, 500, 500])
        // Nothing else due before the limit: the clock moves to it.
        #expect(scheduler.now == 600)
        scheduler.run(until: 1_000)
        #expect(order.last == "late")
        #expect(scheduler.now == 1_000)
    }

    @Test("Simulated threads sleeping for virtual time wake in time order")
    func sleepersWakeInTimeOrder() {
        let scheduler = Scheduler()
        var wakes: [(String, Int64)] = []
        for (name, naps) in [("slow", [30, 30]), ("fast", [10, 10, 10, 10]), ("idle", [])]
            as [(String, [Int64])]
        {
            _ = scheduler.startThread(name: name) { thread in
                for nap in naps {
                    thread.sleep(for: nap)
                    wakes.append((thread.name, scheduler.now))
                }
            }
        }
        scheduler.run(until: Int64.max)
        scheduler.shutDown()
        #expect(wakes.map(\.1) == [10, 20, 30, 30, 40, 60])
        #expect(wakes.map(\.0) == ["fast", "fast", "slow", "fast", "fast", "slow"])
    }

    @Test("A long random mix of inserts and removals always removes the earliest (time, sequence) first")
    func randomInsertsAndRemovals() {
        var queue = EventQueue()
        // The model: every pending (time, sequence), kept sorted by a plain insertion.
        var model: [(time: Int64, sequence: UInt64)] = []
        var generator = SeededGenerator(seed: 42)
        var sequence: UInt64 = 0
        var removals = 0
        var mismatches = 0
        var countMismatches = 0
        for _ in 0..<20_000 {
            if generator.below(5) < 3 || model.isEmpty {
                let time: Int64 = generator.below(200)  // few distinct times: many ties
                queue.insert(EventQueue.Entry(time: time, sequence: sequence, event: .action({})))
                // Sequences only grow, so a new entry goes after every entry with a time ≤ its own.
                var low = 0
                var high = model.count
                while low < high {
                    let middle = (low + high) / 2
                    if model[middle].time <= time { low = middle + 1 } else { high = middle }
                }
                model.insert((time, sequence), at: low)
                sequence += 1
            } else {
                let entry = queue.removeFirst()
                let expected = model.removeFirst()
                if entry?.time != expected.time || entry?.sequence != expected.sequence {
                    mismatches += 1
                }
                removals += 1
            }
            if queue.count != model.count { countMismatches += 1 }
        }
        #expect(removals > 5_000)
        #expect(model.count > 1_000)
        #expect(mismatches == 0)
        #expect(countMismatches == 0)
        // Draining what is left gives it in order.
        var drained: [(Int64, UInt64)] = []
        while let entry = queue.removeFirst() { drained.append((entry.time, entry.sequence)) }
        #expect(drained.map(\.0) == model.map(\.time))
        #expect(drained.map(\.1) == model.map(\.sequence))
        #expect(queue.isEmpty)
        #expect(queue.earliestTime == nil)
    }

}
