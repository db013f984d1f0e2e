/// An 8-bit RGBA image held in memory, row-major, four bytes a pixel.
///
/// The one image type of the workbook: the PNG decoder produces it, the encoder and the
/// sepia filter consume it, and every pixel hash the workbook prints is `contentHash`.
public struct Bitmap: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The pixels, `width * height * 4` bytes: red, green, blue, alpha, row after row.
    public var rgba: [UInt8]

    /// Makes a bitmap from its pixels; `rgba` must hold exactly `width * height * 4` bytes.
    public init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(width >= 0 && height >= 0, "negative bitmap size")
        precondition(
            rgba.count == width * height * 4, "rgba holds \(rgba.count) bytes, not \(width)×\(height)×4")
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// Makes a bitmap of one colour.
    public init(width: Int, height: Int, filledWith color: RGBA) {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                buffer[index] = color.red
                buffer[index + 1] = color.green
                buffer[index + 2] = color.blue
                buffer[index + 3] = color.alpha
                index += 4
            }
        }
        self.init(width: width, height: height, rgba: bytes)
    }

    /// The bytes a decoded copy of this bitmap holds in memory.
    public var byteCount: Int { rgba.count }

    /// The colour of one pixel.
    public func pixel(x: Int, y: Int) -> RGBA {
        let offset = (y * width + x) * 4
        return RGBA(
            red: rgba[offset], green: rgba[offset + 1], blue: rgba[offset + 2], alpha: rgba[offset + 3])
    }

    /// The workbook's pixel hash: 64-bit FNV-1a over the width and height (each as four
    /// big-endian bytes) followed by the RGBA bytes, printed as 16 lowercase hex digits.
    ///
    /// Two bitmaps with the same size and pixels have the same hash on every platform.
    public var contentHash: String {
        var hash = FNV1a64()
        hash.combine(bigEndian: UInt32(truncatingIfNeeded: width))
        hash.combine(bigEndian: UInt32(truncatingIfNeeded: height))
        rgba.withUnsafeBufferPointer { hash.combine($0) }
        return hash.hexDigest
    }
}

/// One 8-bit RGBA colour.
public struct RGBA: Sendable, Hashable {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8
    /// Alpha, 0 (transparent) – 255 (opaque).
    public var alpha: UInt8

    /// Makes a colour; opaque unless told otherwise.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}
