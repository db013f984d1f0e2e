/// Small helpers that write JSON text by hand, so key order and number format never vary.
package enum JSONText {
    /// A JSON string literal for `value`, escaped per RFC 8259.
    package static func string(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// A JSON string literal, or `null` for nil.
    package static func optionalString(_ value: String?) -> String {
        value.map(string) ?? "null"
    }

    /// One JSON object from (key, already-encoded value) pairs, in the given order, on one line.
    package static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// One JSON array of already-encoded elements, in the given order, on one line.
    package static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ", ") + "]"
    }

    /// One JSON object from (key, already-encoded value) pairs, in the given order, a member a line two
    /// spaces in, ending in a newline: a whole report.
    package static func document(_ fields: [(String, String)]) -> String {
        "{\n" + fields.map { "  \(string($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n}\n"
    }
}
