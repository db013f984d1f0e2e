#if canImport(Glibc)
    import Glibc
#endif

/// The C allocator's set-up for a run, and giving freed memory back.
///
/// A long run decodes, filters and forgets thousands of posters. With glibc's defaults the process keeps
/// much of what it freed, so its peak resident memory grows with virtual time although what the run holds
/// does not. Fresh mappings cost some system CPU time (mapping and faulting in pages); Benchmarks/README.md
/// ("Where a long run's memory goes") has the figures.
package enum ProcessMemory {
    /// The size from which a block gets a mapping of its own, given back to the system when freed:
    /// 64 KiB, below a poster's PNG bytes (about 75 KB) and its pixels (194 KB).
    static let ownMappingThreshold: Int32 = 64 << 10

    /// Asks glibc's allocator to serve every thread from one arena, and to give every poster-sized block
    /// a mapping of its own.
    ///
    /// The simulated phone's threads are real threads. By default glibc gives threads arenas of their own
    /// (up to eight per core), and memory freed in one arena is not reused by another, so each thread's
    /// arena keeps its own high-water mark. The threads take turns under the scheduler, so they do not contend for the one arena. By default glibc also raises its mapping
    /// threshold each time a mapped block is freed, so that after the first poster every poster is carved
    /// out of the heap, which a long run fragments. Call before the run starts its threads; elsewhere
    /// than glibc it does nothing.
    package static func setUpAllocator() {
        #if canImport(Glibc)
            // `mallopt` is not in the Swift Glibc module; look it up by name.
            guard let symbol = dlsym(nil, "mallopt") else { return }
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            let arenaMaximum: Int32 = -8  // M_ARENA_MAX in <malloc.h>
            let mappingThreshold: Int32 = -3  // M_MMAP_THRESHOLD
            _ = mallopt(arenaMaximum, 1)
            _ = mallopt(mappingThreshold, ownMappingThreshold)
        #endif
    }

    /// Gives the pages of freed memory back to the system (glibc's `malloc_trim`), also those in the
    /// middle of the heap; called after the poster memo forgets a quarter of what it holds.
    package static func returnFreedPages() {
        #if canImport(Glibc)
            guard let symbol = dlsym(nil, "malloc_trim") else { return }
            typealias MallocTrim = @convention(c) (Int) -> Int32
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }
}
