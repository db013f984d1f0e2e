import Foundation
import LiveTerminal

// Draws `FixtureFrame` on the terminal it runs in, as a live run draws the table: on the alternate screen,
// through a `RenderThread`, at the terminal's own size. Then waits (up to a minute, so that a test can read
// the screen back) and leaves the alternate screen. Not a terminal: a message and exit code 2.
guard let terminal = Terminal.standardOutput() else {
    FileHandle.standardError.write(
        Data("LiveTerminalFixture: standard output is not a terminal that can draw\n".utf8))
    exit(2)
}
let renderer = TableRenderer()
terminal.enterAlternateScreen()
let thread = RenderThread<TableFrame>(
    frameInterval: .milliseconds(16),
    render: { frame, level in
        let size = terminal.size
        return renderer.render(frame, level: level, columns: size.columns, lines: size.lines)
    },
    write: { terminal.write($0) })
thread.submit(FixtureFrame.frame)
thread.finish()
Thread.sleep(forTimeInterval: 60)
terminal.leaveAlternateScreen()
