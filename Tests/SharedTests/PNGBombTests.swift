import Foundation
import Shared
import Testing

@testable import Imaging

/// Decompression bombs: small files that claim or inflate to far more than they should. Each is refused
/// before memory for the claim is allocated.
extension CodecTests {
    /// A zlib stream of `count` zero bytes in one fixed-Huffman block of 258-byte back-references: about
    /// 160 output bytes per input byte. The Adler-32 is that of the zeros.
    static func zeroBomb(count: Int) -> [UInt8] {
        var writer = PNGTestBuilder.BitWriter()
        writer.bytes = [0x78, 0x01]
        writer.write(1, count: 1)  // final block
        writer.write(1, count: 2)  // fixed Huffman
        writer.writeFixedSymbol(0)
        var made = 1
        while made < count {
            let length = min(258, count - made)
            if length < 3 {
                writer.writeFixedSymbol(0)
                made += 1
            } else {
                writer.writeMatch(length: length, distance: 1)
                made += length
            }
        }
        writer.writeFixedSymbol(256)
        writer.flush()
        // Adler-32 of `count` zeros: a = 1, b = count mod 65521.
        let b = UInt32(count % 65521)
        return writer.bytes + PNGTestBuilder.bigEndian(b << 16 | 1)
    }

    @Test("A 16×16 image whose data inflates to 4 MB is refused after the 1040 bytes it implies")
    func inflatingBombRefusedAtImpliedSize() {
        let bomb = Self.zeroBomb(count: 4_000_000)
        let file =
            PNGTestBuilder.signature
            + PNGTestBuilder.header(width: 16, height: 16, bitDepth: 8, colorType: 6)
            + PNGTestBuilder.chunk("IDAT", bomb) + PNGTestBuilder.chunk("IEND", [])
        #expect(file.count < 200_000)
        #expect(throws: PNGError.imageDataTooLong(expected: 16 * (16 * 4 + 1))) {
            try PNGDecoder.decode(file)
        }
        // The same stream, allowed to run, really does inflate to 4 MB: the refusal is the limit's doing.
        #expect((try? Inflater.inflate(bomb, maximumOutputSize: 8_000_000))?.count == 4_000_000)
    }

    @Test("A tiny file claiming a terabyte image is refused without reserving the terabyte")
    func terabyteClaimRefusedWithoutReserving() {
        // 2^20 × 2^20 grey pixels: about 1.1 TB of image data, allowed by a caller passing Int.max. Reserving
        // that up front would abort the process; the data must be read before anything that size is made.
        let side: UInt32 = 1 << 20
        let file =
            PNGTestBuilder.signature
            + PNGTestBuilder.header(width: side, height: side, bitDepth: 8, colorType: 0)
            + PNGTestBuilder.chunk("IDAT", PNGTestBuilder.zlibStored([UInt8](repeating: 0, count: 100)))
            + PNGTestBuilder.chunk("IEND", [])
        let expected = Int(side) * (Int(side) + 1)
        #expect(throws: PNGError.imageDataTooShort(expected: expected, actual: 100)) {
            try PNGDecoder.decode(file, maximumPixels: Int.max)
        }
    }

    @Test("Within the pixel limit, a header far larger than its data is refused as too short")
    func headerLargerThanDataRefused() {
        // 8192 × 8192 RGBA is exactly the default limit: 268 MB the header implies, 20 KB of zeros given.
        let file =
            PNGTestBuilder.signature
            + PNGTestBuilder.header(width: 8192, height: 8192, bitDepth: 8, colorType: 6)
            + PNGTestBuilder.chunk("IDAT", Self.zeroBomb(count: 20_000))
            + PNGTestBuilder.chunk("IEND", [])
        #expect(throws: PNGError.imageDataTooShort(expected: 8192 * (8192 * 4 + 1), actual: 20_000)) {
            try PNGDecoder.decode(file)
        }
    }

}
