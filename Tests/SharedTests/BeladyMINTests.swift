import Testing

@testable import Report

/// Belady's MIN against every way a cache could choose, on small sequences.
extension ImagingTests {
    @Test("MIN has as many hits as the best of every admission and eviction choice")
    func minMatchesBestChoice() {
        for batch in 0..<8 { Self.matchBruteForce(batch: batch) }
    }

    @Test("MIN keeps what comes back soonest where LRU would not")
    func minKeepsWhatReturnsSoonest() {
        // A loop one longer than the cache: LRU misses every lookup, MIN keeps two of the three.
        let loop = Array(repeating: [1, 2, 3], count: 4).flatMap { $0 }
        #expect(BeladyMIN.hits(lookups: loop, capacity: 2) > 0)
        #expect(BeladyMIN.hits(lookups: loop, capacity: 0) == 0)
        #expect(BeladyMIN.hits(lookups: [1, 1, 1], capacity: 1) == 2)
    }

    /// Compares MIN with every choice on 40 generated sequences of one batch.
    static func matchBruteForce(batch: Int) {
        var state = UInt64(batch) &* 0x9E37_79B9_7F4A_7C15 | 1
        func below(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        for _ in 0..<40 {
            let keys = 2 + below(4)
            // Some of the references are stores (prefetches), which bring an item in without a lookup.
            let references = (0..<(1 + below(11))).map { _ in
                BeladyMIN.Reference(below(keys), isLookup: below(4) != 0)
            }
            let capacity = below(4)
            #expect(
                BeladyMIN.hits(references, capacity: capacity)
                    == bestHits(references, capacity: capacity),
                "\(references.map { "\($0.isLookup ? "" : "store ")\($0.key)" }) with room for \(capacity)")
        }
    }

    /// The most lookup hits over every choice a cache of `capacity` items could make on each miss and
    /// store: keep the item or not, and which cached item to drop for it.
    static func bestHits(
        _ references: [BeladyMIN.Reference<Int>], capacity: Int, from index: Int = 0, cached: Set<Int> = []
    ) -> Int {
        guard index < references.count else { return 0 }
        let key = references[index].key
        if cached.contains(key) {
            return (references[index].isLookup ? 1 : 0)
                + bestHits(references, capacity: capacity, from: index + 1, cached: cached)
        }
        var best = bestHits(references, capacity: capacity, from: index + 1, cached: cached)
        guard capacity > 0 else { return best }
        if cached.count < capacity {
            best = max(
                best, bestHits(references, capacity: capacity, from: index + 1, cached: cached.union([key])))
        } else {
            for dropped in cached {
                var next = cached
                next.remove(dropped)
                next.insert(key)
                best = max(best, bestHits(references, capacity: capacity, from: index + 1, cached: next))
            }
        }
        return best
    }
}
