import Foundation
import LiveTerminal
import Testing

/// The live table's frame as a real terminal shows it: `LiveTerminalFixture` draws `FixtureFrame` inside
/// tmux, as a live run draws (alternate screen, render thread, the terminal's own size), and
/// `tmux capture-pane -e -p` reads every cell back.
@Suite struct TmuxFrameTests {
    /// Skipped without tmux, which CI installs (.ci/run); a developer without it sees this reason.
    @Test(.enabled(if: TmuxPane.tmux != nil, "tmux is not installed (.ci/run installs it)"))
    func tmuxShowsEveryCellOfTheFixtureFrameInTheColoursTheRendererSent() throws {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let fixture = folder.appendingPathComponent("LiveTerminalFixture")
        guard FileManager.default.isExecutableFile(atPath: fixture.path) else {
            Issue.record("no LiveTerminalFixture beside the tests in \(folder.path): build the package first")
            return
        }
        // TERM is set for the pane: a test runner's own environment may have none.
        let pane = try #require(TmuxPane(running: "TERM=xterm-256color '\(fixture.path)'"))
        defer { pane.close() }
        let captured = pane.capture(waitingFor: FixtureFrame.status)
        try #require(captured.contains(FixtureFrame.status), "the fixture drew nothing in tmux:\n\(captured)")
        TableRendererTests.expectFixture(in: TerminalGrid(captured))
    }
}
