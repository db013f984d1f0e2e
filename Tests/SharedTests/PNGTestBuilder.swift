import Shared

@testable import Imaging

/// Builds PNG files and zlib streams byte by byte for the decoder tests, independently of the decoder.
enum PNGTestBuilder {
    /// The eight-byte PNG signature.
    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    /// A number as four big-endian bytes.
    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
    }

    /// One chunk: length, type, data and the CRC of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(CRC32.checksum(typeAndData))
    }

    /// An `IHDR` chunk.
    static func header(
        width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8, interlaced: Bool = false
    ) -> [UInt8] {
        chunk("IHDR", bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, interlaced ? 1 : 0])
    }

    /// A zlib stream holding `data` in stored (uncompressed) blocks of at most `blockSize` bytes.
    static func zlibStored(_ data: [UInt8], blockSize: Int = 65535) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(data.count, start + blockSize)
            let length = end - start
            stream.append(end == data.count ? 1 : 0)
            stream += [
                UInt8(length & 0xff), UInt8(length >> 8), UInt8(~length & 0xff), UInt8((~length >> 8) & 0xff),
            ]
            stream += data[start..<end]
            start = end
        } while start < data.count
        return stream + bigEndian(Adler32.checksum(data))
    }

    /// A zlib stream holding `data` in one fixed-Huffman block, with back-references for repeats.
    ///
    /// A plain greedy LZ77 over the last 1024 bytes; enough to exercise the decoder's length and
    /// distance codes.
    static func zlibFixedHuffman(_ data: [UInt8], useBackReferences: Bool = true) -> [UInt8] {
        var writer = BitWriter()
        writer.bytes = [0x78, 0x01]
        writer.write(1, count: 1)  // final block
        writer.write(1, count: 2)  // fixed Huffman
        var index = 0
        while index < data.count {
            var bestLength = 0
            var bestDistance = 0
            if useBackReferences {
                var distance = 1
                while distance <= min(index, 1024) {
                    var length = 0
                    while length < 258 && index + length < data.count
                        && data[index + length] == data[index + length - distance]
                    {
                        length += 1
                    }
                    if length > bestLength {
                        bestLength = length
                        bestDistance = distance
                    }
                    distance += 1
                }
            }
            if bestLength >= 3 {
                writer.writeMatch(length: bestLength, distance: bestDistance)
                index += bestLength
            } else {
                writer.writeFixedSymbol(Int(data[index]))
                index += 1
            }
        }
        writer.writeFixedSymbol(256)
        writer.flush()
        return writer.bytes + bigEndian(Adler32.checksum(data))
    }

    /// Writes bits least-significant first, the DEFLATE way.
    struct BitWriter {
        /// The finished bytes.
        var bytes: [UInt8] = []
        /// Bits not yet written out.
        var buffer = 0
        /// How many bits `buffer` holds.
        var count = 0

        /// Appends the low `count` bits of `value`, least significant first.
        mutating func write(_ value: Int, count bitCount: Int) {
            buffer |= (value & ((1 << bitCount) - 1)) << count
            count += bitCount
            while count >= 8 {
                bytes.append(UInt8(buffer & 0xff))
                buffer >>= 8
                count -= 8
            }
        }

        /// Appends a Huffman code, most significant bit first.
        mutating func writeCode(_ code: Int, length: Int) {
            var reversed = 0
            for bit in 0..<length { reversed |= ((code >> bit) & 1) << (length - 1 - bit) }
            write(reversed, count: length)
        }

        /// Appends a literal/length symbol in the fixed Huffman code.
        mutating func writeFixedSymbol(_ symbol: Int) {
            switch symbol {
            case 0..<144: writeCode(0x30 + symbol, length: 8)
            case 144..<256: writeCode(0x190 + symbol - 144, length: 9)
            case 256..<280: writeCode(symbol - 256, length: 7)
            default: writeCode(0xc0 + symbol - 280, length: 8)
            }
        }

        /// Appends a back-reference in the fixed Huffman code.
        mutating func writeMatch(length: Int, distance: Int) {
            let lengthBases = [
                3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
                131, 163, 195, 227, 258,
            ]
            let lengthExtra = [
                0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
            ]
            let distanceBases = [
                1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
            ]
            let distanceExtra = [
                0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
                13,
            ]
            let lengthCode = (lengthBases.lastIndex { $0 <= length })!
            writeFixedSymbol(257 + lengthCode)
            write(length - lengthBases[lengthCode], count: lengthExtra[lengthCode])
            let distanceCode = (distanceBases.lastIndex { $0 <= distance })!
            writeCode(distanceCode, length: 5)
            write(distance - distanceBases[distanceCode], count: distanceExtra[distanceCode])
        }

        /// Pads the last byte with zero bits.
        mutating func flush() {
            if count > 0 { write(0, count: 8 - count) }
        }
    }

    /// A whole PNG from a header, already-filtered image data and optional extra chunks before `IDAT`.
    static func png(
        width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8, interlaced: Bool = false,
        filteredData: [UInt8], chunksBeforeData: [[UInt8]] = []
    ) -> [UInt8] {
        signature
            + header(
                width: width, height: height, bitDepth: bitDepth, colorType: colorType, interlaced: interlaced
            )
            + chunksBeforeData.flatMap { $0 } + chunk("IDAT", zlibStored(filteredData)) + chunk("IEND", [])
    }

    /// Rows of packed samples joined into image data, each row led by filter type 0.
    static func unfilteredData(_ rows: [[UInt8]]) -> [UInt8] {
        rows.flatMap { [0] + $0 }
    }

    /// Packs samples of 1, 2 or 4 bits into bytes, most significant bits first, padding the last byte.
    static func pack(_ samples: [Int], bitDepth: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var current = 0
        var used = 0
        for sample in samples {
            current = (current << bitDepth) | sample
            used += bitDepth
            if used == 8 {
                bytes.append(UInt8(current))
                current = 0
                used = 0
            }
        }
        if used > 0 { bytes.append(UInt8(current << (8 - used))) }
        return bytes
    }

    /// Applies a PNG filter to one row (the encoder's direction), given the unfiltered row above.
    static func filter(_ type: UInt8, row: [UInt8], above: [UInt8], stride: Int) -> [UInt8] {
        var result: [UInt8] = [type]
        for index in row.indices {
            let left = index >= stride ? Int(row[index - stride]) : 0
            let up = Int(above[index])
            let upLeft = index >= stride ? Int(above[index - stride]) : 0
            let predictor: Int
            switch type {
            case 1: predictor = left
            case 2: predictor = up
            case 3: predictor = (left + up) / 2
            case 4:
                let estimate = left + up - upLeft
                let (toLeft, toUp, toUpLeft) = (
                    abs(estimate - left), abs(estimate - up), abs(estimate - upLeft)
                )
                predictor = toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft
            default: predictor = 0
            }
            result.append(UInt8((Int(row[index]) - predictor + 256) % 256))
        }
        return result
    }

    /// An 8-bit RGBA PNG (non-interlaced, stored zlib blocks) with each row filtered by `filters[row % count]`.
    static func rgbaPNG(width: Int, height: Int, rgba: [UInt8], filters: [UInt8] = [0]) -> [UInt8] {
        var data: [UInt8] = []
        var above = [UInt8](repeating: 0, count: width * 4)
        for y in 0..<height {
            let row = Array(rgba[(y * width * 4)..<((y + 1) * width * 4)])
            data += filter(filters[y % filters.count], row: row, above: above, stride: 4)
            above = row
        }
        return png(
            width: UInt32(width), height: UInt32(height), bitDepth: 8, colorType: 6, filteredData: data)
    }

    /// The Adam7 passes as (x start, y start, x step, y step), written out independently of the decoder.
    static let adam7: [(Int, Int, Int, Int)] = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// Interlaced image data for 8-bit pixels of `bytesPerPixel` bytes, every row with filter type 0.
    static func adam7Data(width: Int, height: Int, pixels: [UInt8], bytesPerPixel: Int) -> [UInt8] {
        var data: [UInt8] = []
        for (xStart, yStart, xStep, yStep) in adam7 {
            for y in stride(from: yStart, to: height, by: yStep) {
                var row: [UInt8] = []
                for x in stride(from: xStart, to: width, by: xStep) {
                    let offset = (y * width + x) * bytesPerPixel
                    row += pixels[offset..<(offset + bytesPerPixel)]
                }
                if !row.isEmpty { data += [0] + row }
            }
        }
        return data
    }
}

extension PNGTestBuilder {
    /// A copy of a PNG with the CRC of every chunk that fits in it recomputed, so that
    /// corruption reaches the layers below the CRC check.
    static func fixingCRCs(_ png: [UInt8]) -> [UInt8] {
        var bytes = png
        var position = 8
        while position + 12 <= bytes.count {
            let length =
                Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8
                | Int(bytes[position + 3])
            guard length <= bytes.count - position - 12 else { break }
            let crc = CRC32.checksum(bytes[(position + 4)..<(position + 8 + length)])
            bytes.replaceSubrange((position + 8 + length)..<(position + 12 + length), with: bigEndian(crc))
            position += 12 + length
        }
        return bytes
    }
}
