import Shared
import Testing

@testable import Imaging

/// Deflate Huffman codes.
extension CodecTests {
    /// The Kraft sum of a set of code lengths, scaled by 2^limit: exactly 2^limit for a complete code.
    static func kraftSum(_ lengths: [UInt8], limit: Int) -> Int {
        lengths.filter { $0 > 0 }.reduce(0) { $0 + 1 << (limit - Int($1)) }
    }

    @Test("Fibonacci frequencies, which want 30-bit codes, get complete codes of at most 15 bits")
    func fibonacciCodesLimitedTo15Bits() {
        var frequencies = [Int](repeating: 0, count: 286)
        var (previous, current) = (1, 1)
        for symbol in 0..<32 {
            frequencies[symbol * 3] = current
            (previous, current) = (current, previous + current)
        }
        let lengths = Deflater.HuffmanCode.lengths(frequencies: frequencies, limit: 15)
        #expect(lengths.max()! == 15)
        #expect(Self.kraftSum(lengths, limit: 15) == 1 << 15)
        #expect(zip(frequencies, lengths).allSatisfy { ($0 > 0) == ($1 > 0) })
    }

    @Test("The code-length code is limited to 7 bits")
    func codeLengthCodeLimitedTo7Bits() {
        let frequencies = (0..<19).map { 1 << $0 }
        let lengths = Deflater.HuffmanCode.lengths(frequencies: frequencies, limit: 7)
        #expect(lengths.max()! <= 7)
        #expect(Self.kraftSum(lengths, limit: 7) == 1 << 7)
    }

    @Test("One or no used symbol still gives two one-bit codes")
    func oneSymbolGetsTwoCodes() {
        #expect(Deflater.HuffmanCode.lengths(frequencies: [0, 0, 0, 5], limit: 15) == [1, 0, 0, 1])
        #expect(Deflater.HuffmanCode.lengths(frequencies: [0, 0, 0], limit: 15) == [1, 1, 0])
    }

    @Test("Canonical codes follow RFC 1951's example, bit-reversed")
    func canonicalCodesFollowRFC1951() {
        // RFC 1951 §3.2.2: lengths (3, 3, 3, 3, 3, 2, 4, 4) give codes 010, 011, 100, 101, 110, 00, 1110, 1111.
        let codes = Deflater.HuffmanCode.reversedCodes(lengths: [3, 3, 3, 3, 3, 2, 4, 4])
        #expect(codes == [0b010, 0b110, 0b001, 0b101, 0b011, 0b00, 0b0111, 0b1111])
    }

    @Test("Run-length coding of code lengths uses 16, 17 and 18 with the right extra bits")
    func codeLengthsRunLengthCoded() {
        let lengths: [UInt8] =
            [5, 5, 5, 5, 5, 5, 5, 5] + [UInt8](repeating: 0, count: 150) + [0, 0, 3, 3]
        let runs = Deflater.DynamicHeader.runLengthCode(lengths)
        // 5, then 16 repeating it 6 times (extra 6 - 3 = 3), then the one 5 left as it is;
        // 152 zeros: 18 for 138 (extra 138 - 11 = 127), 18 for the other 14 (extra 3);
        // then 3, 3 as they are (runs shorter than 3 are not coded).
        #expect(runs == [5, 16 | 3 << 8, 5, 18 | 127 << 8, 18 | 3 << 8, 3, 3])
    }

}
