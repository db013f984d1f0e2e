/// The articles' sepia tone (CoreImage's `CISepiaTone`, used there at intensity 0.8), in
/// integer fixed-point so every platform produces the same bytes.
///
/// The exact formula, for each pixel with channels r, g, b (0...255) and alpha a:
///
/// 1. The intensity becomes a weight k in 0...256, once, in `init`:
///    k = 0 if the intensity is NaN or ≤ 0; k = 256 if it is ≥ 1 (including +∞);
///    otherwise k = intensity × 256 rounded to the nearest integer, halves away from zero
///    (the product is exact in binary floating point, so this is the same everywhere).
///    Intensity 0.8 gives k = 205 (204.8 rounded); 0.5 gives 128; 1 gives 256.
/// 2. The classic sepia matrix, its coefficients scaled by 1024 and rounded to nearest
///    (0.393 → 402, 0.769 → 787, 0.189 → 194; 0.349 → 357, 0.686 → 702, 0.168 → 172;
///    0.272 → 279, 0.534 → 547, 0.131 → 134), rounded half up and clamped to 255:
///
///        sr = min(255, (402·r + 787·g + 194·b + 512) >> 10)
///        sg = min(255, (357·r + 702·g + 172·b + 512) >> 10)
///        sb = min(255, (279·r + 547·g + 134·b + 512) >> 10)
///
/// 3. A blend toward the sepia colour by k/256, rounded half up, i.e. floor(x/256 + 1/2),
///    also for negative differences (`>>` is an arithmetic shift, rounding toward −∞):
///
///        r' = r + (((sr − r)·k + 128) >> 8)     and likewise g', b'
///        a' = a
///
/// Every result lies between the original and the sepia value, so it fits a byte. With
/// k = 0 the output is exactly the input; with k = 256 it is exactly the clamped sepia colour.
public struct SepiaFilter: Sendable {
    /// The blend weight k, 0 (no change) ... 256 (full sepia).
    let weight: Int

    /// Makes a filter; `intensity` 0 leaves images unchanged, 1 gives full sepia.
    ///
    /// Out-of-range values are clamped to 0...1 and NaN counts as 0; none of them traps.
    public init(intensity: Double) {
        if intensity.isNaN || intensity <= 0 {
            weight = 0
        } else if intensity >= 1 {
            weight = 256
        } else {
            weight = Int((intensity * 256).rounded(.toNearestOrAwayFromZero))
        }
    }

    /// The filtered copy of a bitmap (same size; alpha unchanged).
    public func apply(to bitmap: Bitmap) -> Bitmap {
        var result = bitmap
        guard self.weight > 0 else { return result }
        let weight = Int32(self.weight)
        result.rgba.withUnsafeMutableBytes { bytes in
            let pixelCount = bytes.count / 4
            guard let base = bytes.baseAddress, pixelCount > 0 else { return }
            if Int(bitPattern: base) % MemoryLayout<UInt32>.alignment == 0 {
                // One little-endian word per pixel: loads and stores of whole words (and 32-bit
                // arithmetic) let the release build vectorize the loop.
                base.withMemoryRebound(to: UInt32.self, capacity: pixelCount) { words in
                    var index = 0
                    while index < pixelCount {
                        words[index] = UInt32(
                            littleEndian: filtered(UInt32(littleEndian: words[index]), weight: weight))
                        index &+= 1
                    }
                }
            } else {
                let pixels = base.assumingMemoryBound(to: UInt8.self)
                var offset = 0
                while offset < pixelCount * 4 {
                    let word =
                        UInt32(pixels[offset]) | UInt32(pixels[offset + 1]) &<< 8 | UInt32(pixels[offset + 2])
                        &<< 16
                        | UInt32(pixels[offset + 3]) &<< 24
                    let out = filtered(word, weight: weight)
                    pixels[offset] = UInt8(truncatingIfNeeded: out)
                    pixels[offset + 1] = UInt8(truncatingIfNeeded: out &>> 8)
                    pixels[offset + 2] = UInt8(truncatingIfNeeded: out &>> 16)
                    offset &+= 4
                }
            }
        }
        return result
    }

    /// One pixel through the formula; the pixel is red in the low byte, alpha in the high byte.
    ///
    /// Wrapping operators throughout: every intermediate value is provably in range (see the
    /// formula), and without overflow checks the release build vectorizes the callers' loops.
    @inline(__always)
    func filtered(_ pixel: UInt32, weight: Int32) -> UInt32 {
        let red = Int32(bitPattern: pixel & 0xff)
        let green = Int32(bitPattern: pixel &>> 8 & 0xff)
        let blue = Int32(bitPattern: pixel &>> 16 & 0xff)
        var sepiaRed = (402 &* red &+ 787 &* green &+ 194 &* blue &+ 512) &>> 10
        var sepiaGreen = (357 &* red &+ 702 &* green &+ 172 &* blue &+ 512) &>> 10
        var sepiaBlue = (279 &* red &+ 547 &* green &+ 134 &* blue &+ 512) &>> 10
        sepiaRed = sepiaRed > 255 ? 255 : sepiaRed
        sepiaGreen = sepiaGreen > 255 ? 255 : sepiaGreen
        sepiaBlue = sepiaBlue > 255 ? 255 : sepiaBlue
        let newRed = red &+ (((sepiaRed &- red) &* weight &+ 128) &>> 8)
        let newGreen = green &+ (((sepiaGreen &- green) &* weight &+ 128) &>> 8)
        let newBlue = blue &+ (((sepiaBlue &- blue) &* weight &+ 128) &>> 8)
        return pixel & 0xff00_0000 | UInt32(bitPattern: newRed | newGreen &<< 8 | newBlue &<< 16)
    }
}
