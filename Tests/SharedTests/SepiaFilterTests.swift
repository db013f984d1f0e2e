import Shared
import Testing

@testable import Imaging

/// Sepia filter.
extension ImagingTests {
    /// One pixel of a colour, filtered.
    static func filter(_ color: RGBA, intensity: Double) -> RGBA {
        SepiaFilter(intensity: intensity).apply(to: Bitmap(width: 1, height: 1, filledWith: color)).pixel(
            x: 0, y: 0)
    }

    // Expected values worked by hand from the formula in SepiaFilter.swift:
    //   k: 0.8 → 204.8 → 205; 0.5 → 128; 1 → 256.
    //   white (255,255,255): sepia = (352665+512)>>10 = 344 → 255, (313905+512)>>10 = 307 → 255,
    //     (244800+512)>>10 = 239.  Blue at k=205: 255 + ((−16·205+128)>>8) = 255 + (−3152>>8) = 255 − 13 = 242;
    //     at k=128: 255 + (−1920>>8) = 255 − 8 = 247.
    //   grey (128,128,128): sepia = 177536>>10 = 173, 158080>>10 = 154, 123392>>10 = 120.
    //     k=205: 128 + (9353>>8) = 164, 128 + (5458>>8) = 149, 128 + (−1512>>8) = 122.
    //     k=128: 128 + (5888>>8) = 151, 128 + (3456>>8) = 141, 128 + (−896>>8) = 124.
    //   red (255,0,0): sepia = (102510+512)>>10 = 100, (91035+512)>>10 = 89, (71145+512)>>10 = 69.
    //     k=205: 255 + (−31647>>8) = 131, 18373>>8 = 71, 14273>>8 = 55.
    //     k=128: 255 + (−19712>>8) = 178, 11520>>8 = 45, 8960>>8 = 35.

    @Test("The sepia filter gives the hand-computed pixel", arguments: SepiaPixel.all)
    func sepiaPixel(_ case: SepiaPixel) {
        #expect(Self.filter(`case`.color, intensity: `case`.intensity) == `case`.expected)
    }

    @Test("The sepia filter passes alpha through unchanged")
    func sepiaKeepsAlpha() {
        let pixel = Self.filter(RGBA(red: 128, green: 128, blue: 128, alpha: 77), intensity: 0.8)
        #expect(pixel == RGBA(red: 164, green: 149, blue: 122, alpha: 77))
    }

    @Test("The sepia filter at intensity 0 returns exactly the input")
    func sepiaAtZeroIsIdentity() {
        var random = SeededGenerator(seed: 5)
        let bitmap = Bitmap(width: 31, height: 9, rgba: random.bytes(31 * 9 * 4))
        #expect(SepiaFilter(intensity: 0).apply(to: bitmap) == bitmap)
    }

    @Test("The sepia filter clamps out-of-range and non-finite intensities instead of trapping")
    func sepiaClampsIntensity() {
        let grey = RGBA(red: 128, green: 128, blue: 128)
        #expect(Self.filter(grey, intensity: -1) == grey)
        #expect(Self.filter(grey, intensity: .nan) == grey)
        #expect(Self.filter(grey, intensity: -.infinity) == grey)
        #expect(Self.filter(grey, intensity: 2) == RGBA(red: 173, green: 154, blue: 120))
        #expect(Self.filter(grey, intensity: .infinity) == RGBA(red: 173, green: 154, blue: 120))
    }

    @Test("The sepia filter is deterministic and keeps the size")
    func sepiaIsDeterministic() {
        var random = SeededGenerator(seed: 11)
        let bitmap = Bitmap(width: 40, height: 30, rgba: random.bytes(40 * 30 * 4))
        let first = SepiaFilter(intensity: 0.8).apply(to: bitmap)
        let second = SepiaFilter(intensity: 0.8).apply(to: bitmap)
        #expect(first == second)
        #expect(first.width == 40 && first.height == 30)
        #expect(first != bitmap)
    }
}

/// One opaque colour through the sepia filter at one intensity, and the pixel worked by hand.
struct SepiaPixel: Sendable, CustomTestStringConvertible {
    let name: String
    let color: RGBA
    let intensity: Double
    let expected: RGBA

    var testDescription: String { "\(name) at intensity \(intensity)" }

    private static let white = RGBA(red: 255, green: 255, blue: 255)
    private static let black = RGBA(red: 0, green: 0, blue: 0)
    private static let grey = RGBA(red: 128, green: 128, blue: 128)
    private static let red = RGBA(red: 255, green: 0, blue: 0)

    /// Intensity 0.8 is the articles' setting; at 1 the result is the clamped sepia matrix.
    static let all: [SepiaPixel] = [
        SepiaPixel(
            name: "white", color: white, intensity: 0.8, expected: RGBA(red: 255, green: 255, blue: 242)),
        SepiaPixel(name: "black", color: black, intensity: 0.8, expected: black),
        SepiaPixel(
            name: "grey", color: grey, intensity: 0.8, expected: RGBA(red: 164, green: 149, blue: 122)),
        SepiaPixel(name: "red", color: red, intensity: 0.8, expected: RGBA(red: 131, green: 71, blue: 55)),
        SepiaPixel(
            name: "white", color: white, intensity: 1, expected: RGBA(red: 255, green: 255, blue: 239)),
        SepiaPixel(name: "black", color: black, intensity: 1, expected: black),
        SepiaPixel(name: "grey", color: grey, intensity: 1, expected: RGBA(red: 173, green: 154, blue: 120)),
        SepiaPixel(name: "red", color: red, intensity: 1, expected: RGBA(red: 100, green: 89, blue: 69)),
        SepiaPixel(
            name: "white", color: white, intensity: 0.5, expected: RGBA(red: 255, green: 255, blue: 247)),
        SepiaPixel(
            name: "grey", color: grey, intensity: 0.5, expected: RGBA(red: 151, green: 141, blue: 124)),
        SepiaPixel(name: "red", color: red, intensity: 0.5, expected: RGBA(red: 178, green: 45, blue: 35)),
    ]

}
