extension PNGEncoder {
    /// How a bitmap's pixels are laid out in the file: the PNG colour type and what it needs.
    enum Layout: Equatable {
        /// Colour type 0: every pixel opaque and grey; one byte a pixel.
        case grey
        /// Colour type 4: every pixel grey, some translucent; grey and alpha bytes.
        case greyAlpha
        /// Colour type 3: at most 256 distinct colours; one index byte a pixel. The entries are RGBA
        /// packed as `red | green << 8 | blue << 16 | alpha << 24`, the translucent ones first.
        case palette([UInt32])
        /// Colour type 2: every pixel opaque; red, green and blue bytes.
        case rgb
        /// Colour type 6: red, green, blue and alpha bytes.
        case rgba

        /// The IHDR colour type.
        var colourType: UInt8 {
            switch self {
            case .grey: return 0
            case .greyAlpha: return 4
            case .palette: return 3
            case .rgb: return 2
            case .rgba: return 6
            }
        }

        /// Bytes a pixel takes in a scanline.
        var bytesPerPixel: Int {
            switch self {
            case .grey, .palette: return 1
            case .greyAlpha: return 2
            case .rgb: return 3
            case .rgba: return 4
            }
        }
    }

    /// The layout that holds the bitmap's pixels exactly in the fewest bytes a pixel, as Pillow's
    /// `optimize` and oxipng choose: grey when every pixel is grey and opaque; a palette when there are
    /// at most 256 colours; grey and alpha when every pixel is grey; RGB when every pixel is opaque;
    /// RGBA otherwise.
    static func smallestLayout(_ bitmap: Bitmap) -> Layout {
        var isGrey = true
        var isOpaque = true
        var colours = ColourSet()
        bitmap.rgba.withUnsafeBytes { raw in
            let count = raw.count / 4
            var previous: UInt32?
            var index = 0
            while index < count {
                let pixel = UInt32(
                    littleEndian: raw.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
                index &+= 1
                if pixel == previous { continue }
                previous = pixel
                let red = pixel & 0xff
                if red != (pixel >> 8) & 0xff || red != (pixel >> 16) & 0xff { isGrey = false }
                if pixel >> 24 != 0xff { isOpaque = false }
                colours.insert(pixel)
            }
        }
        if isGrey && isOpaque { return .grey }
        if let entries = colours.entries {
            // Translucent entries first, so the tRNS chunk stops after the last of them.
            return .palette(entries.filter { $0 >> 24 != 0xff } + entries.filter { $0 >> 24 == 0xff })
        }
        if isGrey { return .greyAlpha }
        return isOpaque ? .rgb : .rgba
    }

    /// The distinct colours of an image while there are at most 256 of them, in order of first
    /// appearance, each with its index in that order: an open-addressing table of 512 slots (plain
    /// loops and arrays, so debug builds stay quick).
    struct ColourSet {
        private var slots = [UInt32](repeating: 0, count: 512)
        private var indices = [Int](repeating: -1, count: 512)
        private var order: [UInt32] = []
        private var overflowed = false

        /// The colours in order of first appearance, or nil past 256.
        var entries: [UInt32]? { overflowed ? nil : order }

        /// The slot holding a colour, or the empty slot where it would go.
        private func slot(of colour: UInt32) -> Int {
            var slot = Int(truncatingIfNeeded: (colour &* 0x9E37_79B1) >> 23)
            while indices[slot] >= 0 && slots[slot] != colour {
                slot = (slot + 1) & 511
            }
            return slot
        }

        /// Adds a colour (nothing once there have been more than 256).
        mutating func insert(_ colour: UInt32) {
            guard !overflowed else { return }
            let slot = slot(of: colour)
            guard indices[slot] < 0 else { return }
            guard order.count < 256 else {
                overflowed = true
                return
            }
            indices[slot] = order.count
            slots[slot] = colour
            order.append(colour)
        }

        /// The index of a colour inserted before (0 for any other).
        func index(of colour: UInt32) -> Int {
            max(0, indices[slot(of: colour)])
        }
    }
}
