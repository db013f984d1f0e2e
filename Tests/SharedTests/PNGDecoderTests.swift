import Foundation
import Shared
import Testing

@testable import Imaging

/// Hand-built PNGs of every colour type, bit depth, transparency form, filter and interlacing,
/// with the expected pixels worked out by hand.
extension CodecTests {
    /// Decodes a one-row image and returns its RGBA bytes.
    func decodeRow(
        width: Int, bitDepth: UInt8, colorType: UInt8, row: [UInt8], chunks: [[UInt8]] = []
    ) throws -> [UInt8] {
        let png = PNGTestBuilder.png(
            width: UInt32(width), height: 1, bitDepth: bitDepth, colorType: colorType,
            filteredData: [0] + row, chunksBeforeData: chunks)
        let bitmap = try PNGDecoder.decode(png)
        #expect(bitmap.width == width && bitmap.height == 1)
        return bitmap.rgba
    }

    /// Opaque grey pixels of the given levels.
    func grey(_ levels: [UInt8]) -> [UInt8] { levels.flatMap { [$0, $0, $0, 255] } }

    @Test("1-bit grey scales 0 and 1 to 0 and 255, over two rows")
    func oneBitGreyScales() throws {
        let rows = [[1, 0, 1, 1, 0, 0, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1, 0, 1, 0, 0]]
        let png = PNGTestBuilder.png(
            width: 10, height: 2, bitDepth: 1, colorType: 0,
            filteredData: PNGTestBuilder.unfilteredData(
                rows.map { PNGTestBuilder.pack($0, bitDepth: 1) })
        )
        let bitmap = try PNGDecoder.decode(png)
        #expect(bitmap.rgba == grey(rows.flatMap { $0 }.map { $0 == 1 ? 255 : 0 }))
    }

    @Test("2-bit and 4-bit grey scale to the full range")
    func lowDepthGreyScales() throws {
        #expect(
            try decodeRow(
                width: 5, bitDepth: 2, colorType: 0,
                row: PNGTestBuilder.pack([0, 1, 2, 3, 2], bitDepth: 2))
                == grey([0, 85, 170, 255, 170]))
        #expect(
            try decodeRow(
                width: 3, bitDepth: 4, colorType: 0,
                row: PNGTestBuilder.pack([0, 7, 15], bitDepth: 4))
                == grey([0, 119, 255]))
    }

    @Test("8-bit grey passes through and 16-bit grey rounds v/257 to nearest")
    func wideGreyRounds() throws {
        #expect(
            try decodeRow(width: 3, bitDepth: 8, colorType: 0, row: [0, 128, 255])
                == grey([0, 128, 255]))
        // 0x0080 = 128 → 0.498 → 0; 0x0081 = 129 → 0.502 → 1; 0x8080 → 128; 0x1234 = 4660 → 18.13 → 18.
        let row: [UInt8] = [0x00, 0x00, 0x00, 0x80, 0x00, 0x81, 0x80, 0x80, 0xff, 0xff, 0x12, 0x34]
        #expect(
            try decodeRow(width: 6, bitDepth: 16, colorType: 0, row: row)
                == grey([0, 0, 1, 128, 255, 18]))
    }

    @Test("8-bit and 16-bit RGB become opaque RGBA")
    func rgbBecomesOpaqueRGBA() throws {
        #expect(
            try decodeRow(width: 2, bitDepth: 8, colorType: 2, row: [1, 2, 3, 250, 251, 252])
                == [1, 2, 3, 255, 250, 251, 252, 255])
        // 0x0101 → 1, 0x8000 = 32768 → 127.502 → 128, 0xffff → 255.
        #expect(
            try decodeRow(
                width: 1, bitDepth: 16, colorType: 2, row: [0x01, 0x01, 0x80, 0x00, 0xff, 0xff])
                == [1, 128, 255, 255])
    }

    @Test("Palette images of 1, 2, 4 and 8 bits look their indices up")
    func palettesLookUpIndices() throws {
        let colors: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [9, 8, 7]]
        let plte = PNGTestBuilder.chunk("PLTE", colors.flatMap { $0 })
        let expected: ([Int]) -> [UInt8] = { indices in indices.flatMap { colors[$0] + [255] } }
        #expect(
            try decodeRow(
                width: 3, bitDepth: 1, colorType: 3,
                row: PNGTestBuilder.pack([1, 0, 1], bitDepth: 1),
                chunks: [plte])
                == expected([1, 0, 1]))
        #expect(
            try decodeRow(
                width: 5, bitDepth: 2, colorType: 3,
                row: PNGTestBuilder.pack([3, 2, 1, 0, 3], bitDepth: 2),
                chunks: [plte]) == expected([3, 2, 1, 0, 3]))
        #expect(
            try decodeRow(
                width: 3, bitDepth: 4, colorType: 3,
                row: PNGTestBuilder.pack([2, 3, 0], bitDepth: 4),
                chunks: [plte])
                == expected([2, 3, 0]))
        #expect(
            try decodeRow(width: 4, bitDepth: 8, colorType: 3, row: [3, 3, 1, 2], chunks: [plte])
                == expected([3, 3, 1, 2]))
    }

    @Test("Grey with alpha and RGBA decode, at 8 and 16 bits")
    func greyAlphaAndRGBADecode() throws {
        #expect(
            try decodeRow(width: 2, bitDepth: 8, colorType: 4, row: [10, 20, 200, 0]) == [
                10, 10, 10, 20, 200, 200, 200, 0,
            ])
        #expect(
            try decodeRow(width: 1, bitDepth: 16, colorType: 4, row: [0x80, 0x80, 0x00, 0x81]) == [
                128, 128, 128, 1,
            ])
        #expect(
            try decodeRow(width: 1, bitDepth: 8, colorType: 6, row: [1, 2, 3, 4]) == [1, 2, 3, 4])
        #expect(
            try decodeRow(
                width: 1, bitDepth: 16, colorType: 6,
                row: [0xff, 0xff, 0x00, 0x80, 0x01, 0x01, 0x80, 0x80])
                == [255, 0, 1, 128])
    }

    @Test("A grey tRNS key makes matching samples transparent, compared at the original depth")
    func greyKeyMakesTransparent() throws {
        let key50 = PNGTestBuilder.chunk("tRNS", [0, 50])
        #expect(
            try decodeRow(width: 2, bitDepth: 8, colorType: 0, row: [50, 51], chunks: [key50])
                == [50, 50, 50, 0, 51, 51, 51, 255])
        let key2 = PNGTestBuilder.chunk("tRNS", [0, 2])
        #expect(
            try decodeRow(
                width: 3, bitDepth: 2, colorType: 0,
                row: PNGTestBuilder.pack([2, 3, 2], bitDepth: 2),
                chunks: [key2])
                == [170, 170, 170, 0, 255, 255, 255, 255, 170, 170, 170, 0])
        // 0x1234 and 0x1235 both round to 18, but only the exact 16-bit match is transparent.
        let key1234 = PNGTestBuilder.chunk("tRNS", [0x12, 0x34])
        #expect(
            try decodeRow(
                width: 2, bitDepth: 16, colorType: 0, row: [0x12, 0x34, 0x12, 0x35], chunks: [key1234]
            )
                == [18, 18, 18, 0, 18, 18, 18, 255])
    }

    @Test("An RGB tRNS key makes only exactly matching pixels transparent")
    func rgbKeyMakesTransparent() throws {
        let key = PNGTestBuilder.chunk("tRNS", [0, 1, 0, 2, 0, 3])
        #expect(
            try decodeRow(
                width: 3, bitDepth: 8, colorType: 2, row: [1, 2, 3, 1, 2, 4, 1, 2, 3], chunks: [key])
                == [1, 2, 3, 0, 1, 2, 4, 255, 1, 2, 3, 0])
        let key16 = PNGTestBuilder.chunk("tRNS", [0x01, 0x01, 0x02, 0x02, 0x03, 0x03])
        let row: [UInt8] = [0x01, 0x01, 0x02, 0x02, 0x03, 0x03, 0x01, 0x01, 0x02, 0x02, 0x03, 0x04]
        #expect(
            try decodeRow(width: 2, bitDepth: 16, colorType: 2, row: row, chunks: [key16]) == [
                1, 2, 3, 0, 1, 2, 3, 255,
            ])
    }

    @Test("A palette tRNS gives alphas to the first entries and leaves the rest opaque")
    func paletteTransparencyGivesAlphas() throws {
        let chunks = [
            PNGTestBuilder.chunk("PLTE", [10, 10, 10, 20, 20, 20, 30, 30, 30]),
            PNGTestBuilder.chunk("tRNS", [0, 128]),
        ]
        #expect(
            try decodeRow(width: 3, bitDepth: 8, colorType: 3, row: [0, 1, 2], chunks: chunks)
                == [10, 10, 10, 0, 20, 20, 20, 128, 30, 30, 30, 255])
    }

    /// One row filter on hand-picked grey rows, and the levels it gives, worked by hand.
    struct RowFilterCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let width: Int
        let filteredRows: [[UInt8]]
        let levels: [UInt8]
    }

    static let rowFilterCases = [
        RowFilterCase(
            testDescription: "The Sub filter adds the byte to the left", width: 3,
            filteredRows: [[1, 10, 5, 5]],
            levels: [10, 15, 20]),
        RowFilterCase(
            testDescription: "The Up filter adds the byte above", width: 3,
            filteredRows: [[0, 10, 20, 30], [2, 1, 2, 3]], levels: [10, 20, 30, 11, 22, 33]),
        // 1 + (0 + 10) / 2 = 6; 2 + (6 + 20) / 2 = 15; 3 + (15 + 30) / 2 = 25.
        RowFilterCase(
            testDescription: "The Average filter adds the floor of the mean of left and above", width: 3,
            filteredRows: [[0, 10, 20, 30], [3, 1, 2, 3]], levels: [10, 20, 30, 6, 15, 25]),
        // Above 60 → 40 + 60 = 100; left 100 (estimate 90) → 105; upper-left 50 (estimate 70) → 53;
        // left 53 (estimate 58) → 53 + 250 = 303 mod 256 = 47.
        RowFilterCase(
            testDescription:
                "The Paeth filter picks above, left or upper-left as the predictor, wrapping mod 256",
            width: 4, filteredRows: [[0, 60, 50, 15, 20], [4, 40, 5, 3, 250]],
            levels: [60, 50, 15, 20, 100, 105, 53, 47]),
    ]

    @Test("A row filter adds its predictor", arguments: rowFilterCases)
    func rowFilter(_ filter: RowFilterCase) throws {
        #expect(try greyLevels(width: filter.width, filteredRows: filter.filteredRows) == filter.levels)
    }

    @Test("Rows filtered with all five filters on RGBA pixels decode to the original pixels")
    func allFiveFiltersOnRGBA() throws {
        var generator = SeededGenerator(seed: 42)
        let rgba = (0..<(7 * 10 * 4)).map { _ in UInt8(truncatingIfNeeded: generator.next() >> 24) }
        for filters: [UInt8] in [[0], [1], [2], [3], [4], [4, 3, 2, 1, 0]] {
            let bitmap = try PNGDecoder.decode(
                PNGTestBuilder.rgbaPNG(width: 7, height: 10, rgba: rgba, filters: filters))
            #expect(bitmap.rgba == rgba, "filters \(filters)")
        }
    }

    @Test("Adam7-interlaced RGBA decodes to the same pixels as the plain image, at several sizes")
    func adam7Interlace() throws {
        for (width, height) in [(10, 9), (1, 1), (3, 2), (8, 8), (17, 5)] {
            let rgba = (0..<(width * height)).flatMap { index -> [UInt8] in
                let (x, y) = (index % width, index / width)
                return [UInt8(x * 13 % 256), UInt8(y * 29 % 256), UInt8((x + y) % 256), UInt8(255 - x)]
            }
            let data = PNGTestBuilder.adam7Data(
                width: width, height: height, pixels: rgba, bytesPerPixel: 4)
            let png = PNGTestBuilder.png(
                width: UInt32(width), height: UInt32(height), bitDepth: 8, colorType: 6, interlaced: true,
                filteredData: data)
            #expect(try PNGDecoder.decode(png).rgba == rgba, "\(width)×\(height)")
        }
    }

    @Test("Ancillary chunks are skipped and split IDAT chunks are joined")
    func ancillaryChunksAndSplitIDAT() throws {
        let rgba: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let stream = PNGTestBuilder.zlibStored([0] + rgba)
        let png =
            PNGTestBuilder.signature
            + PNGTestBuilder.header(width: 2, height: 1, bitDepth: 8, colorType: 6)
            + PNGTestBuilder.chunk("tEXt", Array("Title\0poster".utf8))
            + PNGTestBuilder.chunk("abCd", [9, 9])
            + PNGTestBuilder.chunk("IDAT", Array(stream.prefix(5))) + PNGTestBuilder.chunk("IDAT", [])
            + PNGTestBuilder.chunk("IDAT", Array(stream.dropFirst(5)))
            + PNGTestBuilder.chunk("tIME", [0, 0, 0, 0, 0, 0, 0])
            + PNGTestBuilder.chunk("IEND", [])
        #expect(try PNGDecoder.decode(png).rgba == rgba)
        #expect(try PNGDecoder.decode(Data(png)).rgba == rgba)
    }

    @Test("A fixed-Huffman compressed PNG decodes")
    func fixedHuffmanStream() throws {
        let rgba: [UInt8] = (0..<(6 * 4 * 4)).map { (index: Int) -> UInt8 in UInt8(index % 12 * 20) }
        let data: [UInt8] = (0..<4).flatMap { (row: Int) -> [UInt8] in
            [0] + rgba[(row * 24)..<(row * 24 + 24)]
        }
        let header: [UInt8] = PNGTestBuilder.header(width: 6, height: 4, bitDepth: 8, colorType: 6)
        let png: [UInt8] =
            PNGTestBuilder.signature + header
            + PNGTestBuilder.chunk("IDAT", PNGTestBuilder.zlibFixedHuffman(data))
            + PNGTestBuilder.chunk("IEND", [])
        #expect(try PNGDecoder.decode(png).rgba == rgba)
    }

    /// Decodes a two-row 8-bit grey image from its filtered rows and returns the grey levels.
    func greyLevels(width: Int, filteredRows: [[UInt8]]) throws -> [UInt8] {
        let png = PNGTestBuilder.png(
            width: UInt32(width), height: UInt32(filteredRows.count), bitDepth: 8, colorType: 0,
            filteredData: filteredRows.flatMap { $0 })
        return try PNGDecoder.decode(png).rgba.enumerated().filter { $0.offset % 4 == 0 }.map(\.element)
    }

    @Test("The pixel limit can be raised or lowered per call")
    func pixelLimitPerCall() throws {
        let png = PNGTestBuilder.rgbaPNG(width: 10, height: 10, rgba: [UInt8](repeating: 9, count: 400))
        #expect(PNGDecoder.defaultMaximumPixels == 64 * 1024 * 1024)
        #expect(try PNGDecoder.decode(png, maximumPixels: 100).width == 10)
        #expect(throws: PNGError.imageTooLarge(width: 10, height: 10, maximumPixels: 99)) {
            try PNGDecoder.decode(png, maximumPixels: 99)
        }
    }

    @Test("Every error describes itself in one English sentence")
    func errorsDescribeThemselves() throws {
        let errors: [PNGError] = [
            .badSignature, .badCRC(chunk: "IDAT"), .truncatedChunk(chunk: "IDAT"), .unexpectedEnd,
            .badChunkLength(chunk: "IDAT", length: 0xffff_ffff), .missingIHDR,
            .ihdrNotFirst(found: "IDAT"),
            .duplicateChunk("PLTE"), .chunkOutOfOrder("PLTE"), .missingIDAT, .missingPalette,
            .idatNotConsecutive,
            .unknownCriticalChunk("ABCD"), .badHeaderLength(12), .invalidDimensions(width: 0, height: 1),
            .unsupportedColorType(5), .unsupportedBitDepth(bitDepth: 4, colorType: 2),
            .unsupportedCompressionMethod(1), .unsupportedFilterMethod(1), .unsupportedInterlaceMethod(2),
            .imageTooLarge(width: 100_000, height: 100_000, maximumPixels: 64), .badPaletteLength(4),
            .badTransparencyLength(3), .badZlibStream(.adlerMismatch), .badRowFilter(5),
            .imageDataTooShort(expected: 10, actual: 9), .imageDataTooLong(expected: 10),
            .paletteIndexOutOfRange(index: 3, paletteSize: 2),
        ]
        for error in errors {
            let text = error.description
            #expect(text.first?.isUppercase == true && text.hasSuffix("."), "\(text)")
            #expect(text.dropLast().contains(".") == false, "\(text)")
        }
        #expect(
            PNGError.badZlibStream(.badHeader).description
                == "The image data is not a valid zlib stream: its header is invalid.")
    }

}
