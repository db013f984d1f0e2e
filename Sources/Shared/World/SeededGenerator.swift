/// SplitMix64: a small, fast, seeded random generator; the same seed gives the same numbers everywhere.
///
/// The world keeps one generator per concern (network jitter, faults, …), each seeded from the run's
/// seed and the concern's name, so that drawing more numbers for one never shifts another.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Makes a generator from a seed.
    public init(seed: UInt64) {
        state = seed
    }

    /// Makes the generator for one concern of a run.
    public init(seed: UInt64, stream: String) {
        state = seed ^ FNV1a64.hash(stream)
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `0..<bound` (0 when bound ≤ 0), without modulo bias worth caring about here.
    public mutating func below(_ bound: Int64) -> Int64 {
        guard bound > 0 else { return 0 }
        return Int64(next() % UInt64(bound))
    }
}
