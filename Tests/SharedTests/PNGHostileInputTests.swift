import Foundation
import Shared
import Testing

@testable import Imaging

/// Malformed and hostile PNGs: each must throw the right `PNGError`, and nothing may trap.
extension CodecTests {
    /// A small valid 3×2 RGBA PNG with an ancillary chunk.
    static var valid: [UInt8] {
        let rgba = (0..<24).map { UInt8($0 * 10) }
        return PNGTestBuilder.signature
            + PNGTestBuilder.header(width: 3, height: 2, bitDepth: 8, colorType: 6)
            + PNGTestBuilder.chunk("tEXt", Array("a\0b".utf8))
            + PNGTestBuilder.chunk(
                "IDAT", PNGTestBuilder.zlibStored([0] + rgba[0..<12] + [0] + rgba[12..<24]))
            + PNGTestBuilder.chunk("IEND", [])
    }

    /// Signature, header of a 3×2 RGBA image, and `chunks`, then IEND.
    func png(_ chunks: [[UInt8]], width: UInt32 = 3, height: UInt32 = 2, colorType: UInt8 = 6) -> [UInt8] {
        PNGTestBuilder.signature
            + PNGTestBuilder.header(width: width, height: height, bitDepth: 8, colorType: colorType)
            + chunks.flatMap { $0 } + PNGTestBuilder.chunk("IEND", [])
    }

    /// An IDAT chunk of stored zlib data.
    func idat(_ data: [UInt8]) -> [UInt8] { PNGTestBuilder.chunk("IDAT", PNGTestBuilder.zlibStored(data)) }

    /// Correct image data for a 3×2 RGBA image.
    var goodData: [UInt8] { [UInt8](repeating: 0, count: 26) }

    @Test("The valid base image decodes")
    func baseImageDecodes() throws {
        #expect(try PNGDecoder.decode(Self.valid).width == 3)
        #expect(try PNGDecoder.decode(png([idat(goodData)])).height == 2)
    }

    @Test("A wrong or missing signature is refused")
    func badSignatureRefused() throws {
        var wrong = Self.valid
        wrong[1] = 0x51
        for bytes in [wrong, [], Array(Self.valid.prefix(7)), Array("GIF89a".utf8)] {
            #expect(throws: PNGError.badSignature) { try PNGDecoder.decode(bytes) }
        }
    }

    @Test("Chunks in the wrong order or missing are refused")
    func chunkOrderRefused() throws {
        let ihdr = PNGTestBuilder.header(width: 3, height: 2, bitDepth: 8, colorType: 6)
        #expect(throws: PNGError.ihdrNotFirst(found: "IDAT")) {
            try PNGDecoder.decode(PNGTestBuilder.signature + idat(goodData) + ihdr)
        }
        #expect(throws: PNGError.missingIDAT) { try PNGDecoder.decode(png([])) }
        #expect(throws: PNGError.duplicateChunk("IHDR")) {
            try PNGDecoder.decode(png([ihdr, idat(goodData)]))
        }
        let stream = PNGTestBuilder.zlibStored(goodData)
        let split = [
            PNGTestBuilder.chunk("IDAT", Array(stream.prefix(4))),
            PNGTestBuilder.chunk("tEXt", [65, 0]),
            PNGTestBuilder.chunk("IDAT", Array(stream.dropFirst(4))),
        ]
        #expect(throws: PNGError.idatNotConsecutive) { try PNGDecoder.decode(png(split)) }
        #expect(throws: PNGError.unknownCriticalChunk("XyZW")) {
            try PNGDecoder.decode(png([PNGTestBuilder.chunk("XyZW", []), idat(goodData)]))
        }
        let plte = PNGTestBuilder.chunk("PLTE", [1, 2, 3])
        #expect(throws: PNGError.chunkOutOfOrder("PLTE")) {
            try PNGDecoder.decode(png([idat(goodData), plte]))
        }
        #expect(throws: PNGError.missingPalette) {
            try PNGDecoder.decode(png([idat([UInt8](repeating: 0, count: 8))], colorType: 3))
        }
    }

    @Test("Headers with impossible or unsupported fields are refused")
    func impossibleHeaderRefused() throws {
        func header(_ fields: [UInt8], width: UInt32 = 3, height: UInt32 = 2) -> [UInt8] {
            PNGTestBuilder.signature
                + PNGTestBuilder.chunk(
                    "IHDR",
                    PNGTestBuilder.bigEndian(width) + PNGTestBuilder.bigEndian(height) + fields)
                + idat(goodData) + PNGTestBuilder.chunk("IEND", [])
        }
        let cases: [([UInt8], PNGError)] = [
            ([4, 2, 0, 0, 0], .unsupportedBitDepth(bitDepth: 4, colorType: 2)),
            ([16, 3, 0, 0, 0], .unsupportedBitDepth(bitDepth: 16, colorType: 3)),
            ([3, 0, 0, 0, 0], .unsupportedBitDepth(bitDepth: 3, colorType: 0)),
            ([8, 5, 0, 0, 0], .unsupportedColorType(5)),
            ([8, 6, 1, 0, 0], .unsupportedCompressionMethod(1)),
            ([8, 6, 0, 1, 0], .unsupportedFilterMethod(1)),
            ([8, 6, 0, 0, 2], .unsupportedInterlaceMethod(2)),
            ([8, 6, 0, 0], .badHeaderLength(12)),
        ]
        for (fields, error) in cases {
            #expect(throws: error) { try PNGDecoder.decode(header(fields)) }
        }
        #expect(throws: PNGError.invalidDimensions(width: 0, height: 2)) {
            try PNGDecoder.decode(header([8, 6, 0, 0, 0], width: 0))
        }
        #expect(throws: PNGError.invalidDimensions(width: 0x8000_0000, height: 2)) {
            try PNGDecoder.decode(header([8, 6, 0, 0, 0], width: 0x8000_0000))
        }
    }

    @Test("A chunk claiming more than 2^31 − 1 bytes is refused")
    func hugeChunkLengthRefused() throws {
        var bytes = Self.valid
        bytes[33] = 0xff  // the tEXt chunk's length, most significant byte
        #expect(throws: PNGError.badChunkLength(chunk: "tEXt", length: 0xff00_0003)) {
            try PNGDecoder.decode(bytes)
        }
    }

    @Test("Image data shorter or longer than the header implies is refused")
    func wrongDataLengthRefused() throws {
        #expect(throws: PNGError.imageDataTooShort(expected: 26, actual: 25)) {
            try PNGDecoder.decode(png([idat(Array(goodData.dropLast()))]))
        }
        #expect(throws: PNGError.imageDataTooLong(expected: 26)) {
            try PNGDecoder.decode(png([idat(goodData + [0])]))
        }
        #expect(throws: PNGError.imageDataTooLong(expected: 26)) {
            try PNGDecoder.decode(
                png([
                    PNGTestBuilder.chunk(
                        "IDAT", PNGTestBuilder.zlibFixedHuffman([UInt8](repeating: 0, count: 2000)))
                ]))
        }
    }

    @Test("An unknown row filter type is refused")
    func unknownFilterRefused() throws {
        var data = goodData
        data[13] = 5
        #expect(throws: PNGError.badRowFilter(5)) { try PNGDecoder.decode(png([idat(data)])) }
    }

    @Test("Palette problems are refused: index out of range, bad PLTE or tRNS length")
    func paletteProblemsRefused() throws {
        let plte = PNGTestBuilder.chunk("PLTE", [1, 2, 3, 4, 5, 6])
        let indices: [UInt8] = [0, 0, 1, 1, 0, 1, 2, 0]
        #expect(throws: PNGError.paletteIndexOutOfRange(index: 2, paletteSize: 2)) {
            try PNGDecoder.decode(png([plte, idat(indices)], colorType: 3))
        }
        #expect(throws: PNGError.badPaletteLength(4)) {
            try PNGDecoder.decode(
                png([PNGTestBuilder.chunk("PLTE", [1, 2, 3, 4]), idat(indices)], colorType: 3))
        }
        #expect(throws: PNGError.badPaletteLength(0)) {
            try PNGDecoder.decode(
                png([PNGTestBuilder.chunk("PLTE", []), idat(indices)], colorType: 3))
        }
        #expect(throws: PNGError.badTransparencyLength(3)) {
            try PNGDecoder.decode(
                png([plte, PNGTestBuilder.chunk("tRNS", [1, 2, 3]), idat(indices)], colorType: 3))
        }
        #expect(throws: PNGError.badTransparencyLength(3)) {
            try PNGDecoder.decode(
                png([PNGTestBuilder.chunk("tRNS", [1, 2, 3]), idat(goodData)], colorType: 0))
        }
        #expect(throws: PNGError.badTransparencyLength(2)) {
            try PNGDecoder.decode(
                png([PNGTestBuilder.chunk("tRNS", [1, 2]), idat(goodData)], colorType: 2))
        }
    }

    @Test("A flipped bit in any chunk fails that chunk's CRC")
    func flippedBitFailsCRC() throws {
        let cases: [(offset: Int, chunk: String)] = [
            (16, "IHDR"), (29, "IHDR"), (41, "tEXt"), (60, "IDAT"), (Self.valid.count - 2, "IEND"),
        ]
        for (offset, chunk) in cases {
            var bytes = Self.valid
            bytes[offset] ^= 0x04
            #expect(throws: PNGError.badCRC(chunk: chunk)) { try PNGDecoder.decode(bytes) }
        }
    }

    @Test("A file cut anywhere is refused, with the right error at chunk boundaries")
    func cutFileRefused() throws {
        let bytes = Self.valid
        var boundaries: Set<Int> = [8]
        var position = 8
        while position < bytes.count {
            let length = Int(PNGDecoder.bigEndian(bytes, at: position))
            position += 12 + length
            boundaries.insert(position)
        }
        for length in 0..<bytes.count {
            let cut = Array(bytes.prefix(length))
            do {
                _ = try PNGDecoder.decode(cut)
                Issue.record("a file cut to \(length) bytes decoded")
            } catch {
                switch error {
                case .badSignature: #expect(length < 8)
                case .missingIHDR: #expect(length == 8)
                case .unexpectedEnd: #expect(length > 8)
                case .truncatedChunk: #expect(!boundaries.contains(length))
                default: Issue.record("a file cut to \(length) bytes threw \(error)")
                }
                if boundaries.contains(length) && length > 8 { #expect(error == .unexpectedEnd) }
            }
        }
    }

    @Test("Huge dimensions are refused before anything is allocated for them")
    func hugeDimensionsRefused() throws {
        let start = ContinuousClock.now
        #expect(
            throws: PNGError.imageTooLarge(
                width: 100_000, height: 100_000, maximumPixels: PNGDecoder.defaultMaximumPixels)
        ) {
            try PNGDecoder.decode(png([idat(goodData)], width: 100_000, height: 100_000))
        }
        #expect(
            throws: PNGError.imageTooLarge(
                width: 0x7fff_ffff, height: 0x7fff_ffff, maximumPixels: Int.max)
        ) {
            try PNGDecoder.decode(
                png([idat(goodData)], width: 0x7fff_ffff, height: 0x7fff_ffff), maximumPixels: Int.max)
        }
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    @Test("Corrupt zlib streams inside IDAT are refused with the zlib problem")
    func corruptZlibRefused() throws {
        var badHeader = PNGTestBuilder.zlibStored(goodData)
        badHeader[0] = 0x77
        #expect(throws: PNGError.badZlibStream(.badHeader)) {
            try PNGDecoder.decode(png([PNGTestBuilder.chunk("IDAT", badHeader)]))
        }
        #expect(throws: PNGError.badZlibStream(.badBlockType)) {
            try PNGDecoder.decode(png([PNGTestBuilder.chunk("IDAT", [0x78, 0x01, 0x07, 0, 0, 0])]))
        }
        var badLength = PNGTestBuilder.zlibStored(goodData)
        badLength[4] ^= 0x10
        #expect(throws: PNGError.badZlibStream(.badStoredLength)) {
            try PNGDecoder.decode(png([PNGTestBuilder.chunk("IDAT", badLength)]))
        }
        var badAdler = PNGTestBuilder.zlibStored(goodData)
        badAdler[badAdler.count - 2] ^= 0x01
        #expect(throws: PNGError.badZlibStream(.adlerMismatch)) {
            try PNGDecoder.decode(png([PNGTestBuilder.chunk("IDAT", badAdler)]))
        }
        var writer = PNGTestBuilder.BitWriter()
        writer.bytes = [0x78, 0x01]
        writer.write(3, count: 3)  // final, fixed Huffman
        writer.writeFixedSymbol(0)
        writer.writeMatch(length: 10, distance: 30)
        writer.flush()
        #expect(throws: PNGError.badZlibStream(.distanceTooFarBack)) {
            try PNGDecoder.decode(png([PNGTestBuilder.chunk("IDAT", writer.bytes + [0, 0, 0, 0])]))
        }
        #expect(throws: PNGError.badZlibStream(.badHuffmanTable)) {
            try PNGDecoder.decode(
                png([PNGTestBuilder.chunk("IDAT", [0x78, 0x01, 0x05, 0xe0, 0xff, 0xff, 0xff, 0xff])]))
        }
        #expect(throws: PNGError.badZlibStream(.endedEarly)) {
            try PNGDecoder.decode(
                png([PNGTestBuilder.chunk("IDAT", Array(PNGTestBuilder.zlibStored(goodData).dropLast(5)))]
                ))
        }
    }

    @Test("Thousands of mutated PNGs either decode or throw, and never trap")
    func mutationLoop() throws {
        let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")
        let bases = [
            Self.valid,
            try [UInt8](Data(contentsOf: fixtures.appendingPathComponent("pillow-poster.png"))),
            try [UInt8](Data(contentsOf: fixtures.appendingPathComponent("palette4-trns-interlaced.png"))),
            try [UInt8](Data(contentsOf: fixtures.appendingPathComponent("grey16-interlaced.png"))),
        ]
        var generator = SeededGenerator(seed: 0x5eed)
        var decoded = 0
        var errors: [String: Int] = [:]
        for round in 0..<4000 {
            var bytes = bases[round % bases.count]
            switch generator.below(4) {
            case 0:
                for _ in 0...generator.below(4) {
                    bytes[generator.below(bytes.count)] ^= UInt8(1 + generator.below(255))
                }
            case 1:
                bytes = Array(bytes.prefix(generator.below(bytes.count)))
            case 2:
                let start = generator.below(bytes.count)
                let end = min(bytes.count, start + 1 + generator.below(64))
                let target = generator.below(bytes.count)
                bytes.insert(contentsOf: bytes[start..<end], at: target)
            default:
                let target = 8 + generator.below(bytes.count - 8)
                bytes.replaceSubrange(
                    target..<min(bytes.count, target + 4),
                    with: (0..<4).map { _ in UInt8(truncatingIfNeeded: generator.next() >> 24) })
            }
            if round % 2 == 0 { bytes = PNGTestBuilder.fixingCRCs(bytes) }
            do {
                let bitmap = try PNGDecoder.decode(bytes, maximumPixels: 1 << 20)
                #expect(bitmap.rgba.count == bitmap.width * bitmap.height * 4)
                decoded += 1
            } catch {
                let name = Mirror(reflecting: error).children.first?.label ?? String(describing: error)
                errors[name, default: 0] += 1
            }
        }
        // The corruption must reach past the CRC check into the zlib and filter layers.
        #expect(decoded > 0)
        #expect(errors["badZlibStream", default: 0] > 50)
        #expect(errors["badCRC", default: 0] > 50)
        #expect(errors.keys.count >= 8, "\(errors)")
    }
}
