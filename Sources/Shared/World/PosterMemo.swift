import Foundation

/// Process-wide memo of pure, deterministic image work: generated poster PNGs, decodes, filters and
/// pixel hashes.
///
/// The same input always gives the same output, so computing it once changes no result; the simulated
/// phone still charges and counts the virtual cost of every call. This keeps debug builds and the test
/// suite fast. Generated posters are also kept on disk between processes (see `PosterFileCache`). The
/// memo holds at most `byteBudget` bytes and starts afresh past it, so long runs stay within memory.
final class PosterMemo: @unchecked Sendable {
    /// The one memo of this process.
    static let shared = PosterMemo()

    /// The most bytes the memo keeps before it forgets everything and starts again.
    static let byteBudget = 512 << 20

    private let lock = NSLock()
    private var posters: [String: [UInt8]] = [:]
    private var decodes: [Data: Bitmap?] = [:]
    private var filters: [FilterKey: (source: Bitmap, result: Bitmap)] = [:]
    private var hashes: [PixelStorage: (source: Bitmap, hash: String)] = [:]
    private var bytesHeld = 0
    private let files = PosterFileCache()

    /// A bitmap's pixel storage, by address: decodes of identical bytes share one storage (the memo hands
    /// out the same array), so the address identifies the pixels. Each entry keeps its bitmap, so the
    /// address cannot be reused by other pixels while the entry lives.
    private struct PixelStorage: Hashable {
        let address: UInt
        let count: Int
        let width: Int

        init?(_ bitmap: Bitmap) {
            guard !bitmap.rgba.isEmpty else { return nil }
            address = bitmap.rgba.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            count = bitmap.rgba.count
            width = bitmap.width
        }
    }

    /// A filter call: the input pixels and the intensity.
    private struct FilterKey: Hashable {
        let pixels: PixelStorage
        let intensity: Double
    }

    /// The generated poster PNG for a URL.
    func png(for url: String) -> [UInt8] {
        if let bytes = lock.withLock({ posters[url] }) { return bytes }
        let bytes: [UInt8]
        if let stored = files.png(for: url) {
            bytes = stored
        } else {
            bytes = PosterGenerator.pngData(for: url)
            files.store(bytes, for: url)
        }
        remember(bytes.count) { posters[url] = bytes }
        return bytes
    }

    /// The decoded pixels of PNG bytes, nil when they do not decode.
    func decode(_ data: Data) -> Bitmap? {
        if let cached = lock.withLock({ decodes[data] }) { return cached }
        let bitmap = try? PNGDecoder.decode([UInt8](data), maximumPixels: PosterLimits.maximumPixels)
        remember(data.count + (bitmap?.byteCount ?? 0)) { decodes[data] = .some(bitmap) }
        return bitmap
    }

    /// The sepia-filtered pixels of a bitmap.
    func sepia(_ bitmap: Bitmap, intensity: Double) -> Bitmap {
        guard let pixels = PixelStorage(bitmap) else {
            return SepiaFilter(intensity: intensity).apply(to: bitmap)
        }
        let key = FilterKey(pixels: pixels, intensity: intensity)
        if let cached = lock.withLock({ filters[key] }) { return cached.result }
        let filtered = SepiaFilter(intensity: intensity).apply(to: bitmap)
        remember(filtered.byteCount) { filters[key] = (bitmap, filtered) }
        return filtered
    }

    /// The workbook's pixel hash of a bitmap (`Bitmap.contentHash`).
    func hash(of bitmap: Bitmap) -> String {
        guard let pixels = PixelStorage(bitmap) else { return bitmap.contentHash }
        if let cached = lock.withLock({ hashes[pixels] }) { return cached.hash }
        let hash = bitmap.contentHash
        remember(64) { hashes[pixels] = (bitmap, hash) }
        return hash
    }

    /// Stores an entry under the lock, forgetting everything first when the budget would be exceeded.
    private func remember(_ bytes: Int, _ store: () -> Void) {
        lock.withLock {
            if bytesHeld + bytes > Self.byteBudget {
                posters = [:]
                decodes = [:]
                filters = [:]
                hashes = [:]
                bytesHeld = 0
            }
            bytesHeld += bytes
            store()
        }
    }
}
