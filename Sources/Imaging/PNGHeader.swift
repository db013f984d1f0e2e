/// The validated contents of a PNG `IHDR` chunk and the sizes that follow from it.
struct PNGHeader: Equatable, Sendable {
    /// Width in pixels, at least 1.
    let width: Int
    /// Height in pixels, at least 1.
    let height: Int
    /// Bits per sample: 1, 2, 4, 8 or 16 as the colour type allows.
    let bitDepth: Int
    /// 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA.
    let colorType: Int
    /// Whether the image data is Adam7-interlaced.
    let interlaced: Bool

    /// Samples per pixel for the colour type.
    var channels: Int {
        switch colorType {
        case 2: 3
        case 4: 2
        case 6: 4
        default: 1
        }
    }

    var bitsPerPixel: Int { channels * bitDepth }

    /// The distance in bytes between a byte and the one it is filtered against (at least 1).
    var filterStride: Int { max(1, bitsPerPixel / 8) }

    /// Bytes of pixel data in a row `pixels` wide (without its filter-type byte).
    func rowBytes(pixels: Int) -> Int { (pixels * bitsPerPixel + 7) / 8 }

    /// One Adam7 pass (or the whole image when not interlaced): where its pixels sit in the image.
    struct Pass: Equatable, Sendable {
        /// Column of the pass's first pixel.
        let xStart: Int
        /// Row of the pass's first pixel.
        let yStart: Int
        /// Columns between the pass's pixels.
        let xStep: Int
        /// Rows between the pass's pixels.
        let yStep: Int
        /// Pixels in each of the pass's rows.
        let width: Int
        /// Rows in the pass.
        let height: Int
    }

    /// The passes holding pixels, in the order their data appears; empty passes are left out.
    var passes: [Pass] {
        guard interlaced else {
            return [Pass(xStart: 0, yStart: 0, xStep: 1, yStep: 1, width: width, height: height)]
        }
        let adam7 = [
            (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
        ]
        var passes: [Pass] = []
        for (xStart, yStart, xStep, yStep) in adam7 {
            let passWidth = width > xStart ? (width - xStart + xStep - 1) / xStep : 0
            let passHeight = height > yStart ? (height - yStart + yStep - 1) / yStep : 0
            if passWidth > 0 && passHeight > 0 {
                passes.append(
                    Pass(
                        xStart: xStart, yStart: yStart, xStep: xStep, yStep: yStep, width: passWidth,
                        height: passHeight))
            }
        }
        return passes
    }

    /// The bytes the image data must inflate to: every pass's rows, each with its filter byte.
    var filteredByteCount: Int {
        var total = 0
        for pass in passes {
            total += pass.height * (1 + rowBytes(pixels: pass.width))
        }
        return total
    }

    /// Reads and checks the 13 bytes of an `IHDR` chunk, refusing images over `maximumPixels`.
    ///
    /// The pixel limit is checked before any size is multiplied, so later size arithmetic
    /// cannot overflow.
    init(chunk data: ArraySlice<UInt8>, maximumPixels: Int) throws(PNGError) {
        guard data.count == 13 else { throw .badHeaderLength(data.count) }
        let base = data.startIndex
        func bigEndian(_ offset: Int) -> UInt32 {
            UInt32(data[base + offset]) << 24 | UInt32(data[base + offset + 1]) << 16
                | UInt32(data[base + offset + 2]) << 8 | UInt32(data[base + offset + 3])
        }
        let rawWidth = bigEndian(0)
        let rawHeight = bigEndian(4)
        guard rawWidth > 0, rawHeight > 0, rawWidth <= 0x7fff_ffff, rawHeight <= 0x7fff_ffff else {
            throw .invalidDimensions(width: rawWidth, height: rawHeight)
        }
        let bitDepth = data[base + 8]
        let colorType = data[base + 9]
        let allowedDepths: [UInt8]
        switch colorType {
        case 0: allowedDepths = [1, 2, 4, 8, 16]
        case 3: allowedDepths = [1, 2, 4, 8]
        case 2, 4, 6: allowedDepths = [8, 16]
        default: throw .unsupportedColorType(colorType)
        }
        guard allowedDepths.contains(bitDepth) else {
            throw .unsupportedBitDepth(bitDepth: bitDepth, colorType: colorType)
        }
        guard data[base + 10] == 0 else { throw .unsupportedCompressionMethod(data[base + 10]) }
        guard data[base + 11] == 0 else { throw .unsupportedFilterMethod(data[base + 11]) }
        guard data[base + 12] <= 1 else { throw .unsupportedInterlaceMethod(data[base + 12]) }

        let width = Int(rawWidth)
        let height = Int(rawHeight)
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        // 2^40 pixels keeps every later size (at most 8 bytes a pixel plus a byte a row) far from overflow.
        let limit = min(maximumPixels, 1 << 40)
        guard !overflow, pixels <= limit else {
            throw .imageTooLarge(width: width, height: height, maximumPixels: maximumPixels)
        }
        self.width = width
        self.height = height
        self.bitDepth = Int(bitDepth)
        self.colorType = Int(colorType)
        self.interlaced = data[base + 12] == 1
    }
}
