import Foundation
import LiveLock

/// The thread that draws a live run's table, so that the main thread never waits on the terminal.
///
/// The app's main thread hands each new state of the table to `submit`, which returns at once. The render
/// thread draws the newest state it has been given and drops every older one it had not started, so a
/// slow terminal costs frames, never the app's time; it draws at most once a `frameInterval` (twice that
/// once the terminal has fallen back to half rate), and steps down through `TerminalFallback`'s levels
/// when writes keep taking longer than a frame.
public final class RenderThread<Frame: Sendable>: Sendable {
    /// What became of the frames submitted so far.
    public struct Counts: Sendable, Equatable {
        public var submitted = 0
        public var drawn = 0
        /// Frames replaced by a newer one before the render thread took them.
        public var dropped = 0
    }

    private struct State {
        var pending: Frame?
        var counts = Counts()
        var fallback: TerminalFallback
        var notes: [String] = []
        var stopping = false
        var finished = false
    }

    private let state: Mutex<State>
    private let wake = NSCondition()
    private let render: @Sendable (Frame, TerminalFallback.Level) -> [UInt8]
    private let write: @Sendable ([UInt8]) -> Void
    private let frameInterval: Duration

    /// Starts the thread: `render` builds a frame's bytes at a level, `write` sends them to the terminal.
    public init(
        frameInterval: Duration, fallback: TerminalFallback = TerminalFallback(),
        render: @escaping @Sendable (Frame, TerminalFallback.Level) -> [UInt8],
        write: @escaping @Sendable ([UInt8]) -> Void
    ) {
        self.frameInterval = frameInterval
        self.render = render
        self.write = write
        state = Mutex(State(fallback: fallback))
        Thread.detachNewThread { [self] in drawFrames() }
    }

    /// Hands over the table's newest state; returns without waiting for the terminal.
    public func submit(_ frame: Frame) {
        state.withLock { state in
            if state.pending != nil { state.counts.dropped += 1 }
            state.pending = frame
            state.counts.submitted += 1
        }
        wake.lock()
        wake.signal()
        wake.unlock()
    }

    /// Draws the frame still waiting, if any, then stops the thread and waits for it.
    public func finish() {
        state.withLock { $0.stopping = true }
        wake.lock()
        wake.broadcast()
        while !state.withLock({ $0.finished }) {
            wake.wait()
        }
        wake.unlock()
    }

    public var counts: Counts { state.withLock { $0.counts } }

    /// Each step down the terminal took, in words.
    public var notes: [String] { state.withLock { $0.notes } }

    public var level: TerminalFallback.Level { state.withLock { $0.fallback.level } }

    private func drawFrames() {
        let clock = ContinuousClock()
        var nextDraw = clock.now
        while true {
            wake.lock()
            while state.withLock({ $0.pending == nil && !$0.stopping }) {
                wake.wait()
            }
            wake.unlock()
            let pause = nextDraw - clock.now
            if pause > .zero { Thread.sleep(forTimeInterval: Self.seconds(pause)) }
            let taken = state.withLock { state -> (Frame, TerminalFallback.Level)? in
                guard let frame = state.pending else { return nil }
                state.pending = nil
                return (frame, state.fallback.level)
            }
            guard let (frame, level) = taken else { break }
            let bytes = render(frame, level)
            let start = clock.now
            write(bytes)
            let took = clock.now - start
            let spacing = level >= .halfRate ? frameInterval * 2 : frameInterval
            nextDraw = start + spacing
            state.withLock { state in
                state.counts.drawn += 1
                if let stepped = state.fallback.record(write: took, frame: spacing) {
                    state.notes.append("the terminal could not keep up: \(stepped.explanation)")
                }
            }
        }
        state.withLock { $0.finished = true }
        wake.lock()
        wake.broadcast()
        wake.unlock()
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
