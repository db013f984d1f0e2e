import Foundation
import Shared
import Testing

@testable import Runtime

/// Notes of a case run on the simulated phone, blocking in virtual time.
final class PhoneCaseWorld: OperationCaseWorld, @unchecked Sendable {
    private(set) var notes: [String] = []
    func note(_ text: String) { notes.append(text) }
    func pause(milliseconds: Int) { SimulatedThread.current!.sleep(for: Int64(milliseconds) * 1000) }
}

/// Plays one case on a still phone: it starts in the app's `viewDidLoad`, on the main thread, and the
/// phone runs until every queue is idle.
func runOnPhone(_ operationCase: OperationCase) throws -> [String] {
    let world = PhoneCaseWorld()
    _ = try play(testScenario("operations", rows: 4)) {
        let app = ScriptApp(log: Log())
        app.onLoad = { _ in operationCase.run(world) }
        return app
    }
    return world.notes
}

/// Plays one trapping case on a still phone (in an exit test's process of its own).
func runTrapOnPhone(_ name: String) {
    guard let trap = OperationCases.traps.first(where: { $0.name == name }) else { return }
    _ = try? play(testScenario("operations", rows: 4)) {
        let app = ScriptApp(log: Log())
        app.onLoad = { _ in trap.run() }
        return app
    }
}

/// What real Foundation saw, by case: the fixture `Scripts/foundation-operation-cases/run` recorded.
func foundationNotes() throws -> [String: [String]] {
    let url = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/foundation-operation-cases.txt")
    let text = try String(contentsOf: url, encoding: .utf8)
    var notes: [String: [String]] = [:]
    for line in text.split(separator: "\n") {
        guard let colon = line.range(of: ": ") else { continue }
        notes[String(line[..<colon.lowerBound]), default: []].append(String(line[colon.upperBound...]))
    }
    return notes
}

/// The simulated `Operation` and `OperationQueue` against Foundation's, case by case: the same program,
/// the same observations.
extension WorldTests {
    @Test("Every case was recorded on Foundation, and every recording is a case")
    func everyCaseRecordedOnFoundation() throws {
        let recorded = Set(try foundationNotes().keys)
        let cases = Set(OperationCases.all.map(\.name) + OperationCases.traps.map(\.name))
        #expect(recorded == cases)
    }

    @Test("Every case sees on the phone what it saw on Foundation")
    func phoneMatchesFoundation() throws {
        let notes = try foundationNotes()
        for operationCase in OperationCases.all {
            let expected = try #require(notes[operationCase.name], "\(operationCase.name)")
            let seen = try runOnPhone(operationCase)
            #expect(seen == expected, "\(operationCase.name) on the phone: \(seen)")
        }
    }

    @Test("Adding a finished operation stops the program with Foundation's message")
    func addingFinishedOperationTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            runTrapOnPhone("enqueue-finished")
        }
        try checkTrapMessage(result, name: "enqueue-finished")
    }

    @Test("Adding an operation already in a queue stops the program with Foundation's message")
    func addingQueuedOperationTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            runTrapOnPhone("enqueue-twice")
        }
        try checkTrapMessage(result, name: "enqueue-twice")
    }

    private func checkTrapMessage(_ result: ExitTest.Result?, name: String) throws {
        let recorded = try #require(try foundationNotes()[name]?.first)
        #expect(recorded.hasPrefix("traps true, message "))
        let message = String(recorded.dropFirst("traps true, message ".count))
        let errors = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(errors.contains("Fatal error: \(message)"), "\(errors)")
    }
}
