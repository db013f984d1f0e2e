/// Paints a movie poster for any URL: the same URL gives the same pixels on every run and machine.
///
/// The 64-bit FNV-1a hash of the URL's UTF-8 bytes seeds a `SeededGenerator` (SplitMix64), and every
/// choice below is drawn from that stream in a fixed order:
/// 1. a palette: a base hue, its background pair and an accent near the complementary hue;
/// 2. a vertical background gradient from a dark tone of the base hue to a lighter one of a nearby hue;
/// 3. three to six shapes (discs, rectangles, diagonal stripe panels), translucent;
/// 4. a "title band": a dark translucent strip in the lower third holding light blocks
///    that stand for the words of a title;
/// 5. film grain: seeded noise added to all or some of the pixels, at one of
///    `grainLevels` (also drawn from the stream), which spreads the PNG sizes over about
///    20–130 KB, like real poster thumbnails (measured over 300 URLs: 20.6–127 KB,
///    median 75 KB).
///
/// Only integer arithmetic touches pixels, so there is nothing a platform could round
/// differently; `Hasher` is never used (it is seeded per process).
public enum PosterGenerator {
    /// Poster width in pixels.
    public static let width = 180
    /// Poster height in pixels.
    public static let height = 270

    /// The film-grain levels a poster draws from, lightest first: the largest luminance
    /// offset added to a pixel, and how many pixels in 16 get grain at all.
    static let grainLevels: [(strength: Int, coverage: Int)] = [
        (1, 5), (1, 9), (1, 16), (2, 4), (2, 10), (2, 16), (3, 16), (4, 16), (6, 16), (9, 16), (14, 16),
        (20, 16), (28, 16),
    ]

    /// The poster for a URL, fully opaque.
    public static func poster(for url: String) -> Bitmap {
        var random = SeededGenerator(seed: FNV1a64.hash(url))
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { buffer in
            let canvas = buffer.baseAddress!
            let baseHue = random.next(in: 0...1535)
            let top = color(
                hue: baseHue, saturation: random.next(in: 120...230), value: random.next(in: 30...90))
            let bottom = color(
                hue: (baseHue + random.next(in: 64...320)) % 1536, saturation: random.next(in: 100...220),
                value: random.next(in: 140...235))
            let accentHue = (baseHue + 768 + random.next(in: -160...160) + 1536) % 1536
            paintGradient(canvas, top: top, bottom: bottom)

            let shapeCount = random.next(in: 3...6)
            for _ in 0..<shapeCount {
                let hue = random.next(in: 0...3) == 0 ? baseHue : accentHue
                let paint = color(
                    hue: (hue + random.next(in: -96...96) + 1536) % 1536,
                    saturation: random.next(in: 90...255),
                    value: random.next(in: 90...255))
                let opacity = random.next(in: 110...230)
                switch random.next(in: 0...2) {
                case 0:
                    paintDisc(
                        canvas, centerX: random.next(in: 0...width),
                        centerY: random.next(in: 0...(height * 2 / 3)),
                        radius: random.next(in: 14...70), color: paint, opacity: opacity)
                case 1:
                    let left = random.next(in: -20...(width - 20))
                    let topEdge = random.next(in: -20...(height - 40))
                    paintRectangle(
                        canvas, left: left, top: topEdge, right: left + random.next(in: 20...120),
                        bottom: topEdge + random.next(in: 20...160), color: paint, opacity: opacity)
                default:
                    let topEdge = random.next(in: 0...(height - 60))
                    paintStripes(
                        canvas, top: topEdge, bottom: topEdge + random.next(in: 30...90),
                        period: random.next(in: 8...24), color: paint, opacity: opacity)
                }
            }

            let bandTop = random.next(in: (height * 2 / 3)...(height - 60))
            let bandBottom = bandTop + random.next(in: 34...50)
            paintRectangle(
                canvas, left: 0, top: bandTop, right: width, bottom: bandBottom,
                color: RGBA(red: 16, green: 12, blue: 20),
                opacity: 200)
            let ink = color(
                hue: accentHue, saturation: random.next(in: 0...80), value: random.next(in: 200...255))
            var wordLeft = random.next(in: 8...20)
            let letterTop = bandTop + (bandBottom - bandTop) / 2 - 7
            while wordLeft < width - 24 {
                let wordRight = min(wordLeft + random.next(in: 14...48), width - 8)
                var letterLeft = wordLeft
                while letterLeft < wordRight {
                    let letterHeight = random.next(in: 9...14)
                    paintRectangle(
                        canvas, left: letterLeft, top: letterTop + 14 - letterHeight, right: letterLeft + 5,
                        bottom: letterTop + 14, color: ink, opacity: 240)
                    letterLeft += 7
                }
                wordLeft = wordRight + random.next(in: 7...12)
            }

            let grain = grainLevels[random.next(in: 0...(grainLevels.count - 1))]
            addGrain(canvas, strength: grain.strength, coverage: grain.coverage, random: &random)
        }
        return Bitmap(width: width, height: height, rgba: pixels)
    }

    /// The poster for a URL as PNG file bytes, truecolour as posters have always been
    /// (`PNGEncoder.encodeTruecolour(_:)`).
    public static func pngData(for url: String) -> [UInt8] {
        PNGEncoder.encodeTruecolour(poster(for: url))
    }

    /// An opaque colour from an integer hue (0..<1536: six 256-step sectors, red at 0),
    /// saturation and value (each 0...255).
    static func color(hue: Int, saturation: Int, value: Int) -> RGBA {
        let sector = hue / 256
        let fraction = hue % 256
        let low = value * (255 - saturation) / 255
        let falling = value * (255 * 255 - saturation * fraction) / (255 * 255)
        let rising = value * (255 * 255 - saturation * (255 - fraction)) / (255 * 255)
        let (red, green, blue): (Int, Int, Int)
        switch sector {
        case 0: (red, green, blue) = (value, rising, low)
        case 1: (red, green, blue) = (falling, value, low)
        case 2: (red, green, blue) = (low, value, rising)
        case 3: (red, green, blue) = (low, falling, value)
        case 4: (red, green, blue) = (rising, low, value)
        default: (red, green, blue) = (value, low, falling)
        }
        return RGBA(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
    }

    /// Fills the canvas with a vertical gradient, `top` in the first row to `bottom` in the last.
    static func paintGradient(_ canvas: UnsafeMutablePointer<UInt8>, top: RGBA, bottom: RGBA) {
        let span = height - 1
        for row in 0..<height {
            func mixed(_ first: UInt8, _ last: UInt8) -> UInt8 {
                let from = Int(first)
                let change: Int = (Int(last) - from) * row / span
                return UInt8(from + change)
            }
            let red = mixed(top.red, bottom.red)
            let green = mixed(top.green, bottom.green)
            let blue = mixed(top.blue, bottom.blue)
            var offset = row * width * 4
            let end = offset + width * 4
            while offset < end {
                canvas[offset] = red
                canvas[offset + 1] = green
                canvas[offset + 2] = blue
                offset += 4
            }
        }
    }

    /// Blends `color` over a run of `count` pixels of one row starting at pixel (x, y), clipped
    /// to the canvas: each channel moves `opacity`/256 of the way to the colour, rounded down.
    static func blendRun(
        _ canvas: UnsafeMutablePointer<UInt8>, x: Int, y: Int, count: Int, color: RGBA, opacity: Int
    ) {
        guard y >= 0 && y < height else { return }
        let start = x < 0 ? 0 : x
        let end = x + count > width ? width : x + count
        guard start < end else { return }
        let red = Int(color.red)
        let green = Int(color.green)
        let blue = Int(color.blue)
        var offset = (y * width + start) * 4
        let endOffset = (y * width + end) * 4
        while offset < endOffset {
            let oldRed = Int(canvas[offset])
            let oldGreen = Int(canvas[offset + 1])
            let oldBlue = Int(canvas[offset + 2])
            canvas[offset] = UInt8(oldRed + (((red - oldRed) * opacity) >> 8))
            canvas[offset + 1] = UInt8(oldGreen + (((green - oldGreen) * opacity) >> 8))
            canvas[offset + 2] = UInt8(oldBlue + (((blue - oldBlue) * opacity) >> 8))
            offset += 4
        }
    }

    /// Blends a rectangle (left and top inclusive, right and bottom exclusive), clipped to the canvas.
    static func paintRectangle(
        _ canvas: UnsafeMutablePointer<UInt8>, left: Int, top: Int, right: Int, bottom: Int, color: RGBA,
        opacity: Int
    ) {
        var y = top
        while y < bottom {
            blendRun(canvas, x: left, y: y, count: right - left, color: color, opacity: opacity)
            y += 1
        }
    }

    /// Blends a filled disc (the pixels whose distance to the centre is at most `radius`), clipped.
    static func paintDisc(
        _ canvas: UnsafeMutablePointer<UInt8>, centerX: Int, centerY: Int, radius: Int, color: RGBA,
        opacity: Int
    ) {
        var dy = -radius
        while dy <= radius {
            // The widest dx with dx² + dy² ≤ radius²: an integer square root by counting up.
            let limit = radius * radius - dy * dy
            var halfWidth = 0
            while (halfWidth + 1) * (halfWidth + 1) <= limit {
                halfWidth += 1
            }
            blendRun(
                canvas, x: centerX - halfWidth, y: centerY + dy, count: 2 * halfWidth + 1, color: color,
                opacity: opacity)
            dy += 1
        }
    }

    /// Blends diagonal stripes across the full width between two rows: in each row, the
    /// pixels with (x + y) mod `period` below `period`/2.
    static func paintStripes(
        _ canvas: UnsafeMutablePointer<UInt8>, top: Int, bottom: Int, period: Int, color: RGBA, opacity: Int
    ) {
        let half = period / 2
        var y = top
        while y < bottom {
            // The first stripe starts where (x + y) is a multiple of the period, possibly left of 0.
            var x = -(y % period)
            while x < width {
                blendRun(canvas, x: x, y: y, count: half, color: color, opacity: opacity)
                x += period
            }
            y += 1
        }
    }

    /// Adds film grain: to a pixel, with probability `coverage`/16, a luminance offset in
    /// −strength...strength plus a smaller offset per channel in −strength/2...strength/2,
    /// clamped to 0...255.
    ///
    /// Each 64-bit value of the stream serves two pixels, 24 bits each: 4 bits decide
    /// coverage, 8 bits pick the luminance offset and 4 bits each the channel offsets, through
    /// tables built once (offset = index × span / 2^bits − strength, rounded down).
    static func addGrain(
        _ canvas: UnsafeMutablePointer<UInt8>, strength: Int, coverage: Int, random: inout SeededGenerator
    ) {
        let lumaOffsets = UnsafeMutablePointer<Int>.allocate(capacity: 256)
        let chromaOffsets = UnsafeMutablePointer<Int>.allocate(capacity: 16)
        defer {
            lumaOffsets.deallocate()
            chromaOffsets.deallocate()
        }
        let chromaStrength = strength / 2
        for index in 0..<256 {
            lumaOffsets[index] = index * (2 * strength + 1) / 256 - strength
        }
        for index in 0..<16 {
            chromaOffsets[index] = index * (2 * chromaStrength + 1) / 16 - chromaStrength
        }
        let end = width * height * 4
        var offset = 0
        var bits: UInt64 = 0
        var bitsLeft = 0
        // The generator's counter stepped here rather than through `next()` (a mutating call per value
        // is slow in debug builds); the generator continues from the same counter afterwards.
        var state = random.state
        while offset < end {
            if bitsLeft == 0 {
                state &+= SeededGenerator.increment
                bits = SeededGenerator.scramble(state)
                bitsLeft = 2
            }
            let slice = Int(truncatingIfNeeded: bits & 0xff_ffff)
            bits >>= 24
            bitsLeft -= 1
            if slice & 0xf < coverage {
                let luma = lumaOffsets[(slice >> 4) & 0xff]
                let red = Int(canvas[offset]) + luma + chromaOffsets[(slice >> 12) & 0xf]
                let green = Int(canvas[offset + 1]) + luma + chromaOffsets[(slice >> 16) & 0xf]
                let blue = Int(canvas[offset + 2]) + luma + chromaOffsets[slice >> 20]
                canvas[offset] = UInt8(red < 0 ? 0 : (red > 255 ? 255 : red))
                canvas[offset + 1] = UInt8(green < 0 ? 0 : (green > 255 ? 255 : green))
                canvas[offset + 2] = UInt8(blue < 0 ? 0 : (blue > 255 ? 255 : blue))
            }
            offset += 4
        }
        random = SeededGenerator(seed: state)
    }
}
