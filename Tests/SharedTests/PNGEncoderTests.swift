import Foundation
import Shared
import Testing

@testable import Imaging

/// PNG encoder and deflater.
extension CodecTests {
    /// Bitmaps of several sizes, smooth and noisy, opaque and translucent.
    static func sampleBitmaps() -> [(name: String, bitmap: Bitmap)] {
        var random = SeededGenerator(seed: 42)
        var samples: [(String, Bitmap)] = []
        for (width, height) in [(1, 1), (2, 3), (7, 5), (33, 17), (64, 40)] {
            for translucent in [false, true] {
                var rgba: [UInt8] = []
                for y in 0..<height {
                    for x in 0..<width {
                        let grain = Int(random.next() % 9) - 4
                        rgba.append(UInt8(clamping: x * 5 + grain))
                        rgba.append(UInt8(clamping: y * 7 + grain))
                        rgba.append(UInt8(clamping: 128 + (x ^ y) + grain))
                        rgba.append(translucent ? UInt8((x * 31 + y * 17) % 256) : 255)
                    }
                }
                let name = "\(width)x\(height)\(translucent ? "-rgba" : "-rgb")"
                samples.append((name, Bitmap(width: width, height: height, rgba: rgba)))
            }
        }
        return samples
    }

    @Test("Every file has the signature, IHDR first, IDAT, IEND last and correct chunk CRCs")
    func chunksInOrderWithCRCs() throws {
        let fixtureDirectory = ProcessInfo.processInfo.environment["PNG_ENCODER_FIXTURE_DIR"]
        for (name, bitmap) in Self.sampleBitmaps() {
            let file = PNGEncoder.encode(bitmap)
            let png = try #require(PNGContainer(file), "\(name): bad signature or chunk lengths")
            #expect(png.types.first == "IHDR", "\(name)")
            #expect(png.types.last == "IEND", "\(name)")
            #expect(png.types.contains("IDAT"), "\(name)")
            #expect(Set(png.types).isSubset(of: ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"]), "\(name)")
            for chunk in png.chunks {
                #expect(chunk.storedCRC == PNGContainer.expectedCRC(of: chunk), "\(name) \(chunk.type)")
            }
            #expect(png.chunks.last?.data.isEmpty == true, "\(name): IEND carries no data")
            if let fixtureDirectory {
                // Run by hand for Tests/SharedTests/Fixtures/check_encoder.py.
                let base = URL(fileURLWithPath: fixtureDirectory).appendingPathComponent(name)
                try Data(file).write(to: base.appendingPathExtension("png"))
                try Data(bitmap.rgba).write(to: base.appendingPathExtension("rgba"))
            }
        }
    }

    @Test("IHDR records the size, 8-bit depth, no interlace, and the smallest colour type that is exact")
    func headerRecordsTheLayout() throws {
        for (name, bitmap, colourType) in Self.layoutSamples() {
            let png = try #require(PNGContainer(PNGEncoder.encode(bitmap)))
            let header = try #require(png.chunks.first { $0.type == "IHDR" })
            #expect(header.data.count == 13)
            #expect(PNGContainer.bigEndian(header.data, at: 0) == UInt32(bitmap.width), "\(name)")
            #expect(PNGContainer.bigEndian(header.data, at: 4) == UInt32(bitmap.height), "\(name)")
            // Bit depth, colour type, compression, filter method, interlace.
            #expect(Array(header.data[8..<13]) == [8, colourType, 0, 0, 0], "\(name)")
            // A palette comes with PLTE before the image data, and tRNS only when some entry is translucent.
            let types = png.types
            #expect(types.contains("PLTE") == (colourType == 3), "\(name)")
            if let palette = types.firstIndex(of: "PLTE"), let data = types.firstIndex(of: "IDAT") {
                #expect(palette < data, "\(name)")
            }
            let translucent = stride(from: 3, to: bitmap.rgba.count, by: 4).contains {
                bitmap.rgba[$0] != 255
            }
            #expect(types.contains("tRNS") == (colourType == 3 && translucent), "\(name)")
        }
    }

    @Test(
        "The truecolour zlib stream has a valid header and its Adler-32 matches scanlines filtered independently"
    )
    func zlibStreamAndAdler() throws {
        for (name, bitmap) in Self.sampleBitmaps() {
            let opaque = !stride(from: 3, to: bitmap.rgba.count, by: 4).contains {
                bitmap.rgba[$0] != 255
            }
            let png = try #require(PNGContainer(PNGEncoder.encodeTruecolour(bitmap)))
            let stream = png.zlibStream
            try #require(stream.count >= 6)
            // CMF: deflate (8) with a 32 KiB window (7); FLG: no preset dictionary; header check.
            #expect(stream[0] == 0x78, "\(name)")
            #expect(stream[1] & 0x20 == 0, "\(name)")
            let check: Int = Int(stream[0]) * 256 + Int(stream[1])
            #expect(check % 31 == 0, "\(name)")
            let scanlines = ReferenceScanlines.make(bitmap, channels: opaque ? 3 : 4)
            let trailer = PNGContainer.bigEndian(stream, at: stream.count - 4)
            #expect(trailer == Adler32.checksum(scanlines), "\(name)")
        }
    }

    @Test("Encoding the same bitmap twice gives the same bytes")
    func sameBitmapSameBytes() throws {
        for (_, bitmap) in Self.sampleBitmaps() {
            #expect(PNGEncoder.encode(bitmap) == PNGEncoder.encode(bitmap))
        }
    }

    @Test("Bitmaps without pixels encode without trapping (PNG readers will refuse them)")
    func emptyBitmaps() throws {
        for (width, height) in [(0, 0), (0, 3), (4, 0)] {
            let file = PNGEncoder.encode(Bitmap(width: width, height: height, rgba: []))
            let png = try #require(PNGContainer(file))
            #expect(png.types == ["IHDR", "IDAT", "IEND"])
            #expect(
                SepiaFilter(intensity: 0.8).apply(to: Bitmap(width: width, height: height, rgba: [])).rgba
                    .isEmpty)
        }
    }

    /// Bitmaps of each kind of content, each with the colour type it holds exactly in the fewest bytes a
    /// pixel, worked out here from how the pixels were made.
    static func layoutSamples() -> [(name: String, bitmap: Bitmap, colourType: UInt8)] {
        var random = SeededGenerator(seed: 5)
        func bitmap(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> RGBA) -> Bitmap {
            var rgba: [UInt8] = []
            for y in 0..<height {
                for x in 0..<width {
                    let colour = pixel(x, y)
                    rgba += [colour.red, colour.green, colour.blue, colour.alpha]
                }
            }
            return Bitmap(width: width, height: height, rgba: rgba)
        }
        let noise = random.bytes(64 * 48 * 4)
        return [
            // Every pixel grey and opaque: one grey byte a pixel (even with many levels).
            (
                "grey",
                bitmap(64, 48) { x, y in RGBA(red: UInt8(x * 4), green: UInt8(x * 4), blue: UInt8(x * 4)) }, 0
            ),
            // Grey with more than 256 grey-and-alpha pairs: two bytes a pixel.
            (
                "grey-alpha",
                bitmap(64, 48) { x, y in
                    let level = UInt8(x * 4)
                    return RGBA(red: level, green: level, blue: level, alpha: UInt8(y * 5))
                }, 4
            ),
            // Exactly 256 colours, opaque, and 256 with some translucent: a palette.
            (
                "256-colours",
                bitmap(64, 48) { x, y in RGBA(red: UInt8((x + 64 * y) % 256), green: 7, blue: 9) }, 3
            ),
            (
                "translucent-palette",
                bitmap(64, 48) { x, y in
                    RGBA(red: UInt8(x), green: UInt8(y % 4), blue: 1, alpha: y % 4 == 0 ? 128 : 255)
                },
                3
            ),
            // 257 colours: one too many for a palette.
            (
                "257-colours",
                bitmap(64, 48) { x, y in
                    let index = x + 64 * y
                    return RGBA(red: UInt8(index % 256), green: index == 300 ? 1 : 0, blue: 0)
                }, 2
            ),
            (
                "noise-rgb",
                bitmap(64, 48) { x, y in
                    let at = (x + 64 * y) * 4
                    return RGBA(red: noise[at], green: noise[at + 1], blue: noise[at + 2])
                }, 2
            ),
            (
                "noise-rgba",
                bitmap(64, 48) { x, y in
                    let at = (x + 64 * y) * 4
                    return RGBA(
                        red: noise[at], green: noise[at + 1], blue: noise[at + 2], alpha: noise[at + 3])
                }, 6
            ),
        ]
    }

    @Test("Every colour type the encoder picks decodes back to exactly the same pixels")
    func everyLayoutRoundTrips() throws {
        for (name, bitmap, _) in Self.layoutSamples()
            + Self.sampleBitmaps().map({ ($0.name, $0.bitmap, 0) })
        {
            let decoded = try PNGDecoder.decode(PNGEncoder.encode(bitmap))
            #expect(decoded == bitmap, "\(name)")
        }
    }

    @Test("Generated posters keep the truecolour layout, so their bytes do not change")
    func postersStayTruecolour() throws {
        let png = try #require(PNGContainer(PosterGenerator.pngData(for: "https://example.com/one.png")))
        let header = try #require(png.chunks.first { $0.type == "IHDR" })
        #expect(header.data[9] == 2)
        #expect(png.types == ["IHDR"] + Array(repeating: "IDAT", count: png.types.count - 2) + ["IEND"])
    }

    @Test("Smooth and repetitive-but-noisy images compress far below their raw size")
    func smoothAndNoisyImagesCompress() {
        var gradient = Bitmap(width: 200, height: 150, filledWith: RGBA(red: 0, green: 0, blue: 0))
        var tiled = gradient
        var random = SeededGenerator(seed: 7)
        let tile = random.bytes(16 * 16 * 3)
        for y in 0..<150 {
            for x in 0..<200 {
                let offset = (y * 200 + x) * 4
                gradient.rgba[offset] = UInt8(x)
                gradient.rgba[offset + 1] = UInt8(y)
                gradient.rgba[offset + 2] = UInt8((x + y) / 2)
                let tileOffset = ((y % 16) * 16 + x % 16) * 3
                tiled.rgba[offset] = tile[tileOffset]
                tiled.rgba[offset + 1] = tile[tileOffset + 1]
                tiled.rgba[offset + 2] = tile[tileOffset + 2]
            }
        }
        let raw = 200 * 150 * 3
        #expect(PNGEncoder.encode(gradient).count < raw / 50)
        #expect(PNGEncoder.encode(tiled).count < raw / 8)
    }

    @Test("Incompressible noise costs barely more than its raw size")
    func noiseCostsBarelyMore() {
        var random = SeededGenerator(seed: 99)
        let noise = random.bytes(200_000)
        let stream = Deflater.zlibCompress(noise)
        // Stored blocks cost 5 bytes per 64 KiB; Huffman blocks of uniform noise would cost more.
        #expect(stream.count <= noise.count + 6 + 5 * 16 + 8)
        #expect(PNGContainer.bigEndian(stream, at: stream.count - 4) == Adler32.checksum(noise))
    }

    @Test("Empty input compresses to zlib's canonical empty stream")
    func emptyInputGivesCanonicalStream() {
        // Header 78 9C, one final fixed-Huffman block holding only end-of-block (03 00), Adler-32 of nothing (1).
        #expect(Deflater.zlibCompress([]) == [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
    }

    @Test("Long runs of one byte shrink to a few hundred bytes")
    func longRunsShrink() {
        let run = [UInt8](repeating: 0xAB, count: 300_000)
        let stream = Deflater.zlibCompress(run)
        #expect(stream.count < 600)
        #expect(PNGContainer.bigEndian(stream, at: stream.count - 4) == Adler32.checksum(run))
    }

}
