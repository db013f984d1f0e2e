/// Reads a trace event's fields back into Swift values, for the pictures drawn from a trace.
extension TraceEvent {
    /// A string field's value (nil when missing or `null`).
    func text(_ key: String) -> String? {
        guard let json = fields.first(where: { $0.key == key })?.json, json.hasPrefix("\""), json.count >= 2
        else { return nil }
        var result = ""
        var escaped = false
        for character in json.dropFirst().dropLast() {
            if escaped {
                switch character {
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "t": result.append("\t")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// A whole-number field's value.
    func integer(_ key: String) -> Int64? {
        fields.first(where: { $0.key == key }).flatMap { Int64($0.json) }
    }

    /// A milliseconds field (one decimal, as the trace writes it) in microseconds.
    func microseconds(_ key: String) -> Int64? {
        guard let json = fields.first(where: { $0.key == key })?.json else { return nil }
        let parts = json.split(separator: ".", maxSplits: 1)
        guard let whole = parts.first.flatMap({ Int64($0) }) else { return nil }
        var micros = whole * 1000
        if parts.count == 2, let first = parts[1].first, let tenth = first.wholeNumberValue {
            micros += Int64(tenth) * 100 * (json.hasPrefix("-") ? -1 : 1)
        }
        return micros
    }

    /// A true/false field's value.
    func flag(_ key: String) -> Bool? {
        switch fields.first(where: { $0.key == key })?.json {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }
}
