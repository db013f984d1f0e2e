import Foundation

/// Process-wide memo of pure, deterministic image work: generated poster PNGs, decodes and filters.
///
/// The same input always gives the same output, so computing it once per process changes no result;
/// the simulated phone still charges and counts the virtual cost of every call. This keeps debug builds
/// and the test suite fast.
final class PosterMemo: @unchecked Sendable {
    /// The one memo of this process.
    static let shared = PosterMemo()

    private let lock = NSLock()
    private var posters: [String: [UInt8]] = [:]
    private var decodes: [Data: Bitmap?] = [:]
    private var filters: [FilterKey: Bitmap] = [:]

    /// Filters are keyed by the input's pixel hash (64-bit FNV-1a of size and pixels) and the intensity.
    private struct FilterKey: Hashable {
        let width: Int
        let height: Int
        let pixelHash: String
        let intensity: Double
    }

    /// The generated poster PNG for a URL.
    func png(for url: String) -> [UInt8] {
        if let bytes = lock.withLock({ posters[url] }) { return bytes }
        let bytes = PosterGenerator.pngData(for: url)
        lock.withLock { posters[url] = bytes }
        return bytes
    }

    /// The decoded pixels of PNG bytes, nil when they do not decode.
    func decode(_ data: Data) -> Bitmap? {
        if let cached = lock.withLock({ decodes[data] }) { return cached }
        let bitmap = try? PNGDecoder.decode([UInt8](data))
        lock.withLock { decodes[data] = .some(bitmap) }
        return bitmap
    }

    /// The sepia-filtered pixels of a bitmap.
    func sepia(_ bitmap: Bitmap, intensity: Double) -> Bitmap {
        let key = FilterKey(
            width: bitmap.width, height: bitmap.height, pixelHash: bitmap.contentHash, intensity: intensity)
        if let cached = lock.withLock({ filters[key] }) { return cached }
        let filtered = SepiaFilter(intensity: intensity).apply(to: bitmap)
        lock.withLock { filters[key] = filtered }
        return filtered
    }
}
