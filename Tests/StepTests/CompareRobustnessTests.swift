import Foundation
import Shared
import TestSupport
import Testing

/// `Compare` over steps that misbehave: a copy of the built `Compare` in a folder of its own, beside small
/// shell scripts named like steps that hang, flood a pipe, die by a signal or are missing.
extension ProcessTests {
    /// The built `Compare`, if it was built next to the tests.
    static let compare: URL? = ProcessTests.binaries.map { $0.appendingPathComponent("Compare") }.flatMap {
        FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil
    }

    /// A minimal `--json` report `Compare` reads as a column.
    static let report =
        #"{"step": "Step1Fake", "scenario": "course", "seed": 7, "metrics": {"requests_started": 1}, "#
        + #""oracle": {"requests": 1, "bytes": 2}, "final_screen": []}"#

    /// A folder with a copy of `Compare` and step scripts (name → shell body); the caller removes it.
    static func folder(steps: [(name: String, script: String)]) throws -> URL {
        let compare = try #require(compare)
        let folder = try StepFixtures.folder("compare")
        // Linked, and the scripts written through close-on-exec descriptors: a file another test's
        // spawned child still holds open for writing cannot be run (ETXTBSY).
        let copy = folder.appendingPathComponent("Compare")
        if link(compare.path, copy.path) != 0 {
            try FileManager.default.copyItem(at: compare, to: copy)
        }
        for (name, script) in steps {
            try StepFixtures.executableScript(
                "#!/bin/sh\n\(script)\n", at: folder.appendingPathComponent(name))
        }
        return folder
    }

    /// The first step, which answers at once.
    static let good = (name: "Step1Fake", script: "echo '\(report)'")

    /// Runs the copied `Compare` as a child.
    static func run(_ folder: URL, environment: [String: String] = [:], deadline: Double = 30) throws
        -> ChildProcess.Outcome
    {
        try ChildProcess.run(
            folder.appendingPathComponent("Compare"), ["--scenario", "course"], environment: environment,
            deadline: deadline)
    }

    /// Runs Compare over `steps` in a folder of their own, removed afterwards.
    static func run(steps: [(name: String, script: String)], environment: [String: String] = [:]) throws
        -> ChildProcess.Outcome
    {
        let folder = try Self.folder(steps: steps)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try run(folder, environment: environment)
    }

    @Test(
        "A step that hangs is stopped at the time limit with one line",
        .enabled(if: compare != nil, "Compare is not built next to the tests"))
    func hangingStep() throws {
        let outcome = try Self.run(
            steps: [Self.good, ("Step2Hangs", "exec sleep 1000")], environment: ["COMPARE_TIME_LIMIT": "2"])
        #expect(outcome.status == 1)
        #expect(outcome.seconds < 10, "took \(outcome.seconds) s")
        #expect(
            outcome.errors == "Compare: Step2Hangs was still running after 2 s and was stopped "
                + "(COMPARE_TIME_LIMIT sets the limit in seconds)\n")
    }

    @Test(
        "A step writing 200 KB to standard error does not deadlock Compare",
        .enabled(if: compare != nil, "Compare is not built next to the tests"))
    func floodedStandardError() throws {
        let script = "head -c 200000 /dev/zero >&2; echo '\(Self.report)'"
        let outcome = try Self.run(steps: [Self.good, ("Step2Noisy", script)])
        #expect(outcome.status == 0, "\(outcome.errors.prefix(200))")
        #expect(outcome.seconds < 10)
        #expect(outcome.output.contains("Step2Noisy") || outcome.output.contains("Step1Fake"))
    }

    @Test(
        "A step printing 200 MB is stopped, and Compare's memory stays small",
        .enabled(if: compare != nil, "Compare is not built next to the tests"))
    func floodedStandardOutput() throws {
        let outcome = try Self.run(steps: [Self.good, ("Step2Floods", "head -c 200000000 /dev/zero")])
        #expect(outcome.status == 1)
        #expect(outcome.peakBytes < 100_000_000, "peak \(outcome.peakBytes) bytes")
        #expect(outcome.errors.contains("Step2Floods printed more than 8 MB"), "\(outcome.errors)")
    }

    @Test(
        "A step killed by a signal is named with the signal",
        .enabled(if: compare != nil, "Compare is not built next to the tests"))
    func signalledStep() throws {
        let outcome = try Self.run(steps: [Self.good, ("Step2Dies", "kill -SEGV $$")])
        #expect(outcome.status == 1)
        #expect(outcome.errors == "Compare: Step2Dies was killed by SIGSEGV\n")
    }

    @Test(
        "A missing or non-executable step is reported, not left out",
        .enabled(if: compare != nil, "Compare is not built next to the tests"))
    func missingSteps() throws {
        let gap = try Self.folder(steps: [Self.good, ("Step3Later", "echo '\(Self.report)'")])
        defer { try? FileManager.default.removeItem(at: gap) }
        let missing = try Self.run(gap)
        #expect(missing.status == 2)
        #expect(missing.errors.hasPrefix("Compare: no Step2… executable"), "\(missing.errors)")
        let plain = try Self.folder(steps: [Self.good, ("Step2Plain", "echo '\(Self.report)'")])
        defer { try? FileManager.default.removeItem(at: plain) }
        chmod(plain.appendingPathComponent("Step2Plain").path, 0o644)
        let unrunnable = try Self.run(plain)
        #expect(unrunnable.status == 2)
        #expect(unrunnable.errors.contains("Step2Plain") && unrunnable.errors.contains("not executable"))
    }

    @Test(
        "SIGTERM or SIGINT on Compare stops the step's whole process group, then Compare",
        .enabled(if: compare != nil, "Compare is not built next to the tests"))
    func interruptedCompare() throws {
        for number in [SIGTERM, SIGINT] {
            let folder = try Self.folder(steps: [
                Self.good, ("Step2Loops", "echo $$ > \"$(dirname \"$0\")/pid\"; while :; do :; done"),
            ])
            defer { try? FileManager.default.removeItem(at: folder) }
            let process = Process()
            process.executableURL = folder.appendingPathComponent("Compare")
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let pidFile = folder.appendingPathComponent("pid").path
            var stepPID: pid_t = 0
            for _ in 0..<500 where stepPID == 0 {
                stepPID =
                    (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap {
                        pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
                    } ?? 0
                usleep(20_000)
            }
            #expect(stepPID > 0, "\(number)")
            kill(process.processIdentifier, number)
            process.waitUntilExit()
            #expect(
                process.terminationReason == .uncaughtSignal && process.terminationStatus == number,
                "\(number)")
            var gone = false
            for _ in 0..<300 where !gone {
                gone = kill(stepPID, 0) != 0 && errno == ESRCH
                if !gone { usleep(10_000) }
            }
            #expect(gone, "\(number): the step \(stepPID) is still running")
            if !gone { kill(stepPID, SIGKILL) }
        }
    }

    @Test(
        "A step that exits leaving a process behind on its output is read at its exit, and the process is ended",
        .enabled(if: compare != nil, "Compare is not built next to the tests"))
    func leftoverHoldsTheOutput() throws {
        // The leftover's duration names it, so the test can look for it afterwards.
        let script = "sleep 1007 & echo '\(Self.report)'"
        let outcome = try Self.run(
            steps: [Self.good, ("Step2LeavesOne", script)], environment: ["COMPARE_TIME_LIMIT": "30"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("requests_started"), "\(outcome.output)")
        #expect(outcome.seconds < 20, "Compare waited \(outcome.seconds) s for the leftover's pipe")
        let search = Process()
        search.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        search.arguments = ["-f", "sleep 1007"]
        search.standardOutput = FileHandle.nullDevice
        try search.run()
        search.waitUntilExit()
        #expect(search.terminationStatus == 1, "the step's leftover `sleep 1007` is still running")
    }

    @Test(
        "Compare --live leaves no scratch file behind when a live step fails",
        .enabled(if: compare != nil, "Compare is not built next to the tests"))
    func liveScratchIsRemoved() throws {
        let temporary = try StepFixtures.folder("compare-tmp")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let folder = try Self.folder(steps: [Self.good])
        defer { try? FileManager.default.removeItem(at: folder) }
        let liveFolder = try Self.folder(steps: [("Step1Fake", "echo broken >&2; exit 3")])
        defer { try? FileManager.default.removeItem(at: liveFolder) }
        let outcome = try ChildProcess.run(
            folder.appendingPathComponent("Compare"),
            ["--live", "--scenario", "relaunch", "--live-bin", liveFolder.path],
            environment: ["TMPDIR": temporary.path], deadline: 60)
        #expect(outcome.status == 1, "\(outcome.errors)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(left.isEmpty, "left behind in the temporary folder: \(left)")
    }
}
