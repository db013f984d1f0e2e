import LiveLock

/// What the app's picture work, caches and disk did, counted from whatever thread does it: the
/// simulator's `decodes`, `filters`, `memory_cache_hits`, `disk_cache_hits`, `disk_writes`,
/// `operations_cancelled`, `peak_image_memory_bytes` and `memory_warning_freed_bytes`, with the same
/// meaning (image memory counted a launch at a time).
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
        /// Calls to the table from a thread other than the main one.
        case mainThreadCheckerViolations
        /// Operations cancelled before they finished, and transfers stopped by their task's cancellation.
        case operationsCancelled
        /// Table changes from work that was cancelled (`LateCompletions`).
        case lateCompletions
    }

    private static let counts = Mutex([Int](repeating: 0, count: Figure.allCases.count))
    /// Bytes of decoded posters alive now, by the launch that made them, and the most the launch running
    /// at the time had at once. A relaunch here does not end the earlier launch's threads, so its
    /// pictures may live on; the simulator's relaunch kills them, so they no longer count.
    private static let imageMemory = Mutex((launch: 0, now: [0: 0], peak: 0))

    static func count(_ figure: Figure) {
        counts.withLock { $0[figure.rawValue] += 1 }
    }

    static func value(_ figure: Figure) -> Int {
        counts.withLock { $0[figure.rawValue] }
    }

    /// The launch running now, from 0.
    static var launch: Int { imageMemory.withLock { $0.launch } }

    /// A relaunch: the pictures made from now on are the new launch's.
    static func relaunched() {
        imageMemory.withLock { $0.launch += 1 }
    }

    /// A poster of `bytes` decoded pixels made during `launch` came into memory (negative: it left).
    static func imageMemory(changedBy bytes: Int, launch: Int) {
        imageMemory.withLock { memory in
            memory.now[launch, default: 0] += bytes
            if launch == memory.launch { memory.peak = max(memory.peak, memory.now[launch] ?? 0) }
        }
    }

    /// The most bytes of decoded posters alive at once.
    static var peakImageMemory: Int { imageMemory.withLock { $0.peak } }

    /// Bytes of decoded posters the running launch made that are alive now.
    static var imageMemoryNow: Int { imageMemory.withLock { $0.now[$0.launch] ?? 0 } }

    private static let freedByWarnings = Mutex(0)

    /// The app handled a memory warning: the running launch's image bytes just before and just after.
    static func memoryWarningHandled(before: Int, after: Int) {
        freedByWarnings.withLock { $0 += max(0, before - after) }
    }

    /// The image bytes memory warnings got back.
    static var memoryWarningFreedBytes: Int { freedByWarnings.withLock { $0 } }
}
