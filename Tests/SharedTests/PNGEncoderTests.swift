import Foundation
import Testing

@testable import Shared

@Suite("PNG encoder and deflater")
struct PNGEncoderTests {
    /// Bitmaps of several sizes, smooth and noisy, opaque and translucent.
    static func sampleBitmaps() -> [(name: String, bitmap: Bitmap)] {
        var random = TestBytes(state: 42)
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
    func containerIsWellFormed() throws {
        let fixtureDirectory = ProcessInfo.processInfo.environment["PNG_ENCODER_FIXTURE_DIR"]
        for (name, bitmap) in Self.sampleBitmaps() {
            let file = PNGEncoder.encode(bitmap)
            let png = try #require(PNGContainer(file), "\(name): bad signature or chunk lengths")
            #expect(png.types.first == "IHDR", "\(name)")
            #expect(png.types.last == "IEND", "\(name)")
            #expect(png.types.contains("IDAT"), "\(name)")
            #expect(Set(png.types).isSubset(of: ["IHDR", "IDAT", "IEND"]), "\(name)")
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

    @Test("IHDR records the size, 8-bit depth, no interlace, and RGB only when every pixel is opaque")
    func headerFields() throws {
        var opaque = Bitmap(width: 300, height: 2, filledWith: RGBA(red: 10, green: 20, blue: 30))
        var translucent = opaque
        translucent.rgba[4 * 299 + 3] = 254
        opaque.rgba[0] = 99
        for (bitmap, colourType) in [(opaque, UInt8(2)), (translucent, UInt8(6))] {
            let png = try #require(PNGContainer(PNGEncoder.encode(bitmap)))
            let header = try #require(png.chunks.first { $0.type == "IHDR" })
            #expect(header.data.count == 13)
            #expect(PNGContainer.bigEndian(header.data, at: 0) == 300)
            #expect(PNGContainer.bigEndian(header.data, at: 4) == 2)
            // Bit depth, colour type, compression, filter method, interlace.
            #expect(Array(header.data[8..<13]) == [8, colourType, 0, 0, 0])
        }
    }

    @Test("The zlib stream has a valid header and its Adler-32 matches scanlines filtered independently")
    func zlibStreamMatchesReferenceScanlines() throws {
        for (name, bitmap) in Self.sampleBitmaps() {
            let opaque = !stride(from: 3, to: bitmap.rgba.count, by: 4).contains { bitmap.rgba[$0] != 255 }
            let png = try #require(PNGContainer(PNGEncoder.encode(bitmap)))
            let stream = png.zlibStream
            try #require(stream.count >= 6)
            // CMF: deflate (8) with a 32 KiB window (7); FLG: no preset dictionary; header check.
            #expect(stream[0] == 0x78, "\(name)")
            #expect(stream[1] & 0x20 == 0, "\(name)")
            #expect((Int(stream[0]) * 256 + Int(stream[1])) % 31 == 0, "\(name)")
            let scanlines = ReferenceScanlines.make(bitmap, channels: opaque ? 3 : 4)
            let trailer = PNGContainer.bigEndian(stream, at: stream.count - 4)
            #expect(trailer == Adler32.checksum(scanlines), "\(name)")
        }
    }

    @Test("Smooth and repetitive-but-noisy images compress far below their raw size")
    func regularImagesCompress() {
        var gradient = Bitmap(width: 200, height: 150, filledWith: RGBA(red: 0, green: 0, blue: 0))
        var tiled = gradient
        var random = TestBytes(state: 7)
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
    func noiseFallsBackToStoredBlocks() {
        var random = TestBytes(state: 99)
        let noise = random.bytes(200_000)
        let stream = Deflater.zlibCompress(noise)
        // Stored blocks cost 5 bytes per 64 KiB; Huffman blocks of uniform noise would cost more.
        #expect(stream.count <= noise.count + 6 + 5 * 16 + 8)
        #expect(PNGContainer.bigEndian(stream, at: stream.count - 4) == Adler32.checksum(noise))
    }

    @Test("Empty input compresses to zlib's canonical empty stream")
    func emptyInput() {
        // Header 78 9C, one final fixed-Huffman block holding only end-of-block (03 00), Adler-32 of nothing (1).
        #expect(Deflater.zlibCompress([]) == [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
    }

    @Test("Long runs of one byte shrink to a few hundred bytes")
    func longRunsCompress() {
        let run = [UInt8](repeating: 0xAB, count: 300_000)
        let stream = Deflater.zlibCompress(run)
        #expect(stream.count < 600)
        #expect(PNGContainer.bigEndian(stream, at: stream.count - 4) == Adler32.checksum(run))
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

    @Test("Encoding the same bitmap twice gives the same bytes")
    func deterministic() {
        for (_, bitmap) in Self.sampleBitmaps() {
            #expect(PNGEncoder.encode(bitmap) == PNGEncoder.encode(bitmap))
        }
    }
}
