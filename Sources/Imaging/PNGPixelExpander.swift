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

    /// Sample `index` of a row of `depth`-bit samples (1, 2, 4 or 8), packed as PNG packs them: the first
    /// in the highest bits of the first byte.
    @inline(__always)
    static func packedSample(_ row: UnsafePointer<UInt8>, at index: Int, depth: Int) -> Int {
        let bitIndex = index &* depth
        return (Int(row[bitIndex &>> 3]) &>> (8 &- depth &- (bitIndex & 7))) & ((1 &<< depth) &- 1)
    }

    /// Expands one row of `pixels` pixels to RGBA, writing the first at `out` and each next
    /// one `outStride` bytes further on. Returns the error for a palette index out of range, or nil.
    func expand(
        row: UnsafePointer<UInt8>, pixels: Int, into out: UnsafeMutablePointer<UInt8>, outStride: Int
    ) -> PNGError? {
        if outStride == 4, header.bitDepth == 8,
            let expanded = expandWhole(row: row, pixels: pixels, into: out)
        {
            return expanded.error
        }
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
        case (2, 8) where keyRed < 0:
            // No colour key: every pixel is opaque.
            var source = row
            while index < pixels {
                target[0] = source[0]
                target[1] = source[1]
                target[2] = source[2]
                target[3] = 255
                source += 3
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
            // Greyscale of 1, 2, 4 or 8 bits, scaled to 0–255.
            let depth = header.bitDepth
            let scale = 255 / ((1 &<< depth) - 1)
            while index < pixels {
                let sample = Self.packedSample(row, at: index, depth: depth)
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
            while index < pixels {
                let entry = Self.packedSample(row, at: index, depth: depth)
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

    /// The outcome of `expandWhole`: the row was expanded, with `error` nil, or it failed.
    struct Expanded {
        /// The error for a palette index out of range, or nil.
        var error: PNGError?
    }

    /// Expands a row of 8-bit samples into consecutive RGBA pixels a whole pixel at a time: each pixel
    /// is built as one 32-bit number and stored at once. Returns nil for the layouts it does not handle.
    func expandWhole(row: UnsafePointer<UInt8>, pixels: Int, into out: UnsafeMutablePointer<UInt8>)
        -> Expanded?
    {
        let target = UnsafeMutableRawPointer(out)
        let source = UnsafeRawPointer(row)
        let opaque: UInt32 = 0xff00_0000
        var index = 0
        switch header.colorType {
        case 2 where keyRed < 0:
            // Four bytes read, the fourth (the next pixel's red, or the byte after the row) replaced by
            // opaque alpha; the last pixel byte by byte, so nothing past the row is read.
            while index < pixels - 1 {
                let rgb = UInt32(
                    littleEndian: source.loadUnaligned(fromByteOffset: index * 3, as: UInt32.self))
                target.storeBytes(
                    of: ((rgb & 0x00ff_ffff) | opaque).littleEndian, toByteOffset: index * 4, as: UInt32.self)
                index += 1
            }
            if index < pixels {
                let last = row + index * 3
                let pixel = UInt32(last[0]) | UInt32(last[1]) << 8 | UInt32(last[2]) << 16 | opaque
                target.storeBytes(of: pixel.littleEndian, toByteOffset: index * 4, as: UInt32.self)
            }
        case 0 where keyRed < 0:
            while index < pixels {
                let grey = UInt32(row[index])
                target.storeBytes(
                    of: (grey &* 0x0001_0101 | opaque).littleEndian, toByteOffset: index * 4, as: UInt32.self)
                index += 1
            }
        case 4:
            while index < pixels {
                let grey = UInt32(row[index * 2])
                let alpha = UInt32(row[index * 2 + 1])
                target.storeBytes(
                    of: (grey &* 0x0001_0101 | alpha << 24).littleEndian, toByteOffset: index * 4,
                    as: UInt32.self)
                index += 1
            }
        case 3:
            let entries = UnsafeRawPointer(palette)
            while index < pixels {
                let entry = Int(row[index])
                guard entry < paletteCount else {
                    return Expanded(error: .paletteIndexOutOfRange(index: entry, paletteSize: paletteCount))
                }
                target.storeBytes(
                    of: entries.loadUnaligned(fromByteOffset: entry * 4, as: UInt32.self),
                    toByteOffset: index * 4, as: UInt32.self)
                index += 1
            }
        default:
            return nil
        }
        return Expanded(error: nil)
    }
}
