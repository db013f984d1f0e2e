import Foundation
import TestSupport
import Testing

@testable import Course

/// How `Course check` runs a student's step as a process: what the step leaves behind does not hold the
/// check, and does not outlive it.
extension ProcessTests {
    /// A stand-in for a student's step that starts a background `sleep` holding its standard output and
    /// error (a grandchild of the check), notes its process id, then prints `output` and exits `status`.
    static func stepLeavingAGrandchild(in folder: URL, output: String, status: Int) throws -> URL {
        let bin = folder.appendingPathComponent("bin", isDirectory: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = bin.appendingPathComponent("Step9Sleeper")
        let text = """
            #!/bin/sh
            sleep 120 &
            echo $! > "$(dirname "$0")/grandchild.pid"
            printf '%s\\n' '\(output)'
            exit \(status)

            """
        try StepFixtures.executableScript(text, at: script)
        return bin
    }

    /// The grandchild's process id, and whether it still runs (signal 0 reaches it).
    static func grandchild(in bin: URL) throws -> (id: pid_t, isRunning: Bool) {
        let text = try String(contentsOf: bin.appendingPathComponent("grandchild.pid"), encoding: .utf8)
        let id = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        return (id, kill(id, 0) == 0)
    }

    @Test(
        "A step whose background process still holds its output is judged by what it printed, at once, and the background process ends with it"
    )
    func aGrandchildHoldingTheOutputDoesNotHoldTheCheck() throws {
        for status in [0, 3] {
            let folder = try StepFixtures.folder("grandchild")
            defer { try? FileManager.default.removeItem(at: folder) }
            let report = #"{"step": "Step9Sleeper", "metrics": {"requests_started": 3}, "final_screen": []}"#
            let bin = try Self.stepLeavingAGrandchild(
                in: folder, output: report.replacingOccurrences(of: "{\"step\"", with: "{\n  \"step\""),
                status: status)
            let package = WorkbookPackage(folder: folder)
            let outcome = Result {
                try package.run(
                    "Step9Sleeper", scenario: "course", options: [], traced: false, bin: bin,
                    scratch: folder)
            }
            let grandchild = try Self.grandchild(in: bin)
            defer { kill(grandchild.id, SIGKILL) }
            // The check came back, and the grandchild, two minutes from its end and holding the output, was
            // ended with the step's process group.
            #expect(
                CourseConfinementTests.gone { !CourseConfinementTests.isRunning(grandchild.id) }, "\(status)")
            switch (status, outcome) {
            case (0, .success(let read)):
                #expect(read.metrics["requests_started"] == 3, "\(status)")
            case (_, .failure(let error)):
                #expect(status != 0, "\(status)")
                #expect("\(error)" == "Step9Sleeper failed on course", "\(status)")
            default:
                Issue.record("exit status \(status) gave \(outcome)")
            }
        }
    }
}
