import Imaging

/// A bitmap to draw on: filled rectangles, pasted pictures, lines of text in the built-in font, rings.
struct Canvas {
    /// The picture so far.
    private(set) var bitmap: Bitmap

    /// A canvas of one colour.
    init(width: Int, height: Int, background: RGBA) {
        bitmap = Bitmap(width: width, height: height, filledWith: background)
    }

    /// Paints one pixel, blending by the colour's alpha; pixels off the canvas are ignored.
    mutating func blend(x: Int, y: Int, _ color: RGBA) {
        guard x >= 0, y >= 0, x < bitmap.width, y < bitmap.height, color.alpha > 0 else { return }
        let offset = (y * bitmap.width + x) * 4
        let alpha = Int(color.alpha)
        func mix(_ new: UInt8, _ old: UInt8) -> UInt8 {
            UInt8((Int(new) * alpha + Int(old) * (255 - alpha) + 127) / 255)
        }
        bitmap.rgba[offset] = mix(color.red, bitmap.rgba[offset])
        bitmap.rgba[offset + 1] = mix(color.green, bitmap.rgba[offset + 1])
        bitmap.rgba[offset + 2] = mix(color.blue, bitmap.rgba[offset + 2])
        bitmap.rgba[offset + 3] = 255
    }

    mutating func fill(x: Int, y: Int, width: Int, height: Int, _ color: RGBA) {
        for row in max(0, y)..<max(max(0, y), min(bitmap.height, y + height)) {
            for column in max(0, x)..<max(max(0, x), min(bitmap.width, x + width)) {
                blend(x: column, y: row, color)
            }
        }
    }

    /// Pastes a picture with its top-left corner at (`x`, `y`).
    mutating func draw(_ picture: Bitmap, x: Int, y: Int) {
        for row in 0..<picture.height {
            for column in 0..<picture.width {
                blend(x: x + column, y: y + row, picture.pixel(x: column, y: row))
            }
        }
    }

    /// Draws a thick line from one point to another.
    mutating func line(from start: (x: Int, y: Int), to end: (x: Int, y: Int), thickness: Int, _ color: RGBA)
    {
        let steps = max(abs(end.x - start.x), abs(end.y - start.y), 1)
        for step in 0...steps {
            let x = start.x + (end.x - start.x) * step / steps
            let y = start.y + (end.y - start.y) * step / steps
            fill(x: x - thickness / 2, y: y - thickness / 2, width: thickness, height: thickness, color)
        }
    }

    /// Draws a ring (an activity spinner) with a quarter left open at the top right.
    mutating func ring(centerX: Int, centerY: Int, outerRadius: Int, innerRadius: Int, _ color: RGBA) {
        for dy in -outerRadius...outerRadius {
            for dx in -outerRadius...outerRadius {
                let distance = dx * dx + dy * dy
                guard distance <= outerRadius * outerRadius, distance >= innerRadius * innerRadius else {
                    continue
                }
                if dx > 0 && dy < 0 { continue }
                blend(x: centerX + dx, y: centerY + dy, color)
            }
        }
    }

    /// Draws one line of text with its top-left at (`x`, `y`), each font pixel `scale` pixels square.
    ///
    /// Printable ASCII uses the 5×7 font; any other character GNU Unifont's 16-pixel glyph, at half the
    /// scale so its height matches, or Unifont's replacement mark (`�`) when the font lacks it.
    mutating func text(_ string: String, x: Int, y: Int, scale: Int, _ color: RGBA) {
        var left = x
        for character in string {
            if BitmapFont.hasGlyph(for: character) {
                let glyph = BitmapFont.glyph(for: character)
                for column in 0..<BitmapFont.glyphWidth {
                    for row in 0..<BitmapFont.glyphHeight where BitmapFont.isInk(glyph, x: column, y: row) {
                        fill(x: left + column * scale, y: y + row * scale, width: scale, height: scale, color)
                    }
                }
                left += BitmapFont.advance * scale
                continue
            }
            let unit = max(1, scale / 2)
            let scalar = character.unicodeScalars.first ?? "\u{FFFD}"
            guard let glyph = UnifontGlyphs.shared.glyph(scalar) ?? UnifontGlyphs.shared.glyph("\u{FFFD}")
            else {
                left += BitmapFont.advance * scale
                continue
            }
            // Unifont's ink sits about one pixel below the top of its 16 rows: align it with the 5×7 font.
            let top = y - unit
            for row in 0..<UnifontGlyphs.height {
                for column in 0..<glyph.width where glyph.isInk(x: column, y: row) {
                    fill(x: left + column * unit, y: top + row * unit, width: unit, height: unit, color)
                }
            }
            left += glyph.width * unit
        }
    }

    /// The text cut to at most `limit` characters, ending in `..` when cut.
    static func truncated(_ string: String, limit: Int) -> String {
        string.count <= limit ? string : String(string.prefix(max(0, limit - 2))) + ".."
    }
}
