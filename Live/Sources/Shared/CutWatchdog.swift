import Files
import Foundation
import LiveServer

/// Cuts the server when the run reaches its time limit while the main thread is away (blocked in a
/// download, say): the download then fails and the main thread comes back to end the run. If it has not
/// come back `grace` later (it is stuck in something else), the process ends with one line and status 1.
final class CutWatchdog: Sendable {
    private let done = DispatchSemaphore(value: 0)
    static let grace = DispatchTimeInterval.seconds(30)

    init(step: String, server: LiveServer, after microseconds: Int64) {
        let deadline = DispatchTime.now() + .microseconds(Int(clamping: max(0, microseconds)))
        Thread.detachNewThread { [done] in
            guard done.wait(timeout: deadline) == .timedOut else { return }
            server.cut()
            guard done.wait(timeout: .now() + Self.grace) == .timedOut else { return }
            LiveDrawing.restoreTerminal()
            TemporaryFiles.removeAll()
            _ = StandardStreams.writeAll(
                Array(
                    "\(step): the run reached its time limit and the main thread did not come back: no report\n"
                        .utf8),
                to: 2)
            exit(1)
        }
    }

    /// The run ended: the watchdog has nothing to do.
    func finished() {
        done.signal()
    }
}
