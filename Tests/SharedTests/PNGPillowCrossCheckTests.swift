import Foundation
import Shared
import Testing

@testable import Imaging

/// Decodes the fixtures of `Fixtures/make_fixtures.py` and compares with what Pillow decoded.
extension CodecTests {
    /// One line of the fixture manifest.
    struct Fixture: Sendable {
        /// The PNG file's name.
        let file: String
        /// The width Pillow saw.
        let width: Int
        /// The height Pillow saw.
        let height: Int
        /// Pillow's pixel hash, or nil for a 16-bit fixture compared byte by byte.
        let hash: String?
        /// The file of Pillow's raw RGBA bytes, for 16-bit fixtures.
        let rawFile: String?
    }

    /// The fixtures directory inside the test bundle.
    static var directory: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures")
    }

    /// Every fixture listed in the manifest.
    static let fixtures: [Fixture] = {
        let manifest =
            (try? String(contentsOf: directory.appendingPathComponent("manifest.txt"), encoding: .utf8)) ?? ""
        return manifest.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 5, let width = Int(fields[1]), let height = Int(fields[2]) else {
                return nil
            }
            return Fixture(
                file: fields[0], width: width, height: height, hash: fields[3] == "hash" ? fields[4] : nil,
                rawFile: fields[3] == "raw" ? fields[4] : nil)
        }
    }()

    @Test("The manifest lists every colour type, bit depth and interlaced fixture")
    func manifestListsEveryFixture() {
        #expect(Self.fixtures.count >= 38)
        #expect(Self.fixtures.contains { $0.file == "palette4-trns-interlaced.png" })
        #expect(Self.fixtures.contains { $0.file == "rgba16-interlaced.png" })
    }

    @Test("Each fixture decodes to Pillow's pixels")
    func fixturesDecodeToPillowsPixels() throws {
        for fixture in Self.fixtures {
            let context = Comment(rawValue: fixture.file)
            let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(fixture.file)))
            let bitmap: Bitmap
            do { bitmap = try PNGDecoder.decode(bytes) } catch {
                Issue.record(error, context)
                continue
            }
            #expect(bitmap.width == fixture.width, context)
            #expect(bitmap.height == fixture.height, context)
            if let hash = fixture.hash {
                #expect(bitmap.contentHash == hash, context)
            } else if let rawFile = fixture.rawFile {
                // Pillow truncates 16-bit samples (v >> 8) where the decoder rounds: allow one step.
                let pillow = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(rawFile)))
                try #require(pillow.count == bitmap.rgba.count, context)
                let worst = zip(pillow, bitmap.rgba).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(worst <= 1, context)
            }
        }
    }

}
