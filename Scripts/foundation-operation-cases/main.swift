// Runs the cases of Tests/SharedTests/World/OperationCases.swift on real Foundation and prints what each
// saw, one line per note, for the tests to compare the simulated phone's look-alikes with.
// Build and run with ./run (it writes Tests/SharedTests/Fixtures/foundation-operation-cases.txt).
import Foundation

/// Notes from any thread, in the order they were made.
final class RealWorld: OperationCaseWorld, @unchecked Sendable {
    private let lock = NSLock()
    private var notes: [String] = []

    func note(_ text: String) { lock.withLock { notes.append(text) } }
    func pause(milliseconds: Int) { Thread.sleep(forTimeInterval: Double(milliseconds) / 1000) }
    var all: [String] { lock.withLock { notes } }
}

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "--trap" {
    // One trapping case, alone in this process: the parent reads how it ended.
    OperationCases.traps.first { $0.name == arguments[2] }?.run()
    print("no trap")
    exit(0)
}

for operationCase in OperationCases.all {
    let world = RealWorld()
    operationCase.run(world)
    // Foundation has no "every queue is idle": let the main run loop serve the main queue for long
    // enough that every case (each under half a second of work) has finished.
    RunLoop.main.run(until: Date().addingTimeInterval(1.5))
    for note in world.all { print("\(operationCase.name): \(note)") }
}

for trap in OperationCases.traps {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = ["--trap", trap.name]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // The message after Swift's "Fatal error: ", without the file and line that precede it.
    let message =
        text.split(separator: "\n").first { $0.contains("Fatal error: ") }.map {
            String($0[$0.range(of: "Fatal error: ")!.upperBound...])
        } ?? "none"
    print("\(trap.name): traps \(process.terminationReason == .uncaughtSignal), message \(message)")
}
