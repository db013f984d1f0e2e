/// Wall-clock timing of a piece of work, on the monotonic clock.
enum Stopwatch {
    /// The seconds `work` takes, once.
    static func seconds(_ work: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try work()
        let elapsed = clock.now - start
        let parts = elapsed.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    /// The seconds of each of `runs` runs of `work`, after one untimed warm-up run.
    static func samples(runs: Int, warmUp: Bool = true, _ work: () throws -> Void) rethrows -> Samples {
        if warmUp { try work() }
        var samples = Samples()
        for _ in 0..<runs {
            samples.values.append(try seconds(work))
        }
        return samples
    }
}
