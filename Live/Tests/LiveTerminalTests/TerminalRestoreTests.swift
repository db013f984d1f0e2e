import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A live step drawing its table in a real terminal, ended by a signal: the terminal is back on its normal
/// screen with the cursor shown, whichever way the user or the system stopped the run.
@Suite(.serialized)
struct TerminalRestoreTests {
    @Test(
        "A live run ended by SIGINT, SIGTERM or SIGHUP leaves the terminal as it found it",
        .enabled(if: TmuxPane.tmux != nil, "tmux is not installed (.ci/run installs it)"),
        arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalPutsTheTerminalBack(signal number: Int32) throws {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let step = folder.appendingPathComponent("Step2Background")
        try #require(FileManager.default.isExecutableFile(atPath: step.path), "build the package first")
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("restore-\(UUID()).pid")
        defer { try? FileManager.default.removeItem(at: pidFile) }
        // The shell writes the step's process id, becomes the step, and the pane's own shell then waits on,
        // so that the pane outlives the step and shows what it left.
        let command =
            "TERM=xterm-256color sh -c 'echo \\$\\$ > \(pidFile.path); exec \(step.path) --scenario course'; sleep 30"
        let pane = try #require(TmuxPane(running: command))
        defer { pane.close() }
        try #require(pane.display("#{alternate_on}", waitingFor: "1") == "1", "the step never drew its table")
        let text = try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let pid = try #require(Int32(text))
        kill(pid, number)
        #expect(pane.display("#{alternate_on}", waitingFor: "0") == "0", "still on the alternate screen")
        #expect(pane.display("#{cursor_flag}", waitingFor: "1") == "1", "the cursor is still hidden")
    }
}
