extension Deflater {
    /// The hash chains both parses find their matches with: `head[hash]` is the latest position whose
    /// hash is `hash`, and `previous[position & windowMask]` the position before `position` with the
    /// same hash; -1 is none. A position's hash is `(key & keyMask) &* multiplier >> hashShift & hashMask`,
    /// where `key` holds the four bytes from the position on, big-endian, so that `keyMask` keeps the
    /// next `Settings.hashedBytes` of them. The parses compute it inline, one flat loop each: in a debug
    /// build a call per byte would cost more than the work.
    ///
    /// Owns its two tables; `release()` frees them and must be the last call.
    struct HashChains {
        /// The latest position of each hash, -1 before the first.
        let head: UnsafeMutablePointer<Int32>
        /// Each position's link to the previous one with its hash, by position modulo the window.
        let previous: UnsafeMutablePointer<Int32>
        /// `hashBits` ones: the hash's range.
        let hashMask: Int
        /// How far the 32-bit product is shifted right to keep its top `hashBits` bits.
        let hashShift: Int
        /// The key's bytes that are hashed: the low three or four.
        let keyMask: Int
        /// `windowSize - 1`: a position's slot in `previous`.
        let windowMask: Int
        /// The multiplier of the hash (Knuth's, 2³² divided by the golden ratio).
        static let multiplier = 0x9E37_79B1

        /// Empty chains for the window and hash of `settings`.
        init(settings: Settings) {
            hashMask = (1 << settings.hashBits) - 1
            hashShift = 32 - settings.hashBits
            keyMask = settings.hashedBytes == 3 ? 0xff_ffff : 0xffff_ffff
            windowMask = settings.windowSize - 1
            head = .allocate(capacity: hashMask + 1)
            head.initialize(repeating: -1, count: hashMask + 1)
            previous = .allocate(capacity: settings.windowSize)
            previous.initialize(repeating: -1, count: settings.windowSize)
        }

        /// Frees the tables.
        func release() {
            head.deallocate()
            previous.deallocate()
        }
    }
}
