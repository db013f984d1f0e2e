import Foundation

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
        guard let decoded = phone.decode(data, fittingPixels: width, height) else { return nil }
        self.init(
            pixels: .fitted(decoded.png, width: width, height: height),
            byteCount: decoded.bitmap.byteCount, kind: .poster, sourceURL: decoded.png.source,
            downloadID: decoded.downloadID, isFiltered: false, tracker: phone.memory)
    }
}

extension Phone {
    /// Decodes bytes at display size on the calling thread, charging the cost; nil when not a PNG.
    func decode(_ data: Data, fittingPixels width: Int, _ height: Int) -> (
        bitmap: Bitmap, png: PNGBytes, downloadID: Int?
    )? {
        let thread = SimulatedThread.current
        let full = PosterMemo.shared.decode(data)
        let bitmap = full.map { PosterMemo.shared.fitted($0, toFit: width, height) }
        let source = PosterStamp.source(of: [UInt8](data.prefix(4096)))
        let cost =
            full.map { costs.decode(pixels: $0.width * $0.height) / 4 }.map {
                $0 + costs.decode(pixels: bitmap!.width * bitmap!.height)
            } ?? costs.failedDecode(bytes: data.count)
        recorder.decoded(url: source, thread: thread?.name ?? "?", micros: cost, succeeded: bitmap != nil)
        if bitmap == nil { traceRefusal(of: data, source: source) }
        thread?.sleep(for: cost)
        guard let bitmap else { return nil }
        let png = PNGBytes(data, source: source)
        return (bitmap, png, takeDelivery(of: png))
    }
}
