/// The values of a scenario's `key=value` settings and positional arguments, each read with its unit and
/// its bounds, and refused in one line that names the key and what was expected.
extension ScenarioReader {
    /// Reads the rest of the line as `key=value` words: at least one, known keys only, each key once.
    func readKeyValues(_ line: inout ScenarioLine, setting: KeyedSetting) throws(ScenarioError)
        -> [(key: Key, value: String)]
    {
        let keys = setting.keys.map(\.name)
        let kind = setting.kind
        let example = setting.example
        if line.isAtEnd {
            throw line.expected("\(kind) settings like “\(example)” (keys: \(keys.joined(separator: ", ")))")
        }
        var pairs: [(key: Key, value: String)] = []
        while let word = line.next() {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                throw line.expected("“key=value” like “\(example)”", insteadOf: word)
            }
            let key = String(word[..<equals])
            let value = String(word[word.index(after: equals)...])
            guard let known = setting.keys.first(where: { $0.name == key }) else {
                var message =
                    "unknown \(kind) key \(ScenarioLine.quote(key)); expected one of "
                    + keys.joined(separator: ", ")
                if let suggestion = EditDistance.closest(to: key.lowercased(), among: keys) {
                    message += " (did you mean “\(suggestion)”?)"
                }
                throw line.error(message)
            }
            guard !pairs.contains(where: { $0.key.name == key }) else {
                throw line.error("“\(key)” is given twice on this line; give each key once")
            }
            pairs.append((known, value))
        }
        return pairs
    }

    /// A key's value as the table says to read it.
    func read(_ value: String, as kind: ValueKind, key: String, on line: ScenarioLine)
        throws(ScenarioError) -> Int64
    {
        switch kind {
        case .duration(let allowsZero, let maximum):
            return try duration(value, key: key, on: line, allowsZero: allowsZero, maximum: maximum)
        case .bandwidth:
            return try bandwidth(value, key: key, on: line)
        case .wholeNumber(let range):
            return Int64(try wholeNumber(value, key: key, on: line, in: range))
        case .choice(let range, let choices, let unit):
            let number = try wholeNumber(value, key: key, on: line, in: range)
            guard choices.contains(number) else {
                throw line.error(
                    "“\(key)” must be \(choices.map(String.init).joined(separator: " or ")) (\(unit)), "
                        + "found \(ScenarioLine.quote(value))")
            }
            return Int64(number)
        case .percentage:
            return Int64(try percentage(value, key: key, on: line))
        }
    }

    /// A key's value as `parse` reads it, refused as missing when it is empty and as not what was
    /// `expected` when `parse` gives nil.
    func parsed<Value>(
        _ value: String, key: String, on line: ScenarioLine, expected: String, by parse: (String) -> Value?
    ) throws(ScenarioError) -> Value {
        guard !value.isEmpty else {
            throw line.error("missing value for “\(key)”; expected \(expected)")
        }
        guard let parsed = parse(value) else {
            throw line.error("expected \(expected) for “\(key)”, found \(ScenarioLine.quote(value))")
        }
        return parsed
    }

    /// The refusal of a key's value above its `maximum`, as a scenario would write it.
    func aboveMaximum(_ value: String, key: String, on line: ScenarioLine, maximum: String) -> ScenarioError {
        line.error("“\(key)” may be at most \(maximum), found \(ScenarioLine.quote(value))")
    }

    /// A duration value of a key, in microseconds.
    func duration(
        _ value: String, key: String, on line: ScenarioLine, allowsZero: Bool, maximum: Int64
    ) throws(ScenarioError) -> Int64 {
        let microseconds = try parsed(
            value, key: key, on: line, expected: "a duration like 120ms, 1.5s or 500us",
            by: ScenarioValue.durationMicroseconds)
        if !allowsZero, microseconds == 0 {
            throw line.error("“\(key)” must be longer than zero, found \(ScenarioLine.quote(value))")
        }
        guard microseconds <= maximum else {
            throw aboveMaximum(value, key: key, on: line, maximum: ScenarioValue.formatDuration(maximum))
        }
        return microseconds
    }

    /// A whole-number value of a key, within a range.
    func wholeNumber(
        _ value: String, key: String, on line: ScenarioLine, in range: ClosedRange<Int>
    ) throws(ScenarioError) -> Int {
        try parsed(
            value, key: key, on: line,
            expected: "a whole number from \(range.lowerBound) to \(range.upperBound)"
        ) { value in
            ScenarioValue.wholeInt(Substring(value)).flatMap { range.contains($0) ? $0 : nil }
        }
    }

    /// A bandwidth value of a key, in bytes per second.
    func bandwidth(_ value: String, key: String, on line: ScenarioLine) throws(ScenarioError) -> Int64 {
        let bytes = try parsed(
            value, key: key, on: line,
            expected: "a bandwidth like 1000KB/s, 1.5MB/s or 800B/s (KB = 1000 bytes)",
            by: ScenarioValue.bandwidthBytesPerSecond)
        guard bytes > 0 else {
            throw line.error("“\(key)” must be at least 1B/s, found \(ScenarioLine.quote(value))")
        }
        guard bytes <= ScenarioReader.maximumBandwidth else {
            throw aboveMaximum(value, key: key, on: line, maximum: "10000MB/s")
        }
        return bytes
    }

    /// A percentage value of a key, in per mille.
    func percentage(_ value: String, key: String, on line: ScenarioLine) throws(ScenarioError) -> Int {
        let perMille = try parsed(
            value, key: key, on: line, expected: "a percentage like 2% or 0.5% (at most one decimal)",
            by: ScenarioValue.percentPerMille)
        guard perMille <= 1000 else { throw aboveMaximum(value, key: key, on: line, maximum: "100%") }
        return perMille
    }
}
