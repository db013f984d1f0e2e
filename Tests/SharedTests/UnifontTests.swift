import Foundation
import Shared
import TestSupport
import Testing

@testable import Catalog
@testable import Imaging
@testable import Pictures

/// The titles in exported pictures: GNU Unifont's glyphs for everything the 5×7 font lacks.
extension PicturePartsTests {
    /// The pixels `Canvas.text` draws for a string, as a set of (x, y).
    static func ink(_ text: String) -> Set<Int> {
        var canvas = Canvas(width: 200, height: 40, background: RGBA(red: 255, green: 255, blue: 255))
        canvas.text(text, x: 4, y: 8, scale: 2, RGBA(red: 0, green: 0, blue: 0))
        var set: Set<Int> = []
        for y in 0..<40 {
            for x in 0..<200 where canvas.bitmap.pixel(x: x, y: y).red == 0 { set.insert(y * 200 + x) }
        }
        return set
    }

    @Test("Every character of every catalog title has a glyph, in one font or the other")
    func everyTitleCharacterHasAGlyph() throws {
        let catalog = try MovieCatalog.bundled()
        var missing: Set<String> = []
        for movie in catalog.movies {
            for character in movie.name where !BitmapFont.hasGlyph(for: character) {
                if character.unicodeScalars.count != 1
                    || UnifontGlyphs.shared.glyph(character.unicodeScalars.first!) == nil
                {
                    missing.insert(String(character))
                }
            }
        }
        #expect(catalog.movies.contains { $0.name.unicodeScalars.contains { $0.value >= 0x4E00 } })
        #expect(missing.isEmpty, "no glyph for \(missing.sorted())")
    }

    @Test("Different Chinese characters draw different ink, and none of it is the replacement mark")
    func chineseCharactersDrawDifferentInk() {
        let replacement = Self.ink("\u{FFFD}")
        let first = Self.ink("港")
        let second = Self.ink("囧")
        #expect(!first.isEmpty && !second.isEmpty)
        #expect(first != second)
        #expect(first != replacement && second != replacement)
    }

    @Test("A character the font lacks is drawn as the replacement mark, not as nothing")
    func missingCharacterDrawsReplacementMark() {
        // U+1F600 is outside the pages kept; U+0E01 (Thai) too.
        #expect(UnifontGlyphs.shared.glyph("\u{1F600}") == nil)
        #expect(UnifontGlyphs.shared.glyph("\u{0E01}") == nil)
        let replacement = Self.ink("\u{FFFD}")
        #expect(!replacement.isEmpty)
        #expect(Self.ink("\u{0E01}") == replacement)
    }

    @Test("A damaged or missing glyph file gives no glyphs rather than a crash")
    func damagedGlyphFileGivesNoGlyphs() throws {
        let folder = try StepFixtures.folder("unifont")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pages.bin")
        try Data(Array("UNIFONT1".utf8) + [0, 0, 0, 1, 0x00, 0x4E, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF])
            .write(
                to: file)
        #expect(UnifontGlyphs(file: file).glyph("港") == nil)
        #expect(UnifontGlyphs(file: folder.appendingPathComponent("absent.bin")).glyph("港") == nil)
    }

}

/// The terminal's `--screens`: columns line up by the cells a text takes, two for a Chinese character.
extension PicturePartsTests {
    @Test("A Chinese character takes two cells, ASCII one, a combining mark none")
    func cellsPerCharacterByScript() {
        #expect(DisplayWidth.of("Night over Old Town") == 19)
        #expect(DisplayWidth.of("港囧") == 4)
        #expect(DisplayWidth.of("碟中谍5") == 7)
        #expect(DisplayWidth.of("e\u{301}") == 1)
    }

    @Test("Padded texts end on the same cell whatever their script")
    func paddedTextsEndOnTheSameCell() {
        for title in ["港囧", "碟中谍5", "Broken Garden", "第三种爱情"] {
            #expect(DisplayWidth.of(ScreenText.padded(title, toWidth: 16)) == 16)
        }
    }

}
