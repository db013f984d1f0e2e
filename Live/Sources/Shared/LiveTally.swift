import Synchronization

/// What the app's picture work, caches and disk did, counted from whatever thread does it: the
/// simulator's `decodes`, `filters`, `memory_cache_hits`, `disk_cache_hits`, `disk_writes` and
/// `peak_image_memory_bytes`, with the same meaning.
enum LiveTally {
    /// A figure the twins count.
    enum Figure: Int, CaseIterable {
        /// Every decode asked for, one that failed too.
        case decodes
        /// Every sepia filter applied.
        case filters
        case memoryCacheHits
        case diskCacheHits
        /// Disk writes that succeeded.
        case diskWrites
    }

    private static let counts = Mutex([Int](repeating: 0, count: Figure.allCases.count))
    /// Bytes of decoded posters alive now, and the most there were at once.
    private static let imageMemory = Mutex((now: 0, peak: 0))

    static func count(_ figure: Figure) {
        counts.withLock { $0[figure.rawValue] += 1 }
    }

    static func value(_ figure: Figure) -> Int {
        counts.withLock { $0[figure.rawValue] }
    }

    /// A poster of `bytes` decoded pixels came into memory (negative: it left).
    static func imageMemory(changedBy bytes: Int) {
        imageMemory.withLock { memory in
            memory.now += bytes
            memory.peak = max(memory.peak, memory.now)
        }
    }

    /// The most bytes of decoded posters alive at once.
    static var peakImageMemory: Int { imageMemory.withLock { $0.peak } }
}
