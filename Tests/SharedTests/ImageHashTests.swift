import Dispatch
import Shared
import Synchronization
import Testing

@testable import UI

/// A picture's pixel hash is computed once and may be read from phones that run in parallel (the shared
/// placeholder and failure pictures are).
extension ImagingTests {
    /// Under the thread sanitiser (`swift test --sanitize=thread --filter ImagingTests`) a hash written
    /// lazily without a lock is reported as a data race; without the sanitiser the race seldom shows.
    @Test("Read from many threads at once, a picture's hash is its pixels' hash, the same for every reader")
    func hashReadInParallel() {
        for round in 0..<20 {
            let bitmap = Bitmap(
                width: 40 + round, height: 60, filledWith: RGBA(red: UInt8(round), green: 80, blue: 120))
            let image = Image(
                bitmap: bitmap, kind: .placeholder, sourceURL: nil, downloadID: nil, isFiltered: false,
                tracker: nil)
            let seen = Mutex<Set<String>>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let hash = image.contentHash
                seen.withLock { _ = $0.insert(hash) }
            }
            let hashes = seen.withLock { $0 }
            #expect(hashes == [bitmap.contentHash])
        }
    }
}
