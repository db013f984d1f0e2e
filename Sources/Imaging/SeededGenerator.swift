/// SplitMix64 (Steele, Lea and Flood, 2014; the seeding generator of `java.util.SplittableRandom`): a
/// 64-bit counter stepped by the golden-ratio constant, each value scrambled by two xor-shift-multiply
/// rounds. Small, fast, and the same numbers from the same seed on every platform.
///
/// The world keeps one generator per concern (network jitter, faults, …), each seeded from the run's
/// seed and the concern's name, so that drawing more numbers for one never shifts another; the poster
/// generator has its own, seeded from the URL alone.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The counter, advanced by `increment` per value (read by `PosterGenerator`'s grain loop, which
    /// writes `next()` out inline).
    private(set) var state: UInt64

    /// The golden-ratio step of the counter.
    static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// Starts the sequence at `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// Makes the generator for one concern of a run.
    package init(seed: UInt64, stream: String) {
        state = seed ^ FNV1a64.hash(stream)
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= Self.increment
        return Self.scramble(state)
    }

    /// The two xor-shift-multiply rounds that turn a counter value into an output.
    @inline(__always)
    static func scramble(_ counter: UInt64) -> UInt64 {
        var z = counter
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `0..<bound` (0 when bound ≤ 0, drawing nothing), without modulo bias worth caring
    /// about here.
    package mutating func below(_ bound: Int64) -> Int64 {
        guard bound > 0 else { return 0 }
        return Int64(next() % UInt64(bound))
    }

    /// A whole number in `0..<bound` (0 when bound ≤ 0, drawing nothing).
    package mutating func below(_ bound: Int) -> Int {
        Int(below(Int64(bound)))
    }

    /// A number in `range`, from the top 32 bits of the next value scaled by multiplication (bias below
    /// 2^-32 × the range's width, irrelevant here).
    mutating func next(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound + 1)
        return range.lowerBound + Int(((next() >> 32) &* width) >> 32)
    }
}
