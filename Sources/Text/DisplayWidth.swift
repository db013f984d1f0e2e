/// Text's width on a terminal, in cells, as the screen text and the live table count it.
package enum DisplayWidth {
    /// How many terminal cells a text takes: two for each wide (East Asian) character, such as the
    /// catalog's Chinese titles, none for a combining mark, one for anything else.
    package static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            let value = scalar.value
            if scalar.properties.generalCategory == .nonspacingMark || value == 0x200D { return width }
            let wide =
                (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
                || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
                || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
                || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1F64F).contains(value)
                || (0x20000...0x3FFFD).contains(value)
            return width + (wide ? 2 : 1)
        }
    }
}
