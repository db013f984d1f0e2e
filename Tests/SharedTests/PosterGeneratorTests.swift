import Shared
import Testing

@testable import Imaging

/// Poster generator.
extension ImagingTests {
    /// Poster-like URLs over a few hosts and ids.
    static func sampleURLs(_ count: Int) -> [String] {
        let hosts = ["img1.posters.test", "img3.posters.test", "cdn.example.org"]
        return (0..<count).map { index in
            "https://\(hosts[index % hosts.count])/view/movie_poster_cover/mpst/public/p\(2_263_582_212 + index * 7919).png"
        }
    }

    @Test("The same URL gives the same pixels and the same PNG bytes")
    func sameURLSamePoster() {
        let url = "https://img1.posters.test/view/movie_poster_cover/mpst/public/p2263582212.png"
        #expect(PosterGenerator.poster(for: url) == PosterGenerator.poster(for: url))
        #expect(PosterGenerator.pngData(for: url) == PosterGenerator.pngData(for: url))
        #expect(
            PosterGenerator.pngData(for: url) == PNGEncoder.encode(PosterGenerator.poster(for: url)))
    }

    @Test("Different URLs give different posters, bytes and hashes")
    func differentURLsDifferentPosters() {
        let urls =
            Self.sampleURLs(12) + [
                "https://img1.posters.test/a.png", "https://img1.posters.test/b.png",
            ]
        let hashes = urls.map { PosterGenerator.poster(for: $0).contentHash }
        let files = urls.map { PosterGenerator.pngData(for: $0) }
        #expect(Set(hashes).count == urls.count)
        #expect(Set(files).count == urls.count)
    }

    @Test("A poster's hash does not depend on anything but its URL (pinned value)")
    func posterHashIsPinned() {
        // Pinned on first generation: a change here means every poster in every report changed.
        let url = "https://img1.posters.test/view/movie_poster_cover/mpst/public/p2263582212.png"
        #expect(PosterGenerator.poster(for: url).contentHash == "8d4f412426e258c8")
    }

    @Test("Posters are 180×270 and opaque")
    func postersAreOpaqueAtTheirSize() {
        for url in Self.sampleURLs(4) {
            let poster = PosterGenerator.poster(for: url)
            #expect(poster.width == 180 && poster.height == 270)
            #expect(PosterGenerator.width == 180 && PosterGenerator.height == 270)
            #expect(
                !stride(from: 3, to: poster.rgba.count, by: 4).contains { poster.rgba[$0] != 255 })
        }
    }

    @Test("Encoded posters land between 15 KB and 150 KB and spread across that range")
    func encodedSizesSpreadInRange() {
        let sizes = Self.sampleURLs(36).map { PosterGenerator.pngData(for: $0).count }
        #expect(sizes.allSatisfy { $0 >= 15_000 && $0 <= 150_000 }, "sizes: \(sizes.sorted())")
        // The grain levels should spread sizes, not pile them up in one place.
        #expect(sizes.max()! - sizes.min()! > 40_000, "sizes: \(sizes.sorted())")
    }

}
