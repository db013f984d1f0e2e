import Foundation
import LiveTerminal
import Synchronization
import Testing

/// A writer the test holds shut: each write waits until the test opens the gate once for it (or 5 s, so
/// that a render thread drawing more than it should fails the test instead of hanging it).
final class GatedWriter: Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)
    let written = Mutex<[[UInt8]]>([])

    func write(_ bytes: [UInt8]) {
        entered.signal()
        _ = gate.wait(timeout: .now() + 5)
        written.withLock { $0.append(bytes) }
    }

    /// Waits (at most 10 s) until a write has begun.
    func awaitWrite() -> Bool { entered.wait(timeout: .now() + 10) == .success }

    func open() { gate.signal() }
}

@Suite struct RenderThreadTests {
    @Test func framesSubmittedWhileTheTerminalIsBusyAreReplacedByTheNewestOne() {
        let writer = GatedWriter()
        let thread = RenderThread<Int>(
            frameInterval: .zero, render: { frame, _ in [UInt8(frame)] }, write: { writer.write($0) })
        thread.submit(1)
        #expect(writer.awaitWrite())
        for frame in 2...4 { thread.submit(frame) }
        writer.open()
        #expect(writer.awaitWrite())
        writer.open()
        thread.finish()
        #expect(writer.written.withLock { $0 } == [[1], [4]])
        let counts = thread.counts
        #expect(counts.submitted == 4)
        #expect(counts.drawn == 2)
        #expect(counts.dropped == 2)
    }

    @Test func submittingReturnsWhileTheTerminalIsStillTakingAFrame() {
        let writer = GatedWriter()
        let thread = RenderThread<Int>(
            frameInterval: .zero, render: { frame, _ in [UInt8(frame)] }, write: { writer.write($0) })
        thread.submit(1)
        #expect(writer.awaitWrite())
        // The write of frame 1 is held open: these return only because nothing here waits for it.
        for frame in 2...100 { thread.submit(frame) }
        #expect(thread.counts.drawn == 0)
        writer.open()
        #expect(writer.awaitWrite())
        writer.open()
        thread.finish()
        #expect(thread.counts.drawn == 2)
    }

    @Test func finishingDrawsTheFrameStillWaiting() {
        let drawn = Mutex<[Int]>([])
        let thread = RenderThread<Int>(
            frameInterval: .milliseconds(50), render: { frame, _ in [UInt8(frame)] },
            write: { bytes in drawn.withLock { $0.append(Int(bytes[0])) } })
        thread.submit(1)
        thread.submit(2)
        thread.finish()
        #expect(drawn.withLock { $0 }.last == 2)
    }

    @Test func aTerminalThatKeepsFallingBehindStepsDownAndSaysSo() {
        let levels = Mutex<[TerminalFallback.Level]>([])
        let thread = RenderThread<Int>(
            frameInterval: .milliseconds(1), fallback: TerminalFallback(patience: 2),
            render: { _, level in
                levels.withLock { $0.append(level) }
                return []
            },
            write: { _ in Thread.sleep(forTimeInterval: 0.01) })
        // Each frame is submitted once the one before it is drawn, so that none is dropped.
        for frame in 0..<6 {
            thread.submit(frame)
            for _ in 0..<1000 where thread.counts.drawn <= frame {
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        thread.finish()
        // Every write takes 10 ms against a 1 ms frame (2 ms at half rate): every second one steps down,
        // the sixth to the last level.
        #expect(levels.withLock { $0 } == [.full, .full, .colors256, .colors256, .halfRate, .halfRate])
        #expect(
            thread.notes == [
                "the terminal could not keep up: 256 colours instead of 24-bit",
                "the terminal could not keep up: every other frame",
                "the terminal could not keep up: smaller posters",
            ])
    }
}

@Suite struct TerminalFallbackTests {
    @Test func onlySlowWritesInARowStepTheTerminalDown() {
        var fallback = TerminalFallback(patience: 3)
        let frame = Duration.milliseconds(16)
        let slow = Duration.milliseconds(40)
        #expect(fallback.record(write: slow, frame: frame) == nil)
        #expect(fallback.record(write: slow, frame: frame) == nil)
        #expect(fallback.record(write: .milliseconds(2), frame: frame) == nil)
        #expect(fallback.record(write: slow, frame: frame) == nil)
        #expect(fallback.record(write: slow, frame: frame) == nil)
        #expect(fallback.record(write: slow, frame: frame) == .colors256)
        #expect(fallback.level == .colors256)
    }

    @Test func theTerminalStepsDownNoFurtherThanSmallPosters() {
        var fallback = TerminalFallback(patience: 1)
        let steps = (0..<10).compactMap { _ in fallback.record(write: .seconds(1), frame: .milliseconds(16)) }
        #expect(steps == [.colors256, .halfRate, .smallPosters])
        #expect(fallback.level == .smallPosters)
    }
}
