/// Writes bitmaps as PNG files with real deflate compression.
///
/// The output is an 8-bit PNG in the smallest colour type that holds the pixels exactly (see
/// `smallestLayout(_:)`): greyscale, a palette of at most 256 colours, grey and alpha, RGB, or RGBA; not
/// interlaced. Each truecolour or grey scanline gets the filter (None, Sub, Up, Average or Paeth) whose
/// output bytes, read as signed, have the smallest sum of absolute values, the heuristic libpng and most
/// encoders use; palette scanlines are not filtered (indices are not quantities, so differences of them
/// only hide their repeats). The filtered scanlines are compressed by `Deflater` into one zlib stream,
/// split over IDAT chunks of at most `idatChunkSize` bytes. The chunks are IHDR, PLTE and tRNS for a
/// palette, IDAT…, IEND; no other ancillary chunks, so the bytes depend on the pixels alone and are the
/// same on every platform.
public enum PNGEncoder {
    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The largest IDAT chunk written; longer streams are split over several.
    static let idatChunkSize = 65536

    /// The PNG file for a bitmap, in the smallest exact colour type.
    ///
    /// A bitmap with no pixels (zero width or height) is written with those dimensions,
    /// which PNG readers reject: PNG has no empty images.
    public static func encode(_ bitmap: Bitmap) -> [UInt8] {
        encode(bitmap, layout: smallestLayout(bitmap))
    }

    /// The PNG file for a bitmap as truecolour whatever its colours: RGB when every pixel is opaque, RGBA
    /// otherwise. The simulated server's posters are written so, as they always have been: their bytes,
    /// and so every figure the course prints about downloads, stay the same.
    static func encodeTruecolour(_ bitmap: Bitmap) -> [UInt8] {
        encode(bitmap, layout: isFullyOpaque(bitmap) ? .rgb : .rgba)
    }

    /// The PNG file for a bitmap in a given layout (one that holds its pixels).
    static func encode(_ bitmap: Bitmap, layout: Layout) -> [UInt8] {
        let strategy: FilterStrategy
        if case .palette = layout { strategy = .fixed(0) } else { strategy = .adaptive }
        let scanlines = filteredScanlines(bitmap, layout: layout, strategy: strategy)
        return file(bitmap, layout: layout, stream: Deflater.zlibCompress(scanlines))
    }

    /// The PNG file around a zlib stream of the bitmap's filtered scanlines in `layout`.
    static func file(_ bitmap: Bitmap, layout: Layout, stream: [UInt8]) -> [UInt8] {
        var file: [UInt8] = []
        file.reserveCapacity(
            signature.count + 25 + 1_060 + stream.count + 12 * (stream.count / idatChunkSize + 1) + 12)
        file.append(contentsOf: signature)

        var header: [UInt8] = []
        appendBigEndian(UInt32(truncatingIfNeeded: bitmap.width), to: &header)
        appendBigEndian(UInt32(truncatingIfNeeded: bitmap.height), to: &header)
        // Bit depth 8; colour type; compression 0 (deflate); filter method 0; no interlace.
        header.append(contentsOf: [8, layout.colourType, 0, 0, 0])
        appendChunk("IHDR", header[...], to: &file)

        if case .palette(let entries) = layout {
            var colours: [UInt8] = []
            var alphas: [UInt8] = []
            for entry in entries {
                colours += [UInt8(entry & 0xff), UInt8((entry >> 8) & 0xff), UInt8((entry >> 16) & 0xff)]
                // Translucent entries come first: tRNS ends after the last of them.
                if entry >> 24 != 0xff { alphas.append(UInt8(entry >> 24)) }
            }
            appendChunk("PLTE", colours[...], to: &file)
            if !alphas.isEmpty { appendChunk("tRNS", alphas[...], to: &file) }
        }

        var offset = 0
        repeat {
            let end = min(offset + idatChunkSize, stream.count)
            appendChunk("IDAT", stream[offset..<end], to: &file)
            offset = end
        } while offset < stream.count

        appendChunk("IEND", [][...], to: &file)
        return file
    }

    /// Whether every alpha byte is 255.
    static func isFullyOpaque(_ bitmap: Bitmap) -> Bool {
        bitmap.rgba.withUnsafeBufferPointer { buffer in
            guard let pixels = buffer.baseAddress else { return true }
            var alpha = UInt8(255)
            var index = 3
            let count = buffer.count
            while index < count {
                alpha &= pixels[index]
                index += 4
            }
            return alpha == 255
        }
    }

    /// How each scanline's filter type is chosen.
    enum FilterStrategy: Equatable {
        /// The same filter type (0 None … 4 Paeth) on every row.
        case fixed(Int)
        /// Per row, the type whose output has the smallest sum of absolute values (`bestFilter`).
        case adaptive
    }

    /// The image as PNG scanlines in a layout: per row, a filter-type byte and the filtered pixel bytes.
    static func filteredScanlines(_ bitmap: Bitmap, layout: Layout, strategy: FilterStrategy) -> [UInt8] {
        let width = bitmap.width
        let height = bitmap.height
        let bytesPerPixel = layout.bytesPerPixel
        let rowLength = width * bytesPerPixel
        guard rowLength > 0 && height > 0 else {
            return [UInt8](repeating: 0, count: height)
        }
        // The unfiltered rows, packed; plus one row of zeros standing for the row above the first.
        let packed = UnsafeMutablePointer<UInt8>.allocate(capacity: (height + 1) * rowLength)
        defer { packed.deallocate() }
        packed.initialize(repeating: 0, count: rowLength)
        let pixelCount = width * height
        bitmap.rgba.withUnsafeBufferPointer { buffer in
            let source = buffer.baseAddress!
            let target = packed + rowLength
            switch layout {
            case .rgba:
                target.initialize(from: source, count: pixelCount * 4)
            case .rgb:
                var from = 0
                var to = 0
                while to < pixelCount * 3 {
                    target[to] = source[from]
                    target[to + 1] = source[from + 1]
                    target[to + 2] = source[from + 2]
                    from += 4
                    to += 3
                }
            case .grey:
                var pixel = 0
                while pixel < pixelCount {
                    target[pixel] = source[pixel * 4]
                    pixel += 1
                }
            case .greyAlpha:
                var pixel = 0
                while pixel < pixelCount {
                    target[pixel * 2] = source[pixel * 4]
                    target[pixel * 2 + 1] = source[pixel * 4 + 3]
                    pixel += 1
                }
            case .palette(let entries):
                var indices = ColourSet()
                for entry in entries { indices.insert(entry) }
                let raw = UnsafeRawPointer(source)
                var pixel = 0
                while pixel < pixelCount {
                    let colour = UInt32(
                        littleEndian: raw.loadUnaligned(fromByteOffset: pixel * 4, as: UInt32.self))
                    target[pixel] = UInt8(truncatingIfNeeded: indices.index(of: colour))
                    pixel += 1
                }
            }
        }
        if strategy == .fixed(0) {
            // Filter type 0 on every row: the samples as they are.
            var output = [UInt8](repeating: 0, count: height * (rowLength + 1))
            output.withUnsafeMutableBufferPointer { buffer in
                let out = buffer.baseAddress!
                for row in 0..<height {
                    (out + row * (rowLength + 1) + 1).update(
                        from: packed + (row + 1) * rowLength, count: rowLength)
                }
            }
            return output
        }
        let magnitudes = UnsafeMutablePointer<Int>.allocate(capacity: 256)
        defer { magnitudes.deallocate() }
        for residual in 0..<256 {
            magnitudes[residual] = residual < 128 ? residual : 256 - residual
        }
        var output = [UInt8](repeating: 0, count: height * (rowLength + 1))
        output.withUnsafeMutableBufferPointer { buffer in
            let out = buffer.baseAddress!
            for row in 0..<height {
                let current = UnsafePointer(packed + (row + 1) * rowLength)
                let above = UnsafePointer(packed + row * rowLength)
                let line = out + row * (rowLength + 1)
                var filter = 4
                if case .fixed(let type) = strategy {
                    filter = type
                } else {
                    filter = bestFilter(
                        current: current, above: above, length: rowLength, bytesPerPixel: bytesPerPixel,
                        magnitudes: magnitudes, paethRow: line + 1)
                }
                line[0] = UInt8(filter)
                if filter != 4 || strategy != .adaptive {
                    applyFilter(
                        filter, current: current, above: above, length: rowLength,
                        bytesPerPixel: bytesPerPixel,
                        into: line + 1)
                }
            }
        }
        return output
    }

    /// The filter type (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) whose output for this row
    /// has the smallest sum of absolute values, read as signed bytes; the lowest type wins ties.
    /// The Paeth-filtered row, the costliest to compute, is left in `paethRow` on the way.
    ///
    /// One pass computes all five sums; written with plain loops, `Int` arithmetic (cheaper
    /// than `UInt8` arithmetic in debug builds) and a table of magnitudes (`magnitudes[r]` = |r read as a signed byte|) and no generic
    /// helpers (`abs`, `min`), because this runs for every byte, in debug builds too.
    static func bestFilter(
        current: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, length: Int, bytesPerPixel: Int,
        magnitudes: UnsafePointer<Int>, paethRow: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var sumNone = 0
        var sumSub = 0
        var sumUp = 0
        var sumAverage = 0
        var sumPaeth = 0
        // Channel by channel, so left and upper-left are the previous step's current and above
        // bytes (zero in the first pixel): two loads per byte instead of four.
        for channel in 0..<bytesPerPixel {
            var a = 0
            var c = 0
            var index = channel
            while index < length {
                let x = Int(current[index])
                let b = Int(above[index])
                sumNone += magnitudes[x]
                sumSub += magnitudes[(x - a) & 0xff]
                sumUp += magnitudes[(x - b) & 0xff]
                sumAverage += magnitudes[(x - (a + b) >> 1) & 0xff]
                // Paeth: the distances of a + b - c to a, b and c are |b - c|, |a - c|, |a + b - 2c|.
                let towardB = b - c
                let towardA = a - c
                let both = towardA + towardB
                let distanceA = towardB < 0 ? -towardB : towardB
                let distanceB = towardA < 0 ? -towardA : towardA
                let distanceC = both < 0 ? -both : both
                let predicted =
                    distanceA <= distanceB && distanceA <= distanceC ? a : (distanceB <= distanceC ? b : c)
                let paethResidual = (x - predicted) & 0xff
                sumPaeth += magnitudes[paethResidual]
                paethRow[index] = UInt8(paethResidual)
                a = x
                c = b
                index += bytesPerPixel
            }
        }
        var best = 0
        var bestSum = sumNone
        if sumSub < bestSum {
            best = 1
            bestSum = sumSub
        }
        if sumUp < bestSum {
            best = 2
            bestSum = sumUp
        }
        if sumAverage < bestSum {
            best = 3
            bestSum = sumAverage
        }
        if sumPaeth < bestSum {
            best = 4
        }
        return best
    }

    /// Writes one row filtered with the given filter type (PNG §9.2).
    static func applyFilter(
        _ filter: Int, current: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, length: Int,
        bytesPerPixel: Int, into out: UnsafeMutablePointer<UInt8>
    ) {
        let firstPixel = bytesPerPixel < length ? bytesPerPixel : length
        var index = 0
        switch filter {
        case 1:
            out.update(from: current, count: firstPixel)
            index = firstPixel
            while index < length {
                out[index] = UInt8((Int(current[index]) - Int(current[index - bytesPerPixel])) & 0xff)
                index += 1
            }
        case 2:
            while index < length {
                out[index] = UInt8((Int(current[index]) - Int(above[index])) & 0xff)
                index += 1
            }
        case 3:
            while index < firstPixel {
                out[index] = UInt8((Int(current[index]) - Int(above[index]) >> 1) & 0xff)
                index += 1
            }
            while index < length {
                let average = (Int(current[index - bytesPerPixel]) + Int(above[index])) >> 1
                out[index] = UInt8((Int(current[index]) - average) & 0xff)
                index += 1
            }
        case 4:
            while index < firstPixel {
                out[index] = UInt8((Int(current[index]) - Int(above[index])) & 0xff)
                index += 1
            }
            while index < length {
                let a = Int(current[index - bytesPerPixel])
                let b = Int(above[index])
                let c = Int(above[index - bytesPerPixel])
                let towardB = b - c
                let towardA = a - c
                let both = towardA + towardB
                let distanceA = towardB < 0 ? -towardB : towardB
                let distanceB = towardA < 0 ? -towardA : towardA
                let distanceC = both < 0 ? -both : both
                let predicted =
                    distanceA <= distanceB && distanceA <= distanceC ? a : (distanceB <= distanceC ? b : c)
                out[index] = UInt8((Int(current[index]) - predicted) & 0xff)
                index += 1
            }
        default:
            out.update(from: current, count: length)
        }
    }

    /// Appends a 32-bit number as four big-endian bytes.
    static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes.append(UInt8(value >> 24))
        bytes.append(UInt8((value >> 16) & 0xff))
        bytes.append(UInt8((value >> 8) & 0xff))
        bytes.append(UInt8(value & 0xff))
    }

    /// Appends one chunk: length, type, data and the CRC-32 of type and data.
    static func appendChunk(_ type: String, _ data: ArraySlice<UInt8>, to file: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        appendBigEndian(UInt32(data.count), to: &file)
        file.append(contentsOf: typeBytes)
        file.append(contentsOf: data)
        var crc = typeBytes.withUnsafeBufferPointer { CRC32.update(0, $0) }
        crc = data.withUnsafeBufferPointer { CRC32.update(crc, $0) }
        appendBigEndian(crc, to: &file)
    }
}
