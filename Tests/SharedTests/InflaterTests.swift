import Foundation
import Shared
import Testing

@testable import Imaging

/// The zlib/DEFLATE inflater on stored, fixed and dynamic blocks, and on broken streams.
extension CodecTests {
    /// The forty lines Python's zlib compressed into `dynamicText`.
    static var text: [UInt8] {
        (0..<40).flatMap {
            Array("line \($0): the quick brown fox jumps over \($0 * 7 % 13) lazy dogs\n".utf8)
        }
    }

    /// `zlib.compress(text, 9)` from Python: one dynamic-Huffman block with back-references.
    static let dynamicText: [UInt8] = [
        0x78, 0xda, 0x9d, 0xd4, 0xc9, 0x0d, 0x02, 0x31, 0x0c, 0x85, 0xe1, 0x3b, 0x55, 0xb8, 0x84, 0xb1, 0x9d,
        0x95, 0x6e, 0x58, 0x86, 0x75, 0x60, 0x80, 0x61, 0xaf, 0x1e, 0x71, 0x4d, 0x0e, 0xd6, 0x4b, 0x01, 0xbf,
        0xac, 0x3c, 0x7d, 0xca, 0xb0, 0x3f, 0xf7, 0xd4, 0xcd, 0xe9, 0xbe, 0xeb, 0xe9, 0xfa, 0xd8, 0xaf, 0x8e,
        0xb4, 0xbc, 0x8d, 0xaf, 0x33, 0x6d, 0xc6, 0x37, 0x1d, 0x1e, 0xa7, 0xcb, 0x44, 0xe3, 0xb3, 0xbf, 0x51,
        0x47, 0xc3, 0xe2, 0xfb, 0xa1, 0xf5, 0xb8, 0x9d, 0x66, 0xc3, 0x3f, 0x61, 0x33, 0x89, 0x65, 0x22, 0x66,
        0xc2, 0x65, 0xa2, 0x66, 0x92, 0xca, 0xc4, 0x99, 0x89, 0x94, 0x89, 0x37, 0x93, 0x5c, 0x26, 0xc1, 0x4c,
        0xb4, 0x4c, 0xa2, 0xfd, 0xfc, 0x6a, 0xe5, 0x64, 0x36, 0xae, 0x4c, 0xb2, 0x7d, 0xa6, 0x9a, 0x99, 0x6d,
        0x00, 0xbe, 0x6a, 0x6c, 0x01, 0x5c, 0x2d, 0xcd, 0xb6, 0x81, 0x50, 0x35, 0xda, 0xa0, 0xd3, 0xe1, 0x3c,
        0xd9, 0xe3, 0x3e, 0x39, 0xe0, 0x40, 0x39, 0xe2, 0x42, 0x39, 0xe1, 0x44, 0x39, 0xe3, 0x46, 0xa5, 0x6b,
        0x40, 0x2a, 0x8c, 0x2b, 0x15, 0x69, 0x60, 0x2a, 0x8a, 0x33, 0x15, 0xd7, 0xc0, 0x54, 0x3c, 0xce, 0x54,
        0x02, 0xce, 0x54, 0x62, 0xc3, 0x2f, 0x9a, 0x70, 0xa6, 0x92, 0x71, 0xa6, 0xda, 0xe1, 0x4c, 0x95, 0x71,
        0xa6, 0x2a, 0x38, 0x53, 0xd5, 0x06, 0xa6, 0xea, 0x70, 0xa6, 0xea, 0x1b, 0x98, 0x6a, 0xc0, 0x99, 0x6a,
        0x6c, 0x60, 0xaa, 0x09, 0x67, 0xaa, 0x19, 0x62, 0xfa, 0x03, 0x03, 0xc9, 0xcd, 0x90,
    ]

    /// Sixteen letters, letter k repeated Fibonacci(k) times: a skew that forces 15-bit codes.
    static var fibonacciLetters: [UInt8] {
        var counts = [1, 1]
        while counts.count < 16 { counts.append(counts[counts.count - 1] + counts[counts.count - 2]) }
        return counts.enumerated().flatMap { [UInt8](repeating: UInt8(65 + $0.offset), count: $0.element) }
    }

    /// Python's `zlib.compressobj(9, DEFLATED, 15, 9, Z_HUFFMAN_ONLY)` of `fibonacciLetters`:
    /// a dynamic block whose rarest letters have codes longer than the ten-bit lookup table.
    static let dynamicLongCodes = [UInt8](
        Data(
            base64Encoded: ""
                + "eAEFwYFhGzEMBMHaElv6J4G73f6r8cy//z8/v7+/n8/n8/l+v9/v9/t9nud5nud5nud53vd93/d93/d93/d93/d933POOeec"
                + "c84555xzzjnnnHPOOeecc+69995777333nvvvffee++9995777333nvvvffee++99947MzMzMzMzMzMzMzMzMzMzMzMzMzMz"
                + "MzMzMzMzMzMzMzMzMzMzMzMzMzMzMzO7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7"
                + "u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7tJkiRJkiRJkiRJkiRJkiRJkiRJkiRJkiRJkiRJkiRJkiRJkiRJkiRJkiRJkiRJkiRJ"
                + "kiRJkiRJkiRJkiRJkiRJkiRJkiRJkiRJkiRJkiRJkiRJkiRJkiRp27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt"
                + "27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt"
                + "27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27YtAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACoqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"
                + "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"
                + "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"
                + "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"
                + "qqqqfwa7Fxs="
        )!)

    /// A zlib header, then one final fixed-Huffman block holding what `symbols` writes and the end-of-block
    /// symbol, then four zero bytes where the Adler-32 goes.
    static func fixedBlock(_ symbols: (inout PNGTestBuilder.BitWriter) -> Void) -> [UInt8] {
        var writer = PNGTestBuilder.BitWriter()
        writer.bytes = [0x78, 0x01]
        writer.write(1, count: 1)
        writer.write(1, count: 2)
        symbols(&writer)
        writer.writeFixedSymbol(256)
        writer.flush()
        return writer.bytes + [0, 0, 0, 0]
    }

    @Test("A stored block inflates to its bytes")
    func storedBlockInflates() throws {
        let data = Array("stored, not compressed".utf8)
        #expect(try Inflater.inflate(PNGTestBuilder.zlibStored(data), maximumOutputSize: 100) == data)
    }

    @Test("Several stored blocks, including an empty one, join up")
    func storedBlocksJoinUp() throws {
        let data = (0..<1000).map { UInt8($0 % 251) }
        #expect(
            try Inflater.inflate(
                PNGTestBuilder.zlibStored(data, blockSize: 300), maximumOutputSize: 1000)
                == data)
        #expect(try Inflater.inflate(PNGTestBuilder.zlibStored([]), maximumOutputSize: 0) == [])
    }

    @Test("Python's fixed-Huffman stream of 'hello hello hello hello' inflates")
    func pythonFixedHuffmanInflates() throws {
        let stream: [UInt8] = [
            0x78, 0xda, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x57, 0xc8, 0x40, 0x27, 0x01, 0x68, 0x03, 0x08,
            0xb1,
        ]
        #expect(
            try Inflater.inflate(stream, maximumOutputSize: 100)
                == Array("hello hello hello hello".utf8))
    }

    @Test("A hand-written fixed-Huffman block of literals and back-references inflates")
    func handWrittenFixedHuffmanInflates() throws {
        // Bytes above 143 use nine-bit codes; the runs exercise overlapping copies and long lengths.
        let data: [UInt8] =
            Array("abcabcabcabc".utf8) + [200, 201, 200, 201, 255, 0]
            + [UInt8](repeating: 7, count: 600)
            + (0..<300).map { UInt8($0 % 256) } + (0..<300).map { UInt8($0 % 256) }
        let stream = PNGTestBuilder.zlibFixedHuffman(data)
        #expect(stream.count < data.count / 2)
        #expect(try Inflater.inflate(stream, maximumOutputSize: data.count) == data)
    }

    @Test("Python's dynamic-Huffman stream inflates to its text")
    func pythonDynamicHuffmanInflates() throws {
        #expect(try Inflater.inflate(Self.dynamicText, maximumOutputSize: 10_000) == Self.text)
    }

    @Test("A dynamic block with codes longer than the lookup table inflates")
    func longCodesInflate() throws {
        #expect(Self.dynamicLongCodes.count == 872)
        #expect(
            try Inflater.inflate(Self.dynamicLongCodes, maximumOutputSize: 10_000)
                == Self.fibonacciLetters)
    }

    @Test("Output is limited while inflating, even for a decompression bomb")
    func outputIsLimited() throws {
        // One zero, then 7,750 copies of 258 bytes at distance 1: two megabytes from 12 kilobytes.
        let bomb = Self.fixedBlock { writer in
            writer.writeFixedSymbol(0)
            for _ in 0..<7750 { writer.writeMatch(length: 258, distance: 1) }
        }
        #expect(bomb.count < 20_000)
        #expect(throws: PNGError.ZlibProblem.tooMuchData(limit: 100_000)) {
            try Inflater.inflate(bomb, maximumOutputSize: 100_000)
        }
        let size = Self.text.count
        #expect(throws: PNGError.ZlibProblem.tooMuchData(limit: size - 1)) {
            try Inflater.inflate(Self.dynamicText, maximumOutputSize: size - 1)
        }
        #expect(try Inflater.inflate(Self.dynamicText, maximumOutputSize: size).count == size)
    }

    @Test("A bad zlib header is refused")
    func badZlibHeaderRefused() {
        let good = PNGTestBuilder.zlibStored([1, 2, 3])
        for header: [UInt8] in [[0x78, 0x02], [0x79, 0x01], [0x88, 0x01], [0x78, 0xbb]] {
            #expect(throws: PNGError.ZlibProblem.badHeader) {
                try Inflater.inflate(header + good.dropFirst(2), maximumOutputSize: 10)
            }
        }
    }

    @Test("Block type 3 is refused")
    func blockTypeThreeRefused() {
        #expect(throws: PNGError.ZlibProblem.badBlockType) {
            try Inflater.inflate([0x78, 0x01, 0x07, 0, 0, 0, 0, 0], maximumOutputSize: 10)
        }
    }

    @Test("A back-reference before the start of the output is refused")
    func backReferenceBeforeStartRefused() {
        let stream = Self.fixedBlock { writer in
            writer.writeFixedSymbol(65)
            writer.writeMatch(length: 5, distance: 2)  // only one byte has been written
        }
        #expect(throws: PNGError.ZlibProblem.distanceTooFarBack) {
            try Inflater.inflate(stream, maximumOutputSize: 100)
        }
    }

    @Test("A stored block whose length and complement disagree is refused")
    func storedLengthMismatchRefused() {
        var stream = PNGTestBuilder.zlibStored([1, 2, 3, 4])
        stream[5] ^= 0x01
        #expect(throws: PNGError.ZlibProblem.badStoredLength) {
            try Inflater.inflate(stream, maximumOutputSize: 100)
        }
    }

    @Test("A wrong Adler-32 is refused")
    func wrongAdler32Refused() {
        var stream = Self.dynamicText
        stream[stream.count - 1] ^= 0x40
        #expect(throws: PNGError.ZlibProblem.adlerMismatch) {
            try Inflater.inflate(stream, maximumOutputSize: 10_000)
        }
    }

    @Test("Over-subscribed and incomplete Huffman tables are refused")
    func badHuffmanTablesRefused() {
        var oversubscribed = PNGTestBuilder.BitWriter()
        oversubscribed.bytes = [0x78, 0x01]
        oversubscribed.write(1, count: 1)
        oversubscribed.write(2, count: 2)
        oversubscribed.write(0, count: 5)  // 257 literal/length codes
        oversubscribed.write(0, count: 5)  // 1 distance code
        oversubscribed.write(15, count: 4)  // 19 code-length codes, all of length 1: over-subscribed
        for _ in 0..<19 { oversubscribed.write(1, count: 3) }
        oversubscribed.flush()
        #expect(throws: PNGError.ZlibProblem.badHuffmanTable) {
            try Inflater.inflate(oversubscribed.bytes + [0, 0, 0, 0, 0, 0], maximumOutputSize: 10)
        }

        var tooManyCodes = PNGTestBuilder.BitWriter()
        tooManyCodes.bytes = [0x78, 0x01]
        tooManyCodes.write(1, count: 1)
        tooManyCodes.write(2, count: 2)
        tooManyCodes.write(30, count: 5)  // 287 literal/length codes: more than 286
        tooManyCodes.write(0, count: 5)
        tooManyCodes.write(0, count: 4)
        tooManyCodes.flush()
        #expect(throws: PNGError.ZlibProblem.badHuffmanTable) {
            try Inflater.inflate(tooManyCodes.bytes + [0, 0, 0, 0, 0, 0, 0, 0], maximumOutputSize: 10)
        }

        // In Python's dynamic stream, HCLEN's code lengths start at bit 17; make one length 7 so
        // the code-length code no longer adds up.
        var broken = Self.dynamicText
        broken[4] |= 0x0e
        #expect(throws: PNGError.ZlibProblem.badHuffmanTable) {
            try Inflater.inflate(broken, maximumOutputSize: 10_000)
        }
    }

    @Test("A stream cut short anywhere is refused as ended early or, with garbage, as bad")
    func streamCutShortRefused() {
        for stream in [
            Self.dynamicText, Self.dynamicLongCodes, PNGTestBuilder.zlibStored(Array(0..<200)),
        ] {
            for length in 0..<stream.count {
                do {
                    _ = try Inflater.inflate(Array(stream.prefix(length)), maximumOutputSize: 10_000)
                    Issue.record("a stream cut to \(length) of \(stream.count) bytes inflated")
                } catch {
                    // Cut mid-symbol, the zero bits fed in afterwards may also read as a bad code.
                    #expect(
                        error == .endedEarly || error == .badHuffmanTable || error == .distanceTooFarBack)
                }
            }
        }
        #expect(throws: PNGError.ZlibProblem.endedEarly) {
            try Inflater.inflate(Array(Self.dynamicText.dropLast(4)), maximumOutputSize: 10_000)
        }
    }

}
