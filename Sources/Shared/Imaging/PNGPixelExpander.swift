/// Turns reconstructed PNG scanlines of any colour type and bit depth into 8-bit RGBA pixels.
///
/// Sixteen-bit samples are rounded to eight bits (v / 257, rounded to nearest); samples of 1, 2
/// and 4 bits are scaled to the full 0–255 range. A `tRNS` colour key is compared at the
/// original bit depth and makes matching pixels fully transparent.
struct PNGPixelExpander {
    /// The image's header.
    let header: PNGHeader
    /// The palette as 256 RGBA entries (alpha from `tRNS`), for colour type 3.
    let palette: UnsafePointer<UInt8>
    /// Entries the `PLTE` chunk actually holds.
    let paletteCount: Int
    /// The transparent grey level (colour type 0) or red (colour type 2), or -1 for none.
    let keyRed: Int
    /// The transparent green (colour type 2), or -1.
    let keyGreen: Int
    /// The transparent blue (colour type 2), or -1.
    let keyBlue: Int

    /// Rounds a 16-bit sample, given as its two bytes, to 8 bits.
    @inline(__always)
    static func reduce(_ high: UInt8, _ low: UInt8) -> UInt8 {
        let value = Int(high) &<< 8 | Int(low)
        return UInt8(truncatingIfNeeded: (value &* 255 &+ 32895) &>> 16)
    }

    /// Expands one row of `pixels` pixels to RGBA, writing the first at `out` and each next
    /// one `outStride` bytes further on. Returns the error for a palette index out of range, or nil.
    func expand(
        row: UnsafePointer<UInt8>, pixels: Int, into out: UnsafeMutablePointer<UInt8>, outStride: Int
    ) -> PNGError? {
        var target = out
        var index = 0
        switch (header.colorType, header.bitDepth) {
        case (6, 8):
            if outStride == 4 {
                out.update(from: row, count: pixels * 4)
                return nil
            }
            var source = row
            while index < pixels {
                target[0] = source[0]
                target[1] = source[1]
                target[2] = source[2]
                target[3] = source[3]
                source += 4
                target += outStride
                index += 1
            }
        case (6, _):
            var source = row
            while index < pixels {
                target[0] = Self.reduce(source[0], source[1])
                target[1] = Self.reduce(source[2], source[3])
                target[2] = Self.reduce(source[4], source[5])
                target[3] = Self.reduce(source[6], source[7])
                source += 8
                target += outStride
                index += 1
            }
        case (2, 8):
            var source = row
            while index < pixels {
                let red = source[0]
                let green = source[1]
                let blue = source[2]
                target[0] = red
                target[1] = green
                target[2] = blue
                let keyed = Int(red) == keyRed && Int(green) == keyGreen && Int(blue) == keyBlue
                target[3] = keyed ? 0 : 255
                source += 3
                target += outStride
                index += 1
            }
        case (2, _):
            var source = row
            while index < pixels {
                target[0] = Self.reduce(source[0], source[1])
                target[1] = Self.reduce(source[2], source[3])
                target[2] = Self.reduce(source[4], source[5])
                let red = Int(source[0]) &<< 8 | Int(source[1])
                let green = Int(source[2]) &<< 8 | Int(source[3])
                let blue = Int(source[4]) &<< 8 | Int(source[5])
                target[3] = red == keyRed && green == keyGreen && blue == keyBlue ? 0 : 255
                source += 6
                target += outStride
                index += 1
            }
        case (4, 8):
            var source = row
            while index < pixels {
                let grey = source[0]
                target[0] = grey
                target[1] = grey
                target[2] = grey
                target[3] = source[1]
                source += 2
                target += outStride
                index += 1
            }
        case (4, _):
            var source = row
            while index < pixels {
                let grey = Self.reduce(source[0], source[1])
                target[0] = grey
                target[1] = grey
                target[2] = grey
                target[3] = Self.reduce(source[2], source[3])
                source += 4
                target += outStride
                index += 1
            }
        case (0, 16):
            var source = row
            while index < pixels {
                let grey = Self.reduce(source[0], source[1])
                target[0] = grey
                target[1] = grey
                target[2] = grey
                target[3] = Int(source[0]) &<< 8 | Int(source[1]) == keyRed ? 0 : 255
                source += 2
                target += outStride
                index += 1
            }
        case (0, _):
            let depth = header.bitDepth
            let mask = (1 &<< depth) - 1
            let scale = 255 / mask
            while index < pixels {
                let bitIndex = index * depth
                let sample = (Int(row[bitIndex &>> 3]) &>> (8 - depth - (bitIndex & 7))) & mask
                let grey = UInt8(truncatingIfNeeded: sample * scale)
                target[0] = grey
                target[1] = grey
                target[2] = grey
                target[3] = sample == keyRed ? 0 : 255
                target += outStride
                index += 1
            }
        default:
            // Colour type 3: palette indices of 1, 2, 4 or 8 bits.
            let depth = header.bitDepth
            let mask = (1 &<< depth) - 1
            while index < pixels {
                let bitIndex = index * depth
                let entry = (Int(row[bitIndex &>> 3]) &>> (8 - depth - (bitIndex & 7))) & mask
                guard entry < paletteCount else {
                    return .paletteIndexOutOfRange(index: entry, paletteSize: paletteCount)
                }
                let color = palette + entry * 4
                target[0] = color[0]
                target[1] = color[1]
                target[2] = color[2]
                target[3] = color[3]
                target += outStride
                index += 1
            }
        }
        return nil
    }
}
