import Foundation
import Imaging

/// GNU Unifont's 16-pixel-high glyphs for the characters the 5×7 font lacks: the catalog's Chinese titles,
/// and whatever a teacher's titles use, within the pages `Scripts/make_unifont.py` keeps (see
/// `Resources/Unifont/LICENSE-OFL.txt`).
///
/// The file holds one compressed page per 256 code points; a page is inflated the first time one of its
/// characters is drawn and kept, so an export with a few Chinese titles costs a few small inflates, even in
/// a debug build.
final class UnifontGlyphs: @unchecked Sendable {
    /// One glyph: 8 or 16 pixels wide, 16 rows, each row's pixels from the high bit down.
    struct Glyph: Equatable {
        let width: Int
        let rows: [UInt16]

        func isInk(x: Int, y: Int) -> Bool {
            rows[y] & (1 << UInt16(15 - x)) != 0
        }
    }

    /// Glyph height in pixels.
    static let height = 16

    /// The glyphs shipped with the package (empty if the file is missing).
    static let shared = UnifontGlyphs(
        file: Bundle.module.url(forResource: "Unifont", withExtension: nil)?
            .appendingPathComponent("unifont-pages.bin"))

    private let lock = NSLock()
    private let file: URL?
    private var data: [UInt8]?
    /// Where each page's stream is: page number → (offset, length) in `data`.
    private var index: [Int: (offset: Int, length: Int)] = [:]
    /// Pages inflated so far: 256 records of 33 bytes.
    private var pages: [Int: [UInt8]] = [:]

    init(file: URL?) {
        self.file = file
    }

    /// The glyph for a code point, or nil when the font lacks it.
    func glyph(_ scalar: Unicode.Scalar) -> Glyph? {
        let code = Int(scalar.value)
        guard code <= 0xFFFF else { return nil }
        return lock.withLock {
            guard let page = page(code >> 8) else { return nil }
            let record = (code & 0xFF) * 33
            let width = Int(page[record])
            guard width == 8 || width == 16 else { return nil }
            let bytesPerRow = width / 8
            let rows = (0..<Self.height).map { row -> UInt16 in
                let start = record + 1 + row * bytesPerRow
                return bytesPerRow == 1
                    ? UInt16(page[start]) << 8 : UInt16(page[start]) << 8 | UInt16(page[start + 1])
            }
            return Glyph(width: width, rows: rows)
        }
    }

    /// A page's records, inflating it on first use; nil when the file lacks the page or is damaged.
    private func page(_ number: Int) -> [UInt8]? {
        if let page = pages[number] { return page }
        if data == nil { load() }
        guard let data, let entry = index[number], entry.offset + entry.length <= data.count,
            let page = try? Inflater.inflate(
                Array(data[entry.offset..<(entry.offset + entry.length)]), maximumOutputSize: 256 * 33),
            page.count == 256 * 33
        else { return nil }
        pages[number] = page
        return page
    }

    /// Reads the file and its page index.
    private func load() {
        let bytes = file.flatMap { try? [UInt8](Data(contentsOf: $0)) } ?? []
        data = []
        guard bytes.count >= 12, Array(bytes[0..<8]) == Array("UNIFONT1".utf8) else { return }
        func number(_ at: Int, _ size: Int) -> Int {
            (at..<(at + size)).reduce(0) { $0 << 8 | Int(bytes[$1]) }
        }
        let count = number(8, 4)
        let dataStart = 12 + count * 10
        guard count <= 256, bytes.count >= dataStart else { return }
        for entry in 0..<count {
            let at = 12 + entry * 10
            index[number(at, 2)] = (dataStart + number(at + 2, 4), number(at + 6, 4))
        }
        data = bytes
    }
}
