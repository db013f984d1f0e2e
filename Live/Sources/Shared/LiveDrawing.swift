import Files
import Foundation
import LiveLock
import LiveTerminal

import struct Synchronization.Atomic

/// The live table in the terminal, when standard output is one: the rows on screen with their posters,
/// placeholders, failure pictures and spinners, and a status line of live figures, drawn by a
/// `RenderThread` on the alternate screen at the scenario's refresh rate. Headless otherwise: nothing is
/// drawn and nothing is added to the report.
///
/// `LiveRun` calls `frame` once a frame, on the main thread, after the app's work for that frame and
/// outside its measured stretches; it takes only a snapshot (the cells' titles, references to their
/// immutable images, the scroll offset, a few counts) and hands it over: the render thread scales the
/// pictures and writes the escape codes. `finish`, once when the scenario has ended, draws the last frame,
/// leaves the alternate screen and keeps what the terminal went through for `reportLines`.
enum LiveDrawing {
    private struct Drawing {
        let terminal: Terminal
        let thread: RenderThread<TableFrame>
    }

    private struct State {
        var started = false
        var drawing: Drawing?
        var frames = 0
        /// Main-thread stretches already counted below.
        var stretchesSeen = 0
        var hangs = 0
        var longestStall: Int64 = 0
        var reportLines = ""
    }

    private static let state = Mutex(State())
    /// Whether the alternate screen is in use: read without the lock by an interrupt's cleanup, which must
    /// not wait for the main thread.
    private static let onAlternateScreen = Atomic(false)

    /// Says what the run is doing before its first frame, on the terminal only (a headless run says
    /// nothing).
    static func say(_ line: String) {
        guard Terminal.standardOutput() != nil else { return }
        _ = StandardStreams.writeAll(Array("\r\u{1B}[2K\(line)".utf8), to: 1)
    }

    /// Leaves the alternate screen and shows the cursor, if the table was being drawn: for a run that ends
    /// another way than `finish` (an interrupt, a stuck main thread).
    static func restoreTerminal() {
        guard onAlternateScreen.exchange(false, ordering: .relaxed) else { return }
        _ = StandardStreams.writeAll(Array(Terminal.restoreSequence.utf8), to: 1)
    }

    static func frame(_ table: TableView?, at time: Int64, hitches: Int) {
        state.withLock { state in
            if !state.started {
                state.started = true
                state.drawing = start()
            }
            guard let drawing = state.drawing else { return }
            state.frames += 1
            count(MainThreadWork.stretches, into: &state)
            let status =
                "live · \(String(format: "%.1f", Double(time) / 1e6)) s · frame \(state.frames) · "
                + "\(LiveCounters.requestsStarted) requests · \(hitches) hitches · longest stall "
                + "\(state.longestStall / 1000) ms · \(state.hangs) hangs"
            drawing.thread.submit(snapshot(table, status: status, time: time))
        }
    }

    static func finish() {
        guard let drawing = state.withLock({ $0.drawing }) else { return }
        drawing.thread.finish()
        onAlternateScreen.store(false, ordering: .relaxed)
        drawing.terminal.leaveAlternateScreen()
        let counts = drawing.thread.counts
        var lines = [
            "terminal   drew \(counts.drawn) of \(counts.submitted) frames (\(counts.dropped) replaced by a newer one before they were drawn)"
        ]
        lines += drawing.thread.notes.map { "note: \($0)" }
        state.withLock {
            $0.drawing = nil
            $0.reportLines = "\n" + lines.joined(separator: "\n") + "\n"
        }
    }

    /// What the report adds when the table was drawn: how many frames the terminal drew and each step
    /// down it took; empty for a headless run.
    static var reportLines: String { state.withLock { $0.reportLines } }

    /// The terminal on standard output, on the alternate screen, and its render thread; nil when standard
    /// output cannot draw.
    private static func start() -> Drawing? {
        guard let terminal = Terminal.standardOutput() else { return nil }
        let renderer = TableRenderer()
        terminal.enterAlternateScreen()
        onAlternateScreen.store(true, ordering: .relaxed)
        let thread = RenderThread<TableFrame>(
            frameInterval: .microseconds(Int64(1_000_000 / max(1, LiveScreen.current.refreshRate))),
            render: { frame, level in
                let size = terminal.size
                return renderer.render(frame, level: level, columns: size.columns, lines: size.lines)
            },
            write: { terminal.write($0) })
        return Drawing(terminal: terminal, thread: thread)
    }

    /// Counts the main-thread stretches not yet counted: the hangs and the longest.
    private static func count(_ stretches: [MainThreadWork.Stretch], into state: inout State) {
        for stretch in stretches.dropFirst(min(state.stretchesSeen, stretches.count)) {
            if stretch.microseconds >= LiveReport.hangMicroseconds { state.hangs += 1 }
            state.longestStall = max(state.longestStall, stretch.microseconds)
        }
        state.stretchesSeen = stretches.count
    }

    /// The rows on screen as the table stands, and where it is scrolled to.
    private static func snapshot(_ table: TableView?, status: String, time: Int64) -> TableFrame {
        let spinnerStep = Int(time / 100_000)
        guard let table else {
            return TableFrame(rows: [], topRow: 0, screenRows: 0, status: status, spinnerStep: spinnerStep)
        }
        let rows = table.visibleCells.sorted { $0.key < $1.key }.map { row, cell in
            let image = cell.imageView.image
            let shows: TableFrame.Shows
            switch image?.kind {
            case .poster: shows = .image
            case .placeholder: shows = .placeholder
            case .failure: shows = .failed
            case nil: shows = .nothing
            }
            return TableFrame.Row(
                index: row, title: cell.textLabel.text ?? "", shows: shows,
                picture: image.map { TableFrame.Picture(bitmap: $0.bitmap, owner: $0) },
                spinning: cell.accessoryView?.isAnimating ?? false)
        }
        return TableFrame(
            rows: rows, topRow: table.contentOffset / table.rowHeight,
            screenRows: table.viewportHeight / table.rowHeight, status: status, spinnerStep: spinnerStep)
    }
}
