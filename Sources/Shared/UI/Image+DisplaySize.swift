import Foundation
import Imaging

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
        guard let phone = Phone.current else {
            preconditionFailure("Image(data:fittingPixels:) needs a simulated thread of a Phone.")
        }
        guard let decoded = phone.imageWork.decode(data, fittingPixels: width, height) else { return nil }
        self.init(
            bitmap: decoded.bitmap, kind: .poster, sourceURL: decoded.sourceURL,
            downloadID: decoded.downloadID,
            isFiltered: false, tracker: phone.memory)
    }
}

/// Process-wide memo of display-size decodes, so identical bytes at an identical size share one pixel
/// storage (which the filter and hash memos then recognise); the phone still charges every call.
final class DisplaySizeMemo: @unchecked Sendable {
    static let shared = DisplaySizeMemo()

    private struct Key: Hashable {
        let data: Data
        let width: Int
        let height: Int
    }

    private let lock = NSLock()
    private var bitmaps: [Key: Bitmap] = [:]

    func downsampled(_ bitmap: Bitmap, data: Data, toFit width: Int, _ height: Int) -> Bitmap {
        let key = Key(data: data, width: width, height: height)
        if let cached = lock.withLock({ bitmaps[key] }) { return cached }
        let result = bitmap.downsampled(toFit: width, height)
        lock.withLock {
            // A bounded memo: a few thousand posters at most, then it starts again.
            if bitmaps.count >= 4_096 { bitmaps = [:] }
            bitmaps[key] = result
        }
        return result
    }
}
