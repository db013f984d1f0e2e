/// Belady's MIN (1966), with bypass: the most hits any cache holding `capacity` items could have on a
/// sequence of lookups known in advance.
///
/// On a miss the item is brought in; when the cache is full, whichever of the cached items and the new one
/// is next wanted furthest in the future (or never) is left out. For items of one size this is optimal:
/// exchanging any other choice for it never loses a hit before the later of the two next uses, and keeps
/// the nearer one. With items of several sizes, `capacity` is the most items of the smallest size that
/// fit, which only raises the count: it stays a bound no cache of that size beats.
package enum BeladyMIN {
    /// The hits of MIN on `lookups` with room for `capacity` items.
    package static func hits<Key: Hashable>(_ lookups: [Key], capacity: Int) -> Int {
        guard capacity > 0 else { return 0 }
        // Where each lookup's key is next looked up (Int.max for never).
        var nextUse = [Int](repeating: Int.max, count: lookups.count)
        var seen: [Key: Int] = [:]
        for index in lookups.indices.reversed() {
            nextUse[index] = seen[lookups[index]] ?? Int.max
            seen[lookups[index]] = index
        }
        // The cached keys with where each is next looked up.
        var cached: [(key: Key, next: Int)] = []
        var hits = 0
        for (index, key) in lookups.enumerated() {
            if let slot = cached.firstIndex(where: { $0.key == key }) {
                hits += 1
                cached[slot].next = nextUse[index]
                continue
            }
            if cached.count < capacity {
                cached.append((key, nextUse[index]))
                continue
            }
            var furthest = 0
            for slot in cached.indices where cached[slot].next > cached[furthest].next { furthest = slot }
            if nextUse[index] < cached[furthest].next {
                cached[furthest] = (key, nextUse[index])
            }
        }
        return hits
    }
}
