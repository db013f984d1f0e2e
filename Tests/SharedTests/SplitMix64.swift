/// A small seeded pseudo-random generator (SplitMix64) so test data is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    /// The generator's state.
    var state: UInt64

    /// Starts a sequence from a seed.
    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return mixed ^ (mixed >> 31)
    }

    /// A random byte.
    mutating func nextByte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 24) }

    /// A random number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
}
