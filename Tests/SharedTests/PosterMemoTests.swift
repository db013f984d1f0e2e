import Foundation
import Shared
import Testing

@testable import Imaging
@testable import Posters
@testable import World

/// Poster memo.
extension ImagingTests {
    /// Where a bitmap's pixels live: equal for two bitmaps that share one storage.
    static func memoStorage(_ bitmap: Bitmap?) -> UInt? {
        bitmap?.rgba.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } }
    }

    @Test("The memo stays within its budget and forgets the least recently used decodes first")
    func memoStaysWithinBudget() throws {
        let files = (0..<12).map { index in
            Data(
                PNGEncoder.encode(
                    Bitmap(
                        width: 64, height: 64, filledWith: RGBA(red: UInt8(index * 20), green: 9, blue: 9)
                    )
                ))
        }
        let entryBytes = files[0].count + 64 * 64 * 4
        let memo = PosterMemo(byteBudget: 5 * entryBytes)
        // Keeps every bitmap handed out alive, so no storage address is reused during the test.
        var handedOut: [Bitmap] = []
        let first = try #require(memo.decode(files[0]))
        handedOut.append(first)
        for file in files.dropFirst() {
            handedOut.append(try #require(memo.decode(file)))
            #expect(memo.bytesHeld <= memo.byteBudget)
            // The first file is used after every other one, so it is never the least recently used.
            let again = try #require(memo.decode(files[0]))
            #expect(Self.memoStorage(again) == Self.memoStorage(first))
        }
        // The second file was used once, long ago: it has been forgotten and is decoded afresh.
        let second = try #require(memo.decode(files[1]))
        #expect(Self.memoStorage(second) != Self.memoStorage(handedOut[1]))
        #expect(second == handedOut[1])
        // The last file is recent: still memoised.
        #expect(Self.memoStorage(memo.decode(files[11])) == Self.memoStorage(handedOut[11]))
    }

    @Test("An entry larger than the whole budget is not kept, and costs nothing")
    func oversizedEntryNotKept() throws {
        let file = Data(
            PNGEncoder.encode(Bitmap(width: 64, height: 64, filledWith: RGBA(red: 1, green: 2, blue: 3))))
        let memo = PosterMemo(byteBudget: 1000)
        let once = try #require(memo.decode(file))
        let twice = try #require(memo.decode(file))
        #expect(memo.bytesHeld == 0)
        #expect(once == twice)
        #expect(Self.memoStorage(once) != Self.memoStorage(twice))
    }

}
