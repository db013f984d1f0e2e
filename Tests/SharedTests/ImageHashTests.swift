import Shared
import Testing

@testable import UI

/// A picture's pixel hash is computed once and may be read from phones that run in parallel (the shared
/// placeholder and failure pictures are).
@Suite("A picture's hash, read from many threads")
struct ImageHashTests {
    @Test("Read from many tasks at once, a picture's hash is its pixels' hash, the same for every reader")
    func hashReadInParallel() async {
        for round in 0..<20 {
            let bitmap = Bitmap(
                width: 40 + round, height: 60, filledWith: RGBA(red: UInt8(round), green: 80, blue: 120))
            let image = Image(
                bitmap: bitmap, kind: .placeholder, sourceURL: nil, downloadID: nil, isFiltered: false,
                tracker: nil)
            let hashes = await withTaskGroup(of: String.self) { group in
                for _ in 0..<8 { group.addTask { image.contentHash } }
                return await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(hashes == [bitmap.contentHash])
        }
    }
}
