import Foundation
import Testing

/// The live steps, run as their own processes (the frame loop needs the process's main thread), one after
/// the other, on a short scenario: one screen at launch, a slow drag of four rows, a look. They check counts
/// and order, and times only against the scenario's own round trip.
struct LiveStepTests {
    /// The scenario's round trip, in milliseconds.
    static let roundTripMilliseconds = 100.0

    static let scenario = """
        rows 20
        seed 7
        network rtt=100ms jitter=20ms bandwidth=2000KB/s connections=6
        screen height=667 row=88 refresh=60
        wait 0.5s
        drag to row 4 over 0.5s
        wait 0.5s
        """

    /// Also: step 1's app-attributed hitch time is over ten times step 2's, and each step started as many
    /// requests as the server logged.
    @Test("Step 1 hangs for at least a round trip and step 2 does not")
    func stepOneHangsAndStepTwoDoesNot() throws {
        let naive = try LiveStepRun(step: "Step1Naive", scenario: Self.scenario)
        let background = try LiveStepRun(step: "Step2Background", scenario: Self.scenario)
        #expect(try naive.number("hangs") >= 1, "\(naive.text)")
        #expect(try naive.number("longest_main_thread_stall_ms") >= Self.roundTripMilliseconds)
        #expect(try background.number("hangs") == 0, "\(background.text)")
        #expect(
            try naive.number("hitch_time_ms") > 10 * background.number("hitch_time_ms"),
            "\(naive.text)\n\(background.text)")
        // Each row on screen at launch downloads its poster before step 1's first frame; step 2's one-wide
        // queue may start fewer by the end on a loaded machine.
        #expect(try naive.number("requests_started") >= 8, "\(naive.text)")
        #expect(try background.number("requests_started") >= 1, "\(background.text)")
        for run in [naive, background] {
            #expect(try run.number("requests_started") == run.serverRequests, "\(run.text)")
        }
    }
}

/// One live run of a step executable built beside the tests, and its report.
struct LiveStepRun {
    /// Why a run could not be read.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let text: String

    /// Runs `step` on a scenario written to a temporary file and reads its report.
    init(step: String, scenario: String) throws {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let executable = folder.appendingPathComponent(step)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Failure(
                description: "no \(step) beside the tests in \(folder.path): build the package first")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID()).scenario")
        try Data(scenario.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--scenario", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let watchdog = DispatchWorkItem { [process] in process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(step) exited with status \(process.terminationStatus)")
        }
        text = String(decoding: bytes, as: UTF8.self)
    }

    /// The value of a metric line (`hangs    2`).
    func number(_ key: String) throws -> Double {
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count >= 2, words[0] == key, let value = Double(words[1]) { return value }
        }
        throw Failure(description: "no figure for \(key) in the report:\n\(text)")
    }

    /// How many requests the server logged (`server     11 requests logged`).
    var serverRequests: Double {
        get throws {
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if words.count >= 2, words[0] == "server", let value = Double(words[1]) { return value }
            }
            throw Failure(description: "no server line in the report:\n\(text)")
        }
    }
}
