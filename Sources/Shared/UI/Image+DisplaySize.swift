import Foundation
import Imaging
import Runtime

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
            byteCount: decoded.bitmap.byteCount, kind: .poster, sourceURL: decoded.png.source,
            downloadID: decoded.downloadID, isFiltered: false, tracker: host.memory)
    }
}
