import Testing

@testable import Shared

@Suite("Bitmap and checksums")
struct BitmapTests {
    @Test("The pixel hash depends on size and on every byte")
    func hashDependsOnSizeAndBytes() {
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
}
