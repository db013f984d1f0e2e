import Foundation
import Imaging
import Posters

/// Where a picture's pixels come from, so that a picture need not keep them: a decoded or filtered poster
/// holds this recipe, a few dozen bytes, and makes its pixels again when asked (`Image.bitmap`) through the
/// process's memo of pure image work (`PosterMemo`), which usually still has them.
///
/// An app that keeps thousands of pictures (the articles' records keep every row's) then costs the
/// process little real memory, while the simulated phone still counts each picture's full size
/// (`Image.cost`) and every decode and filter is charged when the app asks for it. The pixels made again
/// are the same, byte for byte: decoding, scaling and filtering are pure.
indirect enum ImagePixels: Sendable {
    /// Pixels the picture keeps itself: the shared placeholder and failure pictures, and test pictures.
    case held(Bitmap)
    /// The full-size decode of PNG bytes.
    case decoded(PNGBytes)
    /// The decode of PNG bytes at the size that fits `width` × `height` (`Image(data:fittingPixels:)`).
    case fitted(PNGBytes, width: Int, height: Int)
    /// Another picture's pixels in sepia.
    case sepia(ImagePixels, intensity: Double)

    /// The pixels, from the process's memo when it has them, otherwise made again.
    var bitmap: Bitmap { bitmap(memo: .shared) }

    /// The pixels, from `memo` when it has them, otherwise made again (tests pass a small memo).
    func bitmap(memo: PosterMemo) -> Bitmap {
        switch self {
        case .held(let bitmap):
            return bitmap
        case .decoded(let png):
            return png.decoded(memo: memo)
        case .fitted(let png, let width, let height):
            return memo.fitted(png.decoded(memo: memo), toFit: width, height)
        case .sepia(let source, let intensity):
            return memo.sepia(source.bitmap(memo: memo), intensity: intensity)
        }
    }
}

extension ImagePixels {
    /// The PNG bytes the pixels are made from; nil for pixels a picture holds itself.
    var png: PNGBytes? {
        switch self {
        case .held: return nil
        case .decoded(let png), .fitted(let png, _, _): return png
        case .sepia(let source, _): return source.png
        }
    }

    /// The same recipe made from other bytes (decoded to the same size, filtered alike); nil for pixels a
    /// picture holds itself.
    func made(from other: PNGBytes) -> ImagePixels? {
        switch self {
        case .held: return nil
        case .decoded: return .decoded(other)
        case .fitted(_, let width, let height): return .fitted(other, width: width, height: height)
        case .sepia(let source, let intensity):
            return source.made(from: other).map { .sepia($0, intensity: intensity) }
        }
    }

    /// The pixels, or nil when the bytes at the root of the recipe do not decode.
    func bitmapIfDecodable(memo: PosterMemo) -> Bitmap? {
        switch self {
        case .held(let bitmap):
            return bitmap
        case .decoded(let png):
            return memo.decode(png.data(memo: memo))
        case .fitted(let png, let width, let height):
            return memo.decode(png.data(memo: memo)).map { memo.fitted($0, toFit: width, height) }
        case .sepia(let source, let intensity):
            return source.bitmapIfDecodable(memo: memo).map { memo.sepia($0, intensity: intensity) }
        }
    }
}

/// PNG bytes, remembered cheaply: the simulated server's generated posters (nearly every download) by
/// their URL alone. Equal when the bytes are equal, however each side remembers them.
package enum PNGBytes: Hashable, Sendable {
    /// Exactly the generated poster for `url`, stamped with it, as the simulated server sends it.
    case servedPoster(url: String, byteCount: Int)
    /// Any other bytes (a posters folder's file, a partial download, a poster the memo no longer
    /// holds), kept as they are, with the URL stamped in them (`PosterStamp`), if any.
    case kept(Data, source: String?)

    /// The way to remember `data`, whose stamp names `source`: by URL when the bytes are that URL's
    /// generated poster as `memo` holds it, compared byte for byte; else the bytes themselves.
    package init(_ data: Data, source: String?, memo: PosterMemo = .shared) {
        if let source, let poster = memo.memoisedPNG(for: source),
            data == Data(PosterStamp.stamp(poster, url: source))
        {
            self = .servedPoster(url: source, byteCount: data.count)
        } else {
            self = .kept(data, source: source)
        }
    }

    package var data: Data { data(memo: .shared) }

    /// The bytes, a served poster's from `memo` (which makes it again if it let it go).
    func data(memo: PosterMemo) -> Data {
        switch self {
        case .servedPoster(let url, _): return Data(PosterStamp.stamp(memo.png(for: url), url: url))
        case .kept(let data, _): return data
        }
    }

    /// How many bytes there are.
    package var byteCount: Int {
        switch self {
        case .servedPoster(_, let byteCount): return byteCount
        case .kept(let data, _): return data.count
        }
    }

    /// The URL stamped in the bytes, if any.
    package var source: String? {
        switch self {
        case .servedPoster(let url, _): return url
        case .kept(_, let source): return source
        }
    }

    /// The full-size decode of the bytes, which decoded when the picture was made.
    func decoded(memo: PosterMemo) -> Bitmap {
        guard let bitmap = memo.decode(data(memo: memo)) else {
            preconditionFailure("PNG bytes that decoded once no longer decode: decoding is not pure.")
        }
        return bitmap
    }

    package static func == (left: PNGBytes, right: PNGBytes) -> Bool {
        switch (left, right) {
        case (.servedPoster(let leftURL, _), .servedPoster(let rightURL, _)):
            return leftURL == rightURL
        case (.kept(let leftData, _), .kept(let rightData, _)):
            return leftData == rightData
        default:
            // One side was remembered by URL, the other by its bytes (the memo had let the poster go).
            return left.byteCount == right.byteCount && left.source == right.source && left.data == right.data
        }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(byteCount)
        hasher.combine(source)
    }
}
