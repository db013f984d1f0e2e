import Foundation
import Shared
import Testing

@testable import Imaging
@testable import Step4CacheAndPrefetch
@testable import UI
@testable import World

/// Step 4's memory cache on its own: bounded by cost, evicting the least recently used poster first.
/// (`Course check 4.8` runs these against the student's `setImage`.)
@Suite("Step 4's memory cache")
struct ImageCacheTests {
    /// A poster of `bytes / 4` pixels, so its cost is `bytes`.
    static func poster(_ bytes: Int) -> Image {
        Image(
            bitmap: Bitmap(width: bytes / 4, height: 1, filledWith: RGBA(red: 9, green: 9, blue: 9)),
            kind: .poster, sourceURL: nil, downloadID: nil, isFiltered: true, tracker: nil)
    }

    static func url(_ index: Int) -> URL {
        URL(string: "https://img.posters.test/p\(index).png")!
    }

    @Test("The memory cache evicts the least recently used poster first")
    func evictsLeastRecentlyUsed() {
        let cache = Step4CacheAndPrefetch.ImageCache(totalCostLimit: 300)
        for index in 0..<3 { cache.setImage(Self.poster(100), forKey: Self.url(index)) }
        #expect((0..<3).allSatisfy { cache.contains(Self.url($0)) }, "three posters fit the limit")
        _ = cache.image(forKey: Self.url(0))
        cache.setImage(Self.poster(100), forKey: Self.url(3))
        #expect(cache.contains(Self.url(0)), "the poster just used stays")
        #expect(!cache.contains(Self.url(1)), "the least recently used one goes")
        #expect(cache.contains(Self.url(2)) && cache.contains(Self.url(3)))
    }

    @Test("Replacing a poster counts its cost once")
    func replacingCountsCostOnce() {
        let cache = Step4CacheAndPrefetch.ImageCache(totalCostLimit: 1000)
        cache.setImage(Self.poster(400), forKey: Self.url(1))
        cache.setImage(Self.poster(200), forKey: Self.url(1))
        #expect(cache.totalCost == 200)
    }

    @Test("Whatever is stored and read, the cache stays within its limit and holds what it says")
    func staysWithinLimit() {
        for seed in 0..<8 { Self.storeAndRead(seed: seed) }
    }

    /// Stores and reads 200 generated posters, checking the cost after each.
    static func storeAndRead(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 1)
        let limit = 1000
        let cache = Step4CacheAndPrefetch.ImageCache(totalCostLimit: limit)
        var costs: [Int: Int] = [:]
        for _ in 0..<200 {
            let key = Int(generator.next() % 12)
            if generator.next() % 3 == 0 {
                _ = cache.image(forKey: Self.url(key))
            } else {
                let cost = 4 * Int(1 + generator.next() % 100)
                cache.setImage(Self.poster(cost), forKey: Self.url(key))
                costs[key] = cost
                #expect(
                    cache.contains(Self.url(key)),
                    "seed \(seed): a poster within the limit is kept when stored")
            }
            let held = costs.keys.filter { cache.contains(Self.url($0)) }.map { costs[$0]! }.reduce(0, +)
            #expect(cache.totalCost <= limit, "seed \(seed)")
            #expect(cache.totalCost == held, "seed \(seed): totalCost is the cost of the posters held")
        }
    }
}
