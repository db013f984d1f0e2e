import Dispatch
import Foundation
import LiveLock
import Posters

extension LiveRun {
    /// How many of the dispatch pool's threads a run keeps ready for the app's queues.
    static let poolWidth = 6

    /// Makes the posters, on the dispatch pool, and keeps `poolWidth` of the pool's threads busy at once
    /// before returning: Linux's pool starts about two threads wide and grows about one a second, so a
    /// fresh process's queues would otherwise wait for threads (an iPhone's do not).
    static func prepare(posters: [String], poolWidth: Int) {
        let warmup = PoolWarmup()
        let group = DispatchGroup()
        let deadline = Date(timeIntervalSinceNow: 15)
        for _ in 0..<poolWidth {
            DispatchQueue.global().async(group: group) {
                while let index = warmup.take(below: posters.count) {
                    _ = PosterMemo.shared.png(for: posters[index])
                }
                warmup.arrive(waitingFor: poolWidth, until: deadline)
            }
        }
        group.wait()
    }
}

/// Keeps the dispatch pool's threads alive through a run: Linux's pool lets a thread go after about five
/// seconds without work and adds one back only about once a second, so after every pause longer than
/// that the app's queues would again wait for threads an iPhone has at once. Every `period` seconds,
/// `width` blocks on the pool meet for a moment (at most `meeting` seconds), so that many threads have
/// just had work.
final class PoolKeeper: Sendable {
    private let stopped = Mutex(false)

    init(width: Int, period: TimeInterval = 2, meeting: TimeInterval = 0.02) {
        Thread.detachNewThread { [self] in
            while !stopped.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: period)
                let warmup = PoolWarmup()
                let deadline = Date(timeIntervalSinceNow: meeting)
                for _ in 0..<width {
                    DispatchQueue.global().async { warmup.arrive(waitingFor: width, until: deadline) }
                }
            }
        }
    }

    /// Ends the keeping, within `period`.
    func stop() { stopped.withLock { $0 = true } }
}

/// The posters handed out to the warming threads, and how many of them are waiting together.
///
/// `@unchecked Sendable`: both counts are read and written only while `condition` is held.
final class PoolWarmup: @unchecked Sendable {
    private let condition = NSCondition()
    private var taken = 0
    private var arrived = 0

    /// The next poster's index, nil when all `count` are taken.
    func take(below count: Int) -> Int? {
        condition.withLock {
            defer { taken += 1 }
            return taken < count ? taken : nil
        }
    }

    /// Waits until `width` threads wait here together, or until `deadline`.
    func arrive(waitingFor width: Int, until deadline: Date) {
        condition.withLock {
            arrived += 1
            condition.broadcast()
            while arrived < width && condition.wait(until: deadline) {}
        }
    }
}
