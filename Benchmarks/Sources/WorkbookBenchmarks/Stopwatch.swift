import Foundation

/// Timing of a piece of work in the CPU time of the calling thread, not wall time: on a shared machine
/// the time other processes take does not count, so repeated runs agree far better. (The references
/// time themselves the same way.)
enum Stopwatch {
    /// The calling thread's CPU time so far, in seconds.
    static var threadSeconds: Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// The CPU seconds `work` takes, once.
    static func seconds(_ work: () throws -> Void) rethrows -> Double {
        let start = threadSeconds
        try work()
        return threadSeconds - start
    }

    /// The CPU seconds of each of `runs` runs of `work`, after one untimed warm-up run.
    static func samples(runs: Int, warmUp: Bool = true, _ work: () throws -> Void) rethrows -> Samples {
        if warmUp { try work() }
        var samples = Samples()
        for _ in 0..<runs {
            samples.values.append(try seconds(work))
        }
        return samples
    }
}
