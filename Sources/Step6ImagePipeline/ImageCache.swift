import Shared

/// The memory cache: filtered posters by URL, bounded by their total cost in bytes, evicting the least
/// recently used first.
///
/// It lives on the main actor, as Nuke's and Kingfisher's memory caches are read on the main thread:
/// `cellForRow` shows a cached poster at once, without a suspension in between.
@PhoneMainActor
final class ImageCache {
    /// The most bytes of images the cache holds.
    let totalCostLimit: Int
    private(set) var totalCost = 0
    private var entries: [URL: Entry] = [:]
    private var clock = 0

    private struct Entry {
        let image: Image
        let cost: Int
        var lastUse: Int
    }

    init(totalCostLimit: Int) {
        self.totalCostLimit = totalCostLimit
    }

    /// The cached poster for a URL, marking it recently used; counts the lookup, a hit or a miss.
    func image(forKey url: URL) -> Image? {
        Instruments.memoryCacheLookup(url, hit: entries[url] != nil)
        guard var entry = entries[url] else { return nil }
        clock += 1
        entry.lastUse = clock
        entries[url] = entry
        return entry.image
    }

    /// Whether a URL's poster is cached (without touching it).
    func contains(_ url: URL) -> Bool {
        entries[url] != nil
    }

    /// Caches a poster, evicting least recently used ones until the total fits the limit.
    func setImage(_ image: Image, forKey url: URL) {
        Instruments.memoryCacheStored(url, cost: image.cost, limit: totalCostLimit)
        clock += 1
        if let old = entries[url] { totalCost -= old.cost }
        entries[url] = Entry(image: image, cost: image.cost, lastUse: clock)
        totalCost += image.cost
        while totalCost > totalCostLimit,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })
        {
            totalCost -= oldest.value.cost
            entries.removeValue(forKey: oldest.key)
        }
    }

    /// Empties the cache except for the URLs given (the posters on screen).
    func removeAll(keeping kept: Set<URL>) {
        for url in entries.keys where !kept.contains(url) {
            totalCost -= entries[url]!.cost
            entries.removeValue(forKey: url)
        }
    }
}
