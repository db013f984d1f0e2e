import Foundation
import Imaging
import Posters
import Runtime
import Synchronization

/// A decoded picture the app can show: the simulated phone's look-alike of `UIImage`.
///
/// Every poster image carries the URL its bytes came from, so a cell that shows another row's poster is
/// caught. Decoding (`Image(data:)`) and filtering (`applyingSepia(intensity:)`) block the calling
/// simulated thread for their virtual cost; the real pixel work is memoised across runs on identical
/// input, but its cost is charged and counted every time. A poster keeps how its pixels were made rather
/// than the pixels (`ImagePixels`), so an app that keeps every row's picture stays small in real memory.
/// Unchecked Sendable: its memory tracker is told only on the phone's simulated threads, one at a time.
public final class Image: @unchecked Sendable {
    /// What kind of picture this is.
    public enum Kind: Sendable {
        /// A poster decoded from downloaded or cached bytes.
        case poster
        /// The grey picture shown while loading.
        case placeholder
        /// The picture shown when loading failed.
        case failure
    }

    /// The pixels (made again from the memo of image work when it no longer holds them).
    public var bitmap: Bitmap { pixels.bitmap }
    /// How the pixels are made.
    let pixels: ImagePixels
    /// The bytes the pixels take: width × height × 4.
    private let byteCount: Int
    /// What kind of picture this is.
    public let kind: Kind
    /// The URL the poster's bytes were served from; nil for the placeholder and the failure image.
    package let sourceURL: String?
    /// The download whose bytes made this picture, if it came straight from the network in this launch.
    package let downloadID: Int?
    /// Whether the sepia filter has been applied.
    package let isFiltered: Bool
    private let tracker: MemoryTracker?
    /// The pixel hash once computed, under a lock: the shared placeholder and failure pictures are read
    /// by phones that run in parallel.
    private let cachedHash = Mutex<String?>(nil)

    init(
        pixels: ImagePixels, byteCount: Int, kind: Kind, sourceURL: String?, downloadID: Int?,
        isFiltered: Bool, tracker: MemoryTracker?
    ) {
        self.pixels = pixels
        self.byteCount = byteCount
        self.kind = kind
        self.sourceURL = sourceURL
        self.downloadID = downloadID
        self.isFiltered = isFiltered
        self.tracker = tracker
        tracker?.retain(byteCount)
    }

    /// A picture that keeps its pixels itself.
    convenience init(
        bitmap: Bitmap, kind: Kind, sourceURL: String?, downloadID: Int?, isFiltered: Bool,
        tracker: MemoryTracker?
    ) {
        self.init(
            pixels: .held(bitmap), byteCount: bitmap.byteCount, kind: kind, sourceURL: sourceURL,
            downloadID: downloadID, isFiltered: isFiltered, tracker: tracker)
    }

    deinit {
        tracker?.release(byteCount)
    }

    /// What makes this picture's pixels again when asked, holding the recipe (PNG bytes, size, filter)
    /// but not the picture: the app's memory it counts is freed when the app lets it go.
    package var pixelMaker: @Sendable () -> Bitmap {
        let pixels = self.pixels
        return { pixels.bitmap }
    }

    /// Decodes PNG bytes, like `UIImage(data:)`; nil when they are not a valid PNG.
    ///
    /// Blocks the calling simulated thread for the decode's virtual cost.
    public convenience init?(data: Data) {
        guard let host = SimulatedThread.uiKitHost else {
            preconditionFailure("Image(data:) needs a simulated thread of a phone.")
        }
        guard let decoded = host.decode(data) else { return nil }
        self.init(
            pixels: .decoded(decoded.png), byteCount: decoded.width * decoded.height * 4, kind: .poster,
            sourceURL: decoded.png.source, downloadID: decoded.downloadID, isFiltered: false,
            tracker: host.memory)
    }

    /// The bytes this picture holds in memory once decoded (its cost in a cache).
    public var cost: Int { byteCount }

    /// The picture with the sepia tone applied, like the articles' CoreImage `CISepiaTone` filter.
    ///
    /// Blocks the calling simulated thread for the filter's virtual cost.
    public func applyingSepia(intensity: Double) -> Image {
        guard let host = SimulatedThread.uiKitHost else {
            preconditionFailure("applyingSepia(intensity:) needs a simulated thread of a phone.")
        }
        host.filter(pixels: byteCount / 4, intensity: intensity, sourceURL: sourceURL)
        return Image(
            pixels: .sepia(pixels, intensity: intensity), byteCount: byteCount, kind: kind,
            sourceURL: sourceURL, downloadID: downloadID, isFiltered: true, tracker: host.memory)
    }

    /// The workbook's pixel hash of this picture (`Bitmap.contentHash`), computed once.
    package var contentHash: String {
        if let hash = cachedHash.withLock({ $0 }) { return hash }
        // Not under the lock: two threads that both miss compute the same hash.
        let hash = PosterMemo.shared.hash(of: bitmap)
        cachedHash.withLock { $0 = hash }
        return hash
    }

    /// Whether this picture shows the pixels `served` gives when made the way this one was made (decoded
    /// to the same size, filtered alike): a poster made from other bytes that give other pixels does not,
    /// whatever URL is stamped in them, and no poster shows the pixels of `nil` (a URL that serves no
    /// picture). Nil for a picture that holds its pixels itself: there is no recipe to make again.
    package func shows(pixelsOf served: PNGBytes?) -> Bool? {
        guard let own = pixels.png else { return nil }
        guard let served else { return false }
        // The same bytes give the same pixels: decoding, scaling and filtering are pure.
        if own == served { return true }
        guard let expected = pixels.made(from: served)?.bitmapIfDecodable(memo: .shared) else { return false }
        return PosterMemo.shared.hash(of: expected) == contentHash
    }

    /// The grey placeholder shown while a poster loads (costs no tracked memory: it is shared).
    public static let placeholder = Image(
        bitmap: Bitmap(width: 180, height: 270, filledWith: RGBA(red: 200, green: 200, blue: 204)),
        kind: .placeholder,
        sourceURL: nil, downloadID: nil, isFiltered: false, tracker: nil)

    /// The picture shown when a poster cannot be loaded (shared, untracked).
    public static let failed: Image = {
        var bitmap = Bitmap(width: 180, height: 270, filledWith: RGBA(red: 236, green: 236, blue: 236))
        // A red cross, so a failure is unmistakable in exported screens.
        for step in 0..<170 {
            for thickness in 0..<6 {
                let y = 50 + step
                for x in [5 + step + thickness, 175 - step + thickness - 6] where x >= 0 && x < 180 {
                    let offset = (y * 180 + x) * 4
                    bitmap.rgba[offset] = 200
                    bitmap.rgba[offset + 1] = 40
                    bitmap.rgba[offset + 2] = 40
                }
            }
        }
        return Image(
            bitmap: bitmap, kind: .failure, sourceURL: nil, downloadID: nil, isFiltered: false, tracker: nil)
    }()
}

extension Image {
    /// Decodes PNG bytes straight to the size a view shows, like an ImageIO thumbnail or Nuke's
    /// downsampling: nil when they are not a valid PNG.
    ///
    /// Blocks the calling simulated thread for a smaller cost than `Image(data:)`: every source pixel is
    /// still read from the compressed stream (a quarter of a full decode's cost per pixel), but only the
    /// output pixels are expanded and kept (a full decode's cost per output pixel). Only the output is
    /// counted as image memory, as a decoder that scales each band of rows as it goes never holds the
    /// whole picture.
    public convenience init?(data: Data, fittingPixels width: Int, _ height: Int) {
        guard let host = SimulatedThread.uiKitHost else {
            preconditionFailure("Image(data:fittingPixels:) needs a simulated thread of a phone.")
        }
        guard let decoded = host.decode(data, fittingPixels: width, height) else { return nil }
        self.init(
            pixels: .fitted(decoded.png, width: width, height: height),
            byteCount: decoded.width * decoded.height * 4, kind: .poster, sourceURL: decoded.png.source,
            downloadID: decoded.downloadID, isFiltered: false, tracker: host.memory)
    }
}
