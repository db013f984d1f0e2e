/// Scales bitmaps down by averaging boxes of pixels, in integer math so every platform gets the same pixels.
package enum Thumbnail {
    /// The bitmap scaled to exactly `width` × `height`: each new pixel is the rounded mean of the source
    /// pixels its box covers (at least one source pixel, so enlarging repeats pixels).
    package static func scaled(_ bitmap: Bitmap, width: Int, height: Int) -> Bitmap {
        let width = max(1, width)
        let height = max(1, height)
        guard bitmap.width > 0, bitmap.height > 0 else {
            return Bitmap(width: width, height: height, filledWith: RGBA(red: 0, green: 0, blue: 0, alpha: 0))
        }
        var output = [UInt8](repeating: 0, count: width * height * 4)
        bitmap.rgba.withUnsafeBufferPointer { source in
            for targetY in 0..<height {
                let (top, bottom) = box(targetY, target: height, source: bitmap.height)
                for targetX in 0..<width {
                    let (left, right) = box(targetX, target: width, source: bitmap.width)
                    var sums = (0, 0, 0, 0)
                    for sourceY in top..<bottom {
                        var offset = (sourceY * bitmap.width + left) * 4
                        for _ in left..<right {
                            sums.0 &+= Int(source[offset])
                            sums.1 &+= Int(source[offset + 1])
                            sums.2 &+= Int(source[offset + 2])
                            sums.3 &+= Int(source[offset + 3])
                            offset &+= 4
                        }
                    }
                    let count = (bottom - top) * (right - left)
                    let target = (targetY * width + targetX) * 4
                    output[target] = UInt8((sums.0 + count / 2) / count)
                    output[target + 1] = UInt8((sums.1 + count / 2) / count)
                    output[target + 2] = UInt8((sums.2 + count / 2) / count)
                    output[target + 3] = UInt8((sums.3 + count / 2) / count)
                }
            }
        }
        return Bitmap(width: width, height: height, rgba: output)
    }

    /// The size that fits a `width` × `height` picture inside a box, keeping its shape (at least 1 × 1).
    package static func fittingSize(width: Int, height: Int, box: (width: Int, height: Int)) -> (
        width: Int, height: Int
    ) {
        guard width > 0, height > 0 else { return box }
        if width * box.height >= height * box.width {
            return (box.width, max(1, (height * box.width + width / 2) / width))
        }
        return (max(1, (width * box.height + height / 2) / height), box.height)
    }

    /// The source pixels `[start, end)` that target pixel `index` averages.
    static func box(_ index: Int, target: Int, source: Int) -> (start: Int, end: Int) {
        let start = index * source / target
        let end = max(start + 1, (index + 1) * source / target)
        return (start, min(end, source))
    }
}

/// Decoding at display size: the picture scaled down to the pixels its view shows, as Nuke's and
/// Kingfisher's downsampling processors and ImageIO thumbnails do, so the app keeps no pixel the screen
/// cannot show.
extension Bitmap {
    /// The size of this picture fitted inside `width` × `height` pixels, keeping its shape; never larger
    /// than the picture itself (a small picture is not enlarged).
    package func displaySize(fitting width: Int, _ height: Int) -> (width: Int, height: Int) {
        let fitted = Thumbnail.fittingSize(width: self.width, height: self.height, box: (width, height))
        guard fitted.width < self.width, fitted.height < self.height else { return (self.width, self.height) }
        return fitted
    }

    /// This picture scaled down to fit `width` × `height` pixels with a box filter (each new pixel the
    /// rounded mean of the pixels it covers, in integer math); itself when it already fits.
    package func downsampled(toFit width: Int, _ height: Int) -> Bitmap {
        let size = displaySize(fitting: width, height)
        guard size != (self.width, self.height) else { return self }
        return Thumbnail.scaled(self, width: size.width, height: size.height)
    }
}
