import Shared
import Testing

@testable import Imaging

/// Bitmap and checksums.
extension CodecTests {
    @Test("The pixel hash depends on size and on every byte")
    func pixelHashDependsOnEveryByte() {
        let red = Bitmap(width: 2, height: 3, filledWith: RGBA(red: 255, green: 0, blue: 0))
        let sameRed = Bitmap(width: 2, height: 3, filledWith: RGBA(red: 255, green: 0, blue: 0))
        let wide = Bitmap(width: 3, height: 2, filledWith: RGBA(red: 255, green: 0, blue: 0))
        var changed = red
        changed.rgba[23] = 254
        #expect(red.contentHash == sameRed.contentHash)
        #expect(red.contentHash != wide.contentHash)
        #expect(red.contentHash != changed.contentHash)
        #expect(red.contentHash.count == 16)
    }

    @Test("CRC-32 and Adler-32 match the published check values")
    func checksumsMatchCheckValues() {
        let digits = Array("123456789".utf8)
        #expect(CRC32.checksum(digits) == 0xCBF4_3926)
        #expect(Adler32.checksum(Array("Wikipedia".utf8)) == 0x11E6_0398)
    }

    @Test("CRC-32 eight bytes at a time equals the bit-by-bit definition at every length and alignment")
    func wideCRC32MatchesDefinition() {
        func bitwise(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var crc: UInt32 = 0xffff_ffff
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        var random = SeededGenerator(seed: 32)
        let bytes = random.bytes(300)
        for start in 0..<9 {
            for end in stride(from: start, through: bytes.count, by: 7) {
                let slice = bytes[start..<end]
                #expect(CRC32.checksum(slice) == bitwise(slice), "bytes \(start)..<\(end)")
                // A running CRC over two pieces equals the CRC of the whole.
                let middle = (start + end) / 2
                let running = bytes[start..<middle].withUnsafeBufferPointer { first in
                    bytes[middle..<end].withUnsafeBufferPointer {
                        CRC32.update(CRC32.update(0, first), $0)
                    }
                }
                #expect(running == bitwise(slice))
            }
        }
    }

    @Test("Adler-32 eight bytes at a time equals the definition, even on the longest runs of 255")
    func wideAdler32MatchesDefinition() {
        func definition(_ bytes: [UInt8]) -> UInt32 {
            var (a, b): (UInt32, UInt32) = (1, 0)
            for byte in bytes {
                a = (a + UInt32(byte)) % 65521
                b = (b + a) % 65521
            }
            return b << 16 | a
        }
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 5551, 5552, 5553, 5559, 20_000] {
            let saturated = [UInt8](repeating: 255, count: length)
            let varied = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ $0 >> 5) }
            #expect(Adler32.checksum(saturated) == definition(saturated), "\(length) × 255")
            #expect(Adler32.checksum(varied) == definition(varied), "\(length) varied")
        }
    }

}
