import Foundation
import Shared
import TestSupport
import Testing

@testable import Concurrency
@testable import Report
@testable import UI
@testable import World

/// An app that loads every poster on screen in a task on the phone's cooperative pool, making `hops`
/// extra executor hops first, as a debug build does where an optimised build hops less.
final class TaskLoadingApp: ScriptApp, @unchecked Sendable {
    let hops: Int
    var pool: SimulatedTaskExecutor!
    var network: AsyncNetwork!

    init(log: Log, hops: Int) {
        self.hops = hops
        super.init(log: log)
    }

    override func viewDidLoad() {
        pool = SimulatedTaskExecutor()
        network = AsyncNetwork()
        super.viewDidLoad()
    }

    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = super.tableView(tableView, cellForRowAt: indexPath)
        guard let url = phone.movies[indexPath.row].url else { return cell }
        let (hops, network, log) = (hops, network!, log)
        Task(executorPreference: pool) {
            for _ in 0..<hops { await Task.yield() }
            guard let data = try? await network.data(from: url) else { return }
            log.note("poster", Double(data.count))
        }
        return cell
    }
}

/// World: Swift concurrency on the simulated phone.
extension WorldTests {
    static let hopScenario = testScenario(
        "task hops", rows: 30, actions: [.wait(microseconds: 1_000_000)], rtt: 80_000)

    static func run(hops: Int) throws -> (RunResult, Log) {
        let log = Log()
        let result = try play(hopScenario) { TaskLoadingApp(log: log, hops: hops) }
        return (result, log)
    }

    @Test("The trace does not depend on how many jobs the compiler cuts a task into")
    func traceIgnoresExecutorHops() throws {
        let (direct, directLog) = try Self.run(hops: 0)
        let (hopping, hoppingLog) = try Self.run(hops: 3)
        // Not vacuous: the on-screen posters arrived, in both runs.
        #expect(directLog.all("poster").count >= 7)
        #expect(directLog.all("poster").map(\.time) == hoppingLog.all("poster").map(\.time))
        #expect(direct.events("request_end").count >= 7)
        #expect(direct.trace.map(\.jsonLine) == hopping.trace.map(\.jsonLine))
        #expect(TextReport.render(direct) == TextReport.render(hopping))
    }
}
