#if canImport(Glibc)
    import Glibc
#endif

/// The C allocator's set-up for a run.
package enum ProcessMemory {
    /// Asks glibc's allocator to serve every thread from one arena.
    ///
    /// The simulated phone's threads are real threads. By default glibc gives threads arenas of their own
    /// (up to eight per core) and memory freed in one arena is not reused by another, so a long run's
    /// resident memory creeps up with virtual time although what it holds does not: measured on 10,000
    /// rows × 30 virtual minutes, Step1Naive peaked at 129 MiB with the default arenas and 97 MiB with one
    /// (Benchmarks/README.md). The threads take turns under the scheduler, so they do not contend for the
    /// one arena. Call before the run starts its threads; elsewhere than glibc it does nothing.
    package static func useOneAllocatorArena() {
        #if canImport(Glibc)
            // `mallopt` is not in the Swift Glibc module; look it up by name.
            guard let symbol = dlsym(nil, "mallopt") else { return }
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            let arenaMaximum: Int32 = -8  // M_ARENA_MAX in <malloc.h>
            _ = mallopt(arenaMaximum, 1)
        #endif
    }
}
