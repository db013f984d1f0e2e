import Foundation
import LiveTerminal
import Testing

/// The live table's frame as a real terminal shows it: `LiveTerminalFixture` draws `FixtureFrame` inside
/// tmux, as a live run draws (alternate screen, render thread, the terminal's own size), and
/// `tmux capture-pane -e -p` reads every cell back.
@Suite struct TmuxFrameTests {
    static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Skipped without tmux, which CI installs (.ci/run); a developer without it sees this reason.
    @Test(.enabled(if: tmux != nil, "tmux is not installed (.ci/run installs it)"))
    func tmuxShowsEveryCellOfTheFixtureFrameInTheColoursTheRendererSent() throws {
        let tmux = try #require(Self.tmux)
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let fixture = folder.appendingPathComponent("LiveTerminalFixture")
        guard FileManager.default.isExecutableFile(atPath: fixture.path) else {
            Issue.record("no LiveTerminalFixture beside the tests in \(folder.path): build the package first")
            return
        }
        let socket =
            "live-terminal-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        func run(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tmux)
            process.arguments = ["-L", socket, "-f", "/dev/null"] + arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        defer { _ = try? run(["kill-server"]) }
        // TERM is set for the pane: a test runner's own environment may have none.
        let command = "TERM=xterm-256color '\(fixture.path)'"
        #if os(Linux)
            // The server that `new-session` starts outlives the command; one started through Foundation's
            // `Process` on Linux does not survive it, so the shell starts it.
            let started = system(
                "'\(tmux)' -L \(socket) -f /dev/null new-session -d -x 100 -y 40 \"\(command)\" </dev/null >/dev/null 2>&1"
            )
        #else
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tmux)
            process.arguments = [
                "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "40", command,
            ]
            try process.run()
            process.waitUntilExit()
            let started = process.terminationStatus
        #endif
        try #require(started == 0)
        var captured = ""
        for _ in 0..<200 {
            captured = try run(["capture-pane", "-p", "-e", "-t", "0"])
            if captured.contains(FixtureFrame.status) { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        try #require(captured.contains(FixtureFrame.status), "the fixture drew nothing in tmux:\n\(captured)")
        TableRendererTests.expectFixture(in: TerminalGrid(captured))
    }
}
