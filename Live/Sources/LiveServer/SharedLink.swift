import Foundation
import LiveLock

/// The one link every flowing body shares: a body asks for the time at which its next chunk may leave,
/// and the link hands out back-to-back slots, each as long as the chunk takes at the link's rate. Bodies
/// flowing together take slots in turn, so they share the link about equally, and the bytes that leave
/// in any stretch of time are at most the rate times that stretch plus one chunk.
final class SharedLink: Sendable {
    private let bytesPerSecond: Int
    private let clock = ContinuousClock()
    /// When the link is next free.
    private let nextFree: Mutex<ContinuousClock.Instant>

    init(bytesPerSecond: Int) {
        self.bytesPerSecond = bytesPerSecond
        nextFree = Mutex(clock.now)
    }

    /// Reserves the link for `bytes` and returns when they may be sent: the end of their slot.
    func reserve(_ bytes: Int) -> ContinuousClock.Instant {
        let length = Duration.nanoseconds(Int64(bytes) * 1_000_000_000 / Int64(bytesPerSecond))
        let now = clock.now
        return nextFree.withLock { free in
            let start = max(free, now)
            free = start + length
            return free
        }
    }
}

/// Blocks the calling thread for `duration` (nothing, if it is not positive).
func blockThread(for duration: Duration) {
    guard duration > .zero else { return }
    let (seconds, attoseconds) = duration.components
    Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
}
