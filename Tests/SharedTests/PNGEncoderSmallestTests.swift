import Foundation
import Shared
import Testing

@testable import Imaging

/// PNG encoder, smallest effort, and the cost-driven deflate parse.
extension CodecTests {
    /// Inputs of every kind the parse meets: empty and tiny, runs, repeats near and far, noise, and a
    /// noisy gradient like a photograph's filtered rows.
    static func streams() -> [(name: String, bytes: [UInt8])] {
        var random = SeededGenerator(seed: 11)
        var samples: [(String, [UInt8])] = [
            ("empty", []), ("one", [7]), ("two", [7, 7]), ("three", [1, 2, 3]), ("four", [9, 9, 9, 9]),
            ("run", [UInt8](repeating: 0x5A, count: 70_000)),
            ("noise", random.bytes(50_000)),
        ]
        let phrase = random.bytes(300)
        var repeats: [UInt8] = []
        for index in 0..<200 {
            repeats += phrase.prefix(40 + index % 200)
            repeats += random.bytes(index % 7)
        }
        samples.append(("repeats", repeats))
        var far = random.bytes(33_000)
        far += far.prefix(5_000)
        samples.append(("repeats past the window", far))
        samples.append(("noisy gradient", Self.noisyGradient(rows: 60, columns: 600)))
        return samples
    }

    /// Rows of a gradient with a little noise, Sub-filtered as an encoder would: small residuals, few
    /// long repeats, many chance short ones.
    static func noisyGradient(rows: Int, columns: Int) -> [UInt8] {
        var random = SeededGenerator(seed: 3)
        var bytes: [UInt8] = []
        for row in 0..<rows {
            bytes.append(1)
            var previous = 0
            for column in 0..<columns {
                let value = (row + column / 3) & 0xff + Int(random.next() % 7)
                bytes.append(UInt8((value - previous) & 0xff))
                previous = value
            }
        }
        return bytes
    }

    @Test("The cost-driven parse round-trips every kind of input")
    func costDrivenParseRoundTrips() throws {
        for (name, bytes) in Self.streams() {
            let stream = Deflater.zlibCompress(bytes, settings: .optimal)
            let inflated = try Inflater.inflate(stream, maximumOutputSize: bytes.count + 1)
            #expect(inflated == bytes, "\(name)")
        }
    }

    @Test("The cost-driven parse is never larger than the lazy one by more than a block header")
    func costDrivenParseNeverLarger() {
        for (name, bytes) in Self.streams() {
            let lazy = Deflater.zlibCompress(bytes).count
            let optimal = Deflater.zlibCompress(bytes, settings: .optimal).count
            // A header's worth of slack: the two write different block boundaries.
            #expect(optimal <= lazy + 16, "\(name): \(optimal) against \(lazy)")
        }
    }

    @Test("On a noisy photograph's filtered rows the cost-driven parse beats the lazy one")
    func costDrivenParseBeatsLazyOnPhotos() {
        // Chance short matches in the noise cost more than the literals they replace; a parse that prices
        // them from a poor first guess (DEFLATE's fixed codes) takes them and ends larger than the lazy one.
        let rows = PNGEncoder.filteredScanlines(
            Self.noisyPhoto(width: 320, height: 200), layout: .grey, strategy: .adaptive)
        let lazy = Deflater.zlibCompress(rows).count
        let optimal = Deflater.zlibCompress(rows, settings: .optimal).count
        #expect(optimal < lazy, "\(optimal) against \(lazy)")
    }

    /// A greyscale photograph-like bitmap: a smooth wave plus noise of about six levels either way, as
    /// the benchmark's test images are made.
    static func noisyPhoto(width: Int, height: Int) -> Bitmap {
        var random = SeededGenerator(seed: 17)
        var rgba: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let wave = 128 + 90 * sin(Double(x) / 31) * cos(Double(y) / 27)
                let noise = Int(random.next() % 13) + Int(random.next() % 13) + Int(random.next() % 13) - 18
                let grey = UInt8(clamping: Int(wave) + noise)
                rgba += [grey, grey, grey, 255]
            }
        }
        return Bitmap(width: width, height: height, rgba: rgba)
    }

    @Test("The smallest effort decodes to the same pixels and is never larger than the standard one")
    func smallestEffortKeepsPixels() throws {
        for (name, bitmap) in CodecTests.sampleBitmaps()
            + CodecTests.layoutSamples().map({
                ($0.name, $0.bitmap)
            })
        {
            let smallest = PNGEncoder.encode(bitmap, effort: .smallest)
            let standard = PNGEncoder.encode(bitmap)
            #expect(try PNGDecoder.decode(smallest).rgba == bitmap.rgba, "\(name)")
            #expect(
                smallest.count <= standard.count, "\(name): \(smallest.count) against \(standard.count)")
            #expect(PNGContainer(smallest)?.types == PNGContainer(standard)?.types, "\(name)")
        }
    }

    @Test("The standard effort is what encode(_:) writes, and the smallest effort is deterministic")
    func standardEffortIsEncode() {
        for (_, bitmap) in CodecTests.sampleBitmaps() {
            #expect(PNGEncoder.encode(bitmap, effort: .standard) == PNGEncoder.encode(bitmap))
            #expect(
                PNGEncoder.encode(bitmap, effort: .smallest)
                    == PNGEncoder.encode(bitmap, effort: .smallest))
        }
    }

}
