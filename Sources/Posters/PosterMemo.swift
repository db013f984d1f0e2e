import Foundation
import Imaging

/// Process-wide memo of pure, deterministic image work: generated poster PNGs, decodes, display-size
/// scalings, filters and pixel hashes.
///
/// The same input always gives the same output, so computing it once changes no result; the simulated
/// phone still charges and counts the virtual cost of every call. This keeps debug builds and the test
/// suite fast. Generated posters are also kept on disk between processes (see `PosterFileCache`). The
/// memo holds at most `byteBudget` bytes: past it, the least recently used entries go first, so a long
/// run's memory stays flat while the posters on screen stay memoised.
/// Unchecked Sendable: its tables, count and clock are read and written only under `lock`.
package final class PosterMemo: @unchecked Sendable {
    /// The one memo of this process.
    package static let shared = PosterMemo()

    /// The most bytes the process's memo keeps: enough for the posters on screen and their decodes, small
    /// enough that a long run's peak memory stays flat (Benchmarks/README.md, "Where a long run's memory
    /// goes").
    package static let defaultByteBudget = 64 << 20

    /// The most bytes this memo keeps.
    let byteBudget: Int

    private let lock = NSLock()
    private var posters = MemoTable<String, [UInt8]>()
    private var decodes = MemoTable<Data, Bitmap?>()
    private var fits = MemoTable<FitKey, (source: Bitmap, result: Bitmap)>()
    private var filters = MemoTable<FilterKey, (source: Bitmap, result: Bitmap)>()
    private var hashes = MemoTable<PixelStorage, (source: Bitmap, hash: String)>()
    /// The bytes the entries hold now, as counted when they were stored.
    private(set) var bytesHeld = 0
    private var clock: UInt64 = 0
    private let files = PosterFileCache()

    /// A memo that keeps at most `byteBudget` bytes (tests make small ones).
    package init(byteBudget: Int = PosterMemo.defaultByteBudget) {
        self.byteBudget = byteBudget
    }

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

    /// A scaling: the input pixels and the box they must fit.
    private struct FitKey: Hashable {
        let pixels: PixelStorage
        let width: Int
        let height: Int
    }

    /// A filter call: the input pixels and the intensity.
    private struct FilterKey: Hashable {
        let pixels: PixelStorage
        let intensity: Double
    }

    /// The generated poster PNG for a URL; `remembering: false` leaves the memo as it was when it did not
    /// hold the poster (the oracle sizes every poster of a run at its end, and they would push out the
    /// pictures still on screen while filling the memo to its budget).
    package func png(for url: String, remembering: Bool = true) -> [UInt8] {
        if let bytes = lock.withLock({ posters.value(for: url, now: tick()) }) { return bytes }
        let bytes: [UInt8]
        if let stored = files.png(for: url) {
            bytes = stored
        } else {
            bytes = PosterGenerator.pngData(for: url)
            files.store(bytes, for: url)
        }
        if remembering {
            remember(bytes.count) { posters.store(bytes, for: url, bytes: $0, now: $1) }
        }
        return bytes
    }

    /// The generated poster PNG for a URL if the memo holds it now (it neither generates nor reads a file).
    package func memoisedPNG(for url: String) -> [UInt8]? {
        lock.withLock { posters.value(for: url, now: tick()) }
    }

    /// The decoded pixels of PNG bytes, nil when they do not decode. Bytes that differ only in their
    /// stamp (`PosterStamp`) share one decode.
    package func decode(_ data: Data) -> Bitmap? {
        let key = PosterStamp.unstamped(data)
        if let cached = lock.withLock({ decodes.value(for: key, now: tick()) }) { return cached }
        let bitmap = try? PNGDecoder.decode([UInt8](key), maximumPixels: PosterLimits.maximumPixels)
        remember(key.count + (bitmap?.byteCount ?? 0)) {
            decodes.store(bitmap, for: key, bytes: $0, now: $1)
        }
        return bitmap
    }

    /// A bitmap scaled down to fit `width` × `height` (`Bitmap.downsampled(toFit:_:)`).
    package func fitted(_ bitmap: Bitmap, toFit width: Int, _ height: Int) -> Bitmap {
        guard let pixels = PixelStorage(bitmap) else { return bitmap.downsampled(toFit: width, height) }
        let key = FitKey(pixels: pixels, width: width, height: height)
        if let cached = lock.withLock({ fits.value(for: key, now: tick()) }) { return cached.result }
        let fitted = bitmap.downsampled(toFit: width, height)
        // The entry holds its source too, as a filter's does: count both.
        remember(bitmap.byteCount + fitted.byteCount) {
            fits.store((bitmap, fitted), for: key, bytes: $0, now: $1)
        }
        return fitted
    }

    /// The sepia-filtered pixels of a bitmap.
    package func sepia(_ bitmap: Bitmap, intensity: Double) -> Bitmap {
        guard let pixels = PixelStorage(bitmap) else {
            return SepiaFilter(intensity: intensity).apply(to: bitmap)
        }
        let key = FilterKey(pixels: pixels, intensity: intensity)
        if let cached = lock.withLock({ filters.value(for: key, now: tick()) }) { return cached.result }
        let filtered = SepiaFilter(intensity: intensity).apply(to: bitmap)
        // The entry holds its source too, which may outlive the source's own decode entry: count both.
        remember(bitmap.byteCount + filtered.byteCount) {
            filters.store((bitmap, filtered), for: key, bytes: $0, now: $1)
        }
        return filtered
    }

    /// The workbook's pixel hash of a bitmap (`Bitmap.contentHash`).
    package func hash(of bitmap: Bitmap) -> String {
        guard let pixels = PixelStorage(bitmap) else { return bitmap.contentHash }
        if let cached = lock.withLock({ hashes.value(for: pixels, now: tick()) }) { return cached.hash }
        let hash = bitmap.contentHash
        // The entry keeps the bitmap alive (see `PixelStorage`): count its pixels.
        remember(64 + bitmap.byteCount) { hashes.store((bitmap, hash), for: pixels, bytes: $0, now: $1) }
        return hash
    }

    /// The next tick of the memo's use clock; call under the lock.
    private func tick() -> UInt64 {
        clock += 1
        return clock
    }

    /// Stores an entry of `bytes` under the lock, first forgetting the least recently used entries when
    /// the budget would be exceeded (down to three quarters of it, so trimming is rare). An entry larger
    /// than the whole budget is not kept.
    /// `store` returns the size of an entry it replaced (another thread may have stored the same result).
    private func remember(_ bytes: Int, _ store: (_ bytes: Int, _ now: UInt64) -> Int) {
        guard bytes <= byteBudget else { return }
        lock.withLock {
            if bytesHeld + bytes > byteBudget {
                trim(toAtMost: byteBudget * 3 / 4 - bytes)
            }
            bytesHeld += bytes
            bytesHeld -= store(bytes, tick())
        }
    }

    /// Forgets the least recently used entries of every table until at most `target` bytes are held.
    private func trim(toAtMost target: Int) {
        var uses = posters.uses + decodes.uses + fits.uses + filters.uses + hashes.uses
        uses.sort { $0.lastUse < $1.lastUse }
        var held = bytesHeld
        var cutoff: UInt64 = 0
        for use in uses where held > target {
            held -= use.bytes
            cutoff = use.lastUse
        }
        bytesHeld -= posters.forget(usedAtOrBefore: cutoff)
        bytesHeld -= decodes.forget(usedAtOrBefore: cutoff)
        bytesHeld -= fits.forget(usedAtOrBefore: cutoff)
        bytesHeld -= filters.forget(usedAtOrBefore: cutoff)
        bytesHeld -= hashes.forget(usedAtOrBefore: cutoff)
        ProcessMemory.returnFreedPages()
    }
}

/// One kind of memoised result, each entry with its size and when it was last used.
private struct MemoTable<Key: Hashable, Value> {
    private var entries: [Key: (value: Value, bytes: Int, lastUse: UInt64)] = [:]

    /// The value for a key, marking it used now.
    mutating func value(for key: Key, now: UInt64) -> Value? {
        guard let index = entries.index(forKey: key) else { return nil }
        entries.values[index].lastUse = now
        return entries.values[index].value
    }

    /// Stores a value; returns the size of the entry it replaces (0 if none).
    mutating func store(_ value: Value, for key: Key, bytes: Int, now: UInt64) -> Int {
        entries.updateValue((value, bytes, now), forKey: key)?.bytes ?? 0
    }

    /// When each entry was last used, and its size.
    var uses: [(lastUse: UInt64, bytes: Int)] {
        entries.values.map { ($0.lastUse, $0.bytes) }
    }

    /// Forgets every entry last used at or before a tick; returns the bytes freed.
    mutating func forget(usedAtOrBefore cutoff: UInt64) -> Int {
        var freed = 0
        entries = entries.filter { entry in
            if entry.value.lastUse <= cutoff {
                freed += entry.value.bytes
                return false
            }
            return true
        }
        return freed
    }
}

/// How large a poster the phone agrees to decode: at most 1024×1024 pixels (4 MB of RGBA), already more
/// than a row of a phone's list can show, and small enough that a screen of a hundred distinct posters
/// at the limit, each decoded, filtered and hashed, runs in seconds and a few hundred megabytes. A
/// `--posters` file over it is refused when the folder is read; any other larger PNG is refused from its
/// header, before anything is allocated for it, and its row shows the failure image; the trace says why
/// (`poster_refused`).
package enum PosterLimits {
    /// The side of the largest square poster: 1024.
    package static let maximumSide = 1024
    /// The most pixels a poster may have, in any shape: 1024 × 1024.
    package static let maximumPixels = maximumSide * maximumSide

    /// Why PNG bytes are refused for their size (“4096×4096 pixels; a poster may have at most …”), or nil
    /// when the header is within the limit or is not a PNG header at all.
    package static func refusal(of png: [UInt8]) -> String? {
        guard png.count >= 24, png[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func number(at offset: Int) -> Int {
            png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        }
        let width = number(at: 16)
        let height = number(at: 20)
        guard width > maximumPixels || height > maximumPixels || width * height > maximumPixels else {
            return nil
        }
        return "\(width)×\(height) pixels; a poster may have at most "
            + "\(maximumSide)×\(maximumSide) (\(maximumPixels) pixels)"
    }
}
