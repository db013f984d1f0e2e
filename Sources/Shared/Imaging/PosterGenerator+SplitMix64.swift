extension PosterGenerator {
    /// SplitMix64 (Steele, Lea and Flood, 2014; the seeding generator of `java.util.SplittableRandom`):
    /// a 64-bit counter stepped by the golden-ratio constant, each value scrambled by two
    /// xor-shift-multiply rounds. Small, fast, and the same sequence on every platform.
    ///
    /// The poster generator's own stream, seeded from the URL alone, so posters do not
    /// depend on (or disturb) any other random choice of the simulation.
    struct SplitMix64 {
        /// The counter; advanced by 0x9E3779B97F4A7C15 per value.
        private(set) var state: UInt64

        /// Starts the sequence at `seed`.
        init(seed: UInt64) {
            state = seed
        }

        /// The next 64 random bits.
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }

        /// A number in `range`, from the top 32 bits of the next value scaled by
        /// multiplication (bias below 2^-32 × the range's width, irrelevant here).
        mutating func next(in range: ClosedRange<Int>) -> Int {
            let width = UInt64(range.upperBound - range.lowerBound + 1)
            return range.lowerBound + Int(((next() >> 32) &* width) >> 32)
        }
    }
}
