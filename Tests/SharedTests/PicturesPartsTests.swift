import Testing

@testable import Imaging
@testable import Pictures

/// The parts the pictures of a run are drawn with, on their own (the pictures of whole runs are tested
/// with the steps, in StepTests/PicturesTests).
extension PicturePartsTests {
    @Test("The built-in font covers printable ASCII and draws a box for anything else")
    func builtInFontCoversASCII() {
        #expect(BitmapFont.columns.count == 95 * BitmapFont.glyphWidth)
        #expect(BitmapFont.glyph(for: "中") == BitmapFont.missingGlyph)
        #expect(BitmapFont.glyph(for: "A") == [0x7E, 0x11, 0x11, 0x11, 0x7E])
        #expect(BitmapFont.glyph(for: " ") == [0, 0, 0, 0, 0])
    }

    @Test("Thumbnails average boxes of pixels, rounding to the nearest value")
    func thumbnailsAverageBoxes() {
        // 4 × 2 pixels: red values 0, 10, 20, 31 on the top row and 100, 110, 120, 131 below.
        let reds: [UInt8] = [0, 10, 20, 31, 100, 110, 120, 131]
        let bitmap = Bitmap(width: 4, height: 2, rgba: reds.flatMap { [$0, 0, 0, 255] })
        let half = Thumbnail.scaled(bitmap, width: 2, height: 1)
        #expect(half.pixel(x: 0, y: 0).red == 55)  // (0 + 10 + 100 + 110) / 4
        #expect(half.pixel(x: 1, y: 0).red == 76)  // (20 + 31 + 120 + 131) / 4 = 75.5
        #expect(half.pixel(x: 1, y: 0).alpha == 255)
    }

}
