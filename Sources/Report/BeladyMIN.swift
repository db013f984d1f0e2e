/// Belady's MIN (1966), with bypass: the most hits any cache holding `capacity` items could have on a
/// sequence of references known in advance.
///
/// A reference is a lookup, which hits or misses, or a store: the app put the item in the cache without
/// looking it up first (a prefetch), which any cache may take or leave. On a miss or a store the item may
/// come in; when the cache is full, whichever of the cached items and the new one is next looked up
/// furthest in the future (or never) is left out. An item stored again before its next lookup counts as
/// never looked up: it comes back then anyway. For items of one size this is optimal: exchanging any
/// other choice for it never loses a hit before the later of the two next lookups, and keeps the nearer
/// one. With items of several sizes, `capacity` is the most items of the smallest size that fit, which
/// only raises the count: it stays a bound no cache of that size beats.
package enum BeladyMIN {
    /// One reference to a cache: a lookup (`isLookup`) or a store.
    package struct Reference<Key: Hashable>: Hashable {
        package let key: Key
        package let isLookup: Bool

        package init(_ key: Key, isLookup: Bool) {
            self.key = key
            self.isLookup = isLookup
        }
    }

    /// The hits of MIN on `lookups` alone, with room for `capacity` items.
    package static func hits<Key: Hashable>(lookups: [Key], capacity: Int) -> Int {
        hits(lookups.map { Reference($0, isLookup: true) }, capacity: capacity)
    }

    /// The lookup hits of MIN on `references` with room for `capacity` items.
    package static func hits<Key: Hashable>(_ references: [Reference<Key>], capacity: Int) -> Int {
        guard capacity > 0 else { return 0 }
        // Where each reference's key is next looked up, unless a store of it comes first (Int.max then,
        // and for never).
        var nextLookup = [Int](repeating: Int.max, count: references.count)
        var seen: [Key: Int] = [:]
        for index in references.indices.reversed() {
            let reference = references[index]
            nextLookup[index] = seen[reference.key] ?? Int.max
            seen[reference.key] = reference.isLookup ? index : Int.max
        }
        // The cached keys with where each is next looked up.
        var cached: [(key: Key, next: Int)] = []
        var hits = 0
        for (index, reference) in references.enumerated() {
            if let slot = cached.firstIndex(where: { $0.key == reference.key }) {
                if reference.isLookup { hits += 1 }
                cached[slot].next = nextLookup[index]
                continue
            }
            if cached.count < capacity {
                cached.append((reference.key, nextLookup[index]))
                continue
            }
            var furthest = 0
            for slot in cached.indices where cached[slot].next > cached[furthest].next { furthest = slot }
            if nextLookup[index] < cached[furthest].next {
                cached[furthest] = (reference.key, nextLookup[index])
            }
        }
        return hits
    }
}
