/// The `--json` report: one object with the step, scenario, seed, metrics, oracle, limit and final screen.
package enum JSONReport {
    /// The JSON text of a run (one object, keys in a fixed order, then a newline).
    package static func render(_ result: RunResult) -> String {
        let metrics = JSONText.object(result.metrics.entries.map { ($0.key, $0.value.formatted) })
        let oracle = JSONText.object([
            ("requests", String(result.oracle.requests)), ("bytes", String(result.oracle.bytes)),
        ])
        let limit = JSONText.object(result.limit.entries.map { ($0.key, $0.value.formatted) })
        let rows = result.finalScreen.rows.map { row in
            JSONText.object([
                ("row", String(row.row)), ("title", JSONText.string(row.title)),
                ("shows", JSONText.string(row.shows)),
                ("image_hash", JSONText.optionalString(row.imageHash)), ("url", JSONText.string(row.url)),
            ])
        }
        var text = "{\n"
        text += "  \"step\": \(JSONText.string(result.step)),\n"
        text += "  \"scenario\": \(JSONText.string(result.scenario)),\n"
        text += "  \"seed\": \(result.seed),\n"
        text += "  \"virtual_ms\": \(MetricValue.milliseconds(result.virtualMicroseconds).formatted),\n"
        text += "  \"metrics\": \(metrics),\n"
        text += "  \"oracle\": \(oracle),\n"
        text += "  \"limit\": \(limit),\n"
        text += "  \"final_screen\": [\n    " + rows.joined(separator: ",\n    ") + "\n  ]"
        if !result.notices.isEmpty {
            text += ",\n  \"notices\": [" + result.notices.map(JSONText.string).joined(separator: ", ") + "]"
        }
        text += "\n"
        text += "}\n"
        return text
    }
}

/// Small helpers that write JSON text by hand, so key order and number format never vary.
enum JSONText {
    /// A JSON string literal for `value`, escaped per RFC 8259.
    static func string(_ value: String) -> String {
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
    static func optionalString(_ value: String?) -> String {
        value.map(string) ?? "null"
    }

    /// One JSON object from (key, already-encoded value) pairs, in the given order, on one line.
    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }
}
