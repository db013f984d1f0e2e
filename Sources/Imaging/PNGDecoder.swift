import Foundation

/// Decodes PNG files to 8-bit RGBA bitmaps, in pure Swift.
///
/// Handles every standard PNG: colour types 0, 2, 3, 4 and 6, bit depths 1–16, `PLTE` and
/// `tRNS`, Adam7 interlacing and all five row filters. Every chunk's CRC and the zlib stream's
/// Adler-32 are verified; ancillary chunks are otherwise skipped and unknown critical chunks
/// refused. Malformed or hostile input throws a `PNGError` and never traps; images larger than
/// the pixel limit are refused before anything is allocated for them.
public enum PNGDecoder {
    /// The most pixels `decode(_:)` accepts: 64 megapixels (64 × 1024 × 1024), about 256 MiB of RGBA.
    public static var defaultMaximumPixels: Int { 64 * 1024 * 1024 }

    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    /// Decodes a PNG file, refusing images of more than `defaultMaximumPixels` pixels.
    public static func decode(_ bytes: [UInt8]) throws(PNGError) -> Bitmap {
        try decode(bytes, maximumPixels: defaultMaximumPixels)
    }

    /// Decodes a PNG file held in `Data`, refusing images of more than `defaultMaximumPixels` pixels.
    public static func decode(_ data: Data) throws(PNGError) -> Bitmap {
        try decode([UInt8](data), maximumPixels: defaultMaximumPixels)
    }

    /// Decodes a PNG file held in `Data`, refusing images of more than `maximumPixels` pixels.
    public static func decode(_ data: Data, maximumPixels: Int) throws(PNGError) -> Bitmap {
        try decode([UInt8](data), maximumPixels: maximumPixels)
    }

    /// Decodes a PNG file, refusing images of more than `maximumPixels` pixels.
    public static func decode(_ bytes: [UInt8], maximumPixels: Int) throws(PNGError) -> Bitmap {
        let chunks = try readChunks(bytes, maximumPixels: maximumPixels)
        let header = chunks.header
        let expected = header.filteredByteCount
        // Reserve what the header implies only as far as the compressed data could possibly fill it
        // (DEFLATE expands at most 1032:1): a tiny file claiming a huge image reserves nothing huge, and
        // the room grows as real data arrives, never past `expected`.
        let (reachable, overflow) = chunks.compressed.count.multipliedReportingOverflow(by: 1032)
        let capacity = overflow ? expected : min(expected, reachable + 1032)
        if !header.interlaced && header.bitDepth >= 8 && capacity == expected {
            return try decodeInPlace(chunks)
        }
        // The inflated scanlines are unfiltered where the inflater left them and expanded straight into
        // the bitmap's pixels: no copy of them is made.
        let outcome: Result<[UInt8], PNGError> = chunks.compressed.withUnsafeBufferPointer { input in
            do throws(PNGError.ZlibProblem) {
                return try Inflater.inflate(input, maximumOutputSize: expected, initialCapacity: capacity) {
                    filtered -> Result<[UInt8], PNGError> in
                    guard filtered.count == expected else {
                        return .failure(.imageDataTooShort(expected: expected, actual: filtered.count))
                    }
                    return reconstruct(filtered, chunks: chunks)
                }
            } catch {
                if case .tooMuchData = error { return .failure(.imageDataTooLong(expected: expected)) }
                return .failure(.badZlibStream(error))
            }
        }
        return Bitmap(width: header.width, height: header.height, rgba: try outcome.get())
    }

    /// Decodes a non-interlaced image of 8 or 16 bits a sample inside the memory of its own pixel array.
    ///
    /// The scanlines are inflated into the array's last bytes (the array is made large enough to hold
    /// them when they outgrow the pixels, as RGBA's filter bytes do), then each row in turn is unfiltered
    /// in place, copied aside and expanded to its pixels at the front of the array. Row y's pixels end
    /// where row y + 1's scanline starts or before, since a scanline never holds more bytes a pixel than
    /// its share of the array, so no row is overwritten before it is read; the row above, which the
    /// filters need, is the copy. So one allocation serves the inflater and the bitmap, and the pixels
    /// are written once. Used when the compressed data could fill the image (see `decode`), so a small
    /// file claiming a huge image still reserves nothing huge.
    static func decodeInPlace(_ chunks: Chunks) throws(PNGError) -> Bitmap {
        let header = chunks.header
        let expected = header.filteredByteCount
        let pixelBytes = header.width * header.height * 4
        let room = max(pixelBytes, expected)
        var outcome: PNGError?
        let rgba = [UInt8](unsafeUninitializedCapacity: room + Inflater.outputSlack) { buffer, count in
            count = 0
            guard let memory = buffer.baseAddress else { return }
            let scanlines = memory + (room - expected)
            let inflated: Result<Int, PNGError.ZlibProblem> = chunks.compressed.withUnsafeBufferPointer {
                input in
                do throws(PNGError.ZlibProblem) {
                    return .success(try Inflater.inflate(input, into: scanlines, capacity: expected))
                } catch {
                    return .failure(error)
                }
            }
            switch inflated {
            case .failure(let error):
                if case .tooMuchData = error {
                    outcome = .imageDataTooLong(expected: expected)
                } else {
                    outcome = .badZlibStream(error)
                }
            case .success(let written) where written != expected:
                outcome = .imageDataTooShort(expected: expected, actual: written)
            case .success:
                outcome = reconstructInPlace(scanlines, into: memory, chunks: chunks)
                if outcome == nil { count = pixelBytes }
            }
        }
        if let outcome { throw outcome }
        return Bitmap(width: header.width, height: header.height, rgba: rgba)
    }

    /// Unfilters and expands the rows of a non-interlaced image whose scanlines lie in the same memory as
    /// its pixels, behind them (see `decodeInPlace`).
    static func reconstructInPlace(
        _ scanlines: UnsafeMutablePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, chunks: Chunks
    ) -> PNGError? {
        let header = chunks.header
        let rowBytes = header.rowBytes(pixels: header.width)
        let stride = header.filterStride
        // The row above (zeros for the first) and the current row, as unfiltered copies.
        var rows = [UInt8](repeating: 0, count: 2 * rowBytes)
        return rows.withUnsafeMutableBufferPointer { rowsBuffer -> PNGError? in
            chunks.palette.withUnsafeBufferPointer { paletteBuffer -> PNGError? in
                guard let copies = rowsBuffer.baseAddress, let palette = paletteBuffer.baseAddress else {
                    return nil
                }
                let expander = PNGPixelExpander(
                    header: header, palette: palette, paletteCount: chunks.paletteCount,
                    keyRed: chunks.key.red, keyGreen: chunks.key.green, keyBlue: chunks.key.blue)
                var prior = copies
                var current = copies + rowBytes
                var row = 0
                while row < header.height {
                    let filterByte = scanlines + row * (rowBytes + 1)
                    let line = filterByte + 1
                    if let failure = PNGRowFilter.unfilter(
                        line, filterType: filterByte.pointee, prior: prior, rowBytes: rowBytes, stride: stride
                    ) {
                        return failure
                    }
                    current.update(from: line, count: rowBytes)
                    if let failure = expander.expand(
                        row: current, pixels: header.width, into: out + row * header.width * 4, outStride: 4)
                    {
                        return failure
                    }
                    swap(&prior, &current)
                    row += 1
                }
                return nil
            }
        }
    }

    /// What the chunks of a PNG file say, once read and checked.
    struct Chunks {
        var header: PNGHeader
        /// The palette as 256 RGBA entries, alpha from `tRNS` (255 where it gives none).
        var palette = [UInt8](repeating: 0, count: 1024)
        /// Entries the `PLTE` chunk holds.
        var paletteCount = 0
        /// The `tRNS` colour key (grey, or red, green, blue), -1 where there is none.
        var key = (red: -1, green: -1, blue: -1)
        /// The concatenated data of the `IDAT` chunks.
        var compressed: [UInt8] = []
    }

    /// A chunk type's four bytes as text, with bytes that are not letters escaped.
    static func chunkName(_ bytes: ArraySlice<UInt8>) -> String {
        var name = ""
        for byte in bytes {
            let isLetter = (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
            name += isLetter ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
        }
        return name
    }

    /// A big-endian 32-bit number at `offset`; the caller has checked the four bytes exist.
    static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    /// Walks the chunks from the signature to `IEND`, checking CRCs, order and contents.
    static func readChunks(_ bytes: [UInt8], maximumPixels: Int) throws(PNGError) -> Chunks {
        guard bytes.count >= 8, bytes[0..<8].elementsEqual(signature) else { throw .badSignature }
        var chunks: Chunks?
        var position = 8
        var sawPalette = false
        var sawTransparency = false
        // 0: no IDAT yet, 1: in the run of IDAT chunks, 2: the run has ended.
        var imageDataState = 0

        while true {
            let remaining = bytes.count - position
            guard remaining >= 8 else {
                throw chunks == nil && remaining == 0 ? .missingIHDR : .unexpectedEnd
            }
            let length = bigEndian(bytes, at: position)
            let typeBytes = bytes[(position + 4)..<(position + 8)]
            let type = chunkName(typeBytes)
            guard length <= 0x7fff_ffff else { throw .badChunkLength(chunk: type, length: length) }
            let dataStart = position + 8
            let dataEnd = dataStart + Int(length)
            guard bytes.count - dataEnd >= 4 else { throw .truncatedChunk(chunk: type) }
            let storedCRC = bigEndian(bytes, at: dataEnd)
            guard CRC32.checksum(bytes[(position + 4)..<dataEnd]) == storedCRC else {
                throw .badCRC(chunk: type)
            }
            position = dataEnd + 4
            let data = bytes[dataStart..<dataEnd]

            guard var current = chunks else {
                guard type == "IHDR" else { throw .ihdrNotFirst(found: type) }
                chunks = Chunks(header: try PNGHeader(chunk: data, maximumPixels: maximumPixels))
                continue
            }
            // Take the value out so appending to its arrays does not copy them.
            chunks = nil
            if type != "IDAT" && imageDataState == 1 { imageDataState = 2 }
            let colorType = current.header.colorType
            switch type {
            case "IHDR":
                throw .duplicateChunk(type)
            case "PLTE":
                guard !sawPalette else { throw .duplicateChunk(type) }
                guard imageDataState == 0, !sawTransparency else { throw .chunkOutOfOrder(type) }
                guard data.count % 3 == 0, data.count >= 3, data.count <= 768 else {
                    throw .badPaletteLength(data.count)
                }
                sawPalette = true
                current.paletteCount = data.count / 3
                for entry in 0..<current.paletteCount {
                    let source = data.startIndex + entry * 3
                    current.palette[entry * 4] = data[source]
                    current.palette[entry * 4 + 1] = data[source + 1]
                    current.palette[entry * 4 + 2] = data[source + 2]
                    current.palette[entry * 4 + 3] = 255
                }
            case "tRNS":
                guard !sawTransparency else { throw .duplicateChunk(type) }
                guard imageDataState == 0 else { throw .chunkOutOfOrder(type) }
                sawTransparency = true
                switch colorType {
                case 3:
                    guard sawPalette else { throw .chunkOutOfOrder(type) }
                    guard data.count <= current.paletteCount else { throw .badTransparencyLength(data.count) }
                    for (entry, alpha) in data.enumerated() {
                        current.palette[entry * 4 + 3] = alpha
                    }
                case 0:
                    guard data.count == 2 else { throw .badTransparencyLength(data.count) }
                    current.key.red = Int(bigEndian16(data, at: 0))
                case 2:
                    guard data.count == 6 else { throw .badTransparencyLength(data.count) }
                    current.key = (
                        Int(bigEndian16(data, at: 0)), Int(bigEndian16(data, at: 2)),
                        Int(bigEndian16(data, at: 4))
                    )
                default:
                    // Colour types 4 and 6 carry alpha already; a tRNS chunk there is ignored.
                    break
                }
            case "IDAT":
                guard imageDataState != 2 else { throw .idatNotConsecutive }
                guard colorType != 3 || sawPalette else { throw .missingPalette }
                imageDataState = 1
                current.compressed.append(contentsOf: data)
            case "IEND":
                guard imageDataState != 0 else { throw .missingIDAT }
                return current
            default:
                // Bit 5 of the first byte clear (an upper-case letter) marks a critical chunk.
                if typeBytes[typeBytes.startIndex] & 0x20 == 0 || type.count != 4 {
                    throw .unknownCriticalChunk(type)
                }
            }
            chunks = current
        }
    }

    /// A big-endian 16-bit number at `offset` into a slice; the caller has checked the bytes exist.
    static func bigEndian16(_ data: ArraySlice<UInt8>, at offset: Int) -> UInt16 {
        UInt16(data[data.startIndex + offset]) << 8 | UInt16(data[data.startIndex + offset + 1])
    }

    /// Unfilters every pass of the inflated data in place and expands its pixels into a new RGBA array,
    /// row by row (each row is expanded while it is still in the cache).
    ///
    /// Returns the pixels, or the error for a bad filter type or palette index.
    static func reconstruct(_ filtered: UnsafeMutableBufferPointer<UInt8>, chunks: Chunks) -> Result<
        [UInt8], PNGError
    > {
        let header = chunks.header
        let byteCount = header.width * header.height * 4
        var failure: PNGError?
        // Every pixel is written exactly once (Adam7's passes cover each pixel once), so the array needs
        // no zero-filling first; after a failure it is left empty.
        let rgba = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initializedCount in
            failure = reconstruct(filtered, into: buffer, chunks: chunks)
            initializedCount = failure == nil ? byteCount : 0
        }
        if let failure { return .failure(failure) }
        return .success(rgba)
    }

    /// Unfilters and expands every pass into `rgba`, which holds `width * height * 4` bytes.
    static func reconstruct(
        _ filtered: UnsafeMutableBufferPointer<UInt8>, into rgba: UnsafeMutableBufferPointer<UInt8>,
        chunks: Chunks
    ) -> PNGError? {
        let header = chunks.header
        let zeroRow = [UInt8](repeating: 0, count: header.rowBytes(pixels: header.width))
        return chunks.palette.withUnsafeBufferPointer { paletteBuffer -> PNGError? in
            zeroRow.withUnsafeBufferPointer { zeroBuffer -> PNGError? in
                guard let data = filtered.baseAddress, let out = rgba.baseAddress,
                    let palette = paletteBuffer.baseAddress, let zeros = zeroBuffer.baseAddress
                else { return nil }
                let expander = PNGPixelExpander(
                    header: header, palette: palette, paletteCount: chunks.paletteCount,
                    keyRed: chunks.key.red, keyGreen: chunks.key.green, keyBlue: chunks.key.blue)
                let stride = header.filterStride
                var passStart = data
                for pass in header.passes {
                    let rowBytes = header.rowBytes(pixels: pass.width)
                    var prior = zeros
                    var row = 0
                    while row < pass.height {
                        let filterByte = passStart + row * (rowBytes + 1)
                        let line = filterByte + 1
                        if let failure = PNGRowFilter.unfilter(
                            line, filterType: filterByte.pointee, prior: prior, rowBytes: rowBytes,
                            stride: stride)
                        {
                            return failure
                        }
                        let y = pass.yStart + row * pass.yStep
                        let firstPixel = out + (y * header.width + pass.xStart) * 4
                        if let failure = expander.expand(
                            row: line, pixels: pass.width, into: firstPixel, outStride: pass.xStep * 4)
                        {
                            return failure
                        }
                        prior = UnsafePointer(line)
                        row += 1
                    }
                    passStart += pass.height * (rowBytes + 1)
                }
                return nil
            }
        }
    }
}
