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

    /// Fails with “missing value for key” when a `key=` has nothing after the sign.
    func requireValue(_ value: String, key: String, on line: ScenarioLine, expected: String)
        throws(ScenarioError)
    {
        guard !value.isEmpty else {
            throw line.error("missing value for “\(key)”; expected \(expected)")
        }
    }

    /// A duration value of a key, in microseconds.
    func duration(
        _ value: String, key: String, on line: ScenarioLine, allowsZero: Bool, maximum: Int64
    ) throws(ScenarioError) -> Int64 {
        let expected = "a duration like 120ms, 1.5s or 500us"
        try requireValue(value, key: key, on: line, expected: expected)
        guard let microseconds = ScenarioValue.durationMicroseconds(value) else {
            throw line.error("expected \(expected) for “\(key)”, found \(ScenarioLine.quote(value))")
        }
        if !allowsZero, microseconds == 0 {
            throw line.error("“\(key)” must be longer than zero, found \(ScenarioLine.quote(value))")
        }
        guard microseconds <= maximum else {
            throw line.error(
                "“\(key)” may be at most \(ScenarioValue.formatDuration(maximum)), found \(ScenarioLine.quote(value))"
            )
        }
        return microseconds
    }

    /// A whole-number value of a key, within a range.
    func wholeNumber(
        _ value: String, key: String, on line: ScenarioLine, in range: ClosedRange<Int>
    ) throws(ScenarioError) -> Int {
        let expected = "a whole number from \(range.lowerBound) to \(range.upperBound)"
        try requireValue(value, key: key, on: line, expected: expected)
        guard let number = ScenarioValue.wholeInt(Substring(value)), range.contains(number) else {
            throw line.error("expected \(expected) for “\(key)”, found \(ScenarioLine.quote(value))")
        }
        return number
    }

    /// A bandwidth value of a key, in bytes per second.
    func bandwidth(_ value: String, key: String, on line: ScenarioLine) throws(ScenarioError) -> Int64 {
        let expected = "a bandwidth like 1000KB/s, 1.5MB/s or 800B/s (KB = 1000 bytes)"
        try requireValue(value, key: key, on: line, expected: expected)
        guard let bytes = ScenarioValue.bandwidthBytesPerSecond(value) else {
            throw line.error("expected \(expected) for “\(key)”, found \(ScenarioLine.quote(value))")
        }
        guard bytes > 0 else {
            throw line.error("“\(key)” must be at least 1B/s, found \(ScenarioLine.quote(value))")
        }
        guard bytes <= ScenarioReader.maximumBandwidth else {
            throw line.error("“\(key)” may be at most 10000MB/s, found \(ScenarioLine.quote(value))")
        }
        return bytes
    }

    /// A percentage value of a key, in per mille.
    func percentage(_ value: String, key: String, on line: ScenarioLine) throws(ScenarioError) -> Int {
        let expected = "a percentage like 2% or 0.5% (at most one decimal)"
        try requireValue(value, key: key, on: line, expected: expected)
        guard let perMille = ScenarioValue.percentPerMille(value) else {
            throw line.error("expected \(expected) for “\(key)”, found \(ScenarioLine.quote(value))")
        }
        guard perMille <= 1000 else {
            throw line.error("“\(key)” may be at most 100%, found \(ScenarioLine.quote(value))")
        }
        return perMille
    }
}
