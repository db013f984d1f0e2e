/// Writes SVG elements as text, with numbers kept to one decimal and text escaped for XML.
struct SVGWriter {
    /// The elements written so far.
    private(set) var text = ""

    /// A number with at most one decimal (`12`, `12.5`), rounded half away from zero.
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }

    /// Text made safe inside an XML element or attribute.
    static func escape(_ value: String) -> String {
        var result = ""
        for character in value {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Appends markup as it is, unescaped.
    mutating func raw(_ markup: String) {
        text += markup
        text += "\n"
    }

    /// Adds a rectangle with a style class and an optional tooltip.
    mutating func rect(
        x: Double, y: Double, width: Double, height: Double, className: String, tooltip: String? = nil
    ) {
        let attributes =
            "class=\"\(className)\" x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" "
            + "width=\"\(Self.number(width))\" height=\"\(Self.number(height))\""
        if let tooltip {
            raw("<rect \(attributes)><title>\(Self.escape(tooltip))</title></rect>")
        } else {
            raw("<rect \(attributes)/>")
        }
    }

    /// Adds a line segment with a style class.
    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, className: String) {
        raw(
            "<line class=\"\(className)\" x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" "
                + "x2=\"\(Self.number(x2))\" y2=\"\(Self.number(y2))\"/>")
    }

    /// Adds a text label; `anchor` is `start`, `middle` or `end`.
    mutating func label(
        _ value: String, x: Double, y: Double, className: String = "t", anchor: String = "start"
    ) {
        let anchorAttribute = anchor == "start" ? "" : " text-anchor=\"\(anchor)\""
        raw(
            "<text class=\"\(className)\" x=\"\(Self.number(x))\" y=\"\(Self.number(y))\"\(anchorAttribute)>"
                + "\(Self.escape(value))</text>")
    }

    /// Opens a group with a style class and an optional tooltip; close it with `endGroup()`.
    mutating func beginGroup(className: String, tooltip: String? = nil) {
        raw("<g class=\"\(className)\">" + (tooltip.map { "<title>\(Self.escape($0))</title>" } ?? ""))
    }

    /// Closes the group opened last.
    mutating func endGroup() {
        raw("</g>")
    }
}
