import Foundation
import Shared
import Testing

@testable import Imaging
@testable import Posters
@testable import UI
@testable import World

/// A picture keeps how its pixels were made, not the pixels (`ImagePixels`), and remembers a served
/// poster's bytes by its URL (`PNGBytes`): what it gives back must be exactly what it was made from.
extension ImagingTests {
    /// A URL of this suite's own, so other suites' posters never meet it.
    static func url(_ index: Int) -> String { "https://img.posters.test/image-pixels-\(index).png" }

    /// The bytes the simulated server sends for a URL: its generated poster, stamped.
    static func served(_ url: String, memo: PosterMemo) -> Data {
        Data(PosterStamp.stamp(memo.png(for: url), url: url))
    }

    /// Where a bitmap's pixels live.
    static func storage(_ bitmap: Bitmap) -> UInt? {
        bitmap.rgba.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } }
    }

    @Test("A served poster is remembered by its URL and gives back the very same bytes")
    func servedPosterRemembered() {
        let memo = PosterMemo(byteBudget: 8 << 20)
        let url = Self.url(1)
        let data = Self.served(url, memo: memo)
        let bytes = PNGBytes(data, source: url, memo: memo)
        guard case .servedPoster(url, data.count) = bytes else {
            Issue.record("expected the served poster to be remembered by its URL, got \(bytes)")
            return
        }
        #expect(bytes.data(memo: memo) == data)
        // Remembered the other way, the same bytes are equal and hash alike (a dictionary finds either).
        let kept = PNGBytes.kept(data, source: url)
        #expect(bytes == kept && kept == bytes)
        #expect(bytes.hashValue == kept.hashValue)
        #expect([kept: 1][bytes] == 1)
    }

    @Test("Bytes that differ from the served poster are kept as they are and compare unequal")
    func differingBytesKept() {
        let memo = PosterMemo(byteBudget: 8 << 20)
        let url = Self.url(2)
        let data = Self.served(url, memo: memo)
        // The same length and stamp, one byte of the image data changed.
        var changed = data
        changed[changed.count - 20] ^= 0xff
        let bytes = PNGBytes(changed, source: url, memo: memo)
        guard case .kept(changed, url) = bytes else {
            Issue.record("expected changed bytes to be kept, got \(bytes)")
            return
        }
        #expect(bytes != PNGBytes(data, source: url, memo: memo))
        // Not stamped with the URL it claims: not the served poster either.
        let unstamped = PNGBytes(Data(memo.png(for: url)), source: url, memo: memo)
        #expect(unstamped != PNGBytes(data, source: url, memo: memo))
    }

    @Test(
        "Pixels made again after the memo let them go are the same as the first time, and as a fresh decode")
    func pixelsMadeAgainMatch() throws {
        let memo = PosterMemo(byteBudget: 2 << 20)
        let url = Self.url(3)
        let data = Self.served(url, memo: memo)
        let decoded = ImagePixels.decoded(PNGBytes(data, source: url, memo: memo))
        let recipes = [
            decoded, .sepia(decoded, intensity: 0.8),
            .fitted(PNGBytes(data, source: url, memo: memo), width: 56, height: 76),
        ]
        let first = recipes.map { $0.bitmap(memo: memo) }
        // Other posters' work pushes this one's out of the small memo.
        for index in 10..<16 {
            let other = Self.served(Self.url(index), memo: memo)
            _ = ImagePixels.sepia(
                .decoded(PNGBytes(other, source: Self.url(index), memo: memo)), intensity: 0.8
            )
            .bitmap(memo: memo)
        }
        let again = recipes.map { $0.bitmap(memo: memo) }
        #expect(Self.storage(again[0]) != Self.storage(first[0]), "the decode was made again, not kept")
        #expect(again == first)
        let fresh = try PNGDecoder.decode([UInt8](data))
        #expect(again[0] == fresh)
        #expect(again[1] == SepiaFilter(intensity: 0.8).apply(to: fresh))
        #expect(again[2] == fresh.downsampled(toFit: 56, 76))
    }

}
