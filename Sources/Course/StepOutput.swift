import Foundation

/// What a step printed, as `Course` reads it: the `--json` report among the student's own prints, the
/// trace's events, and where two runs' reports first differ.
extension WorkbookPackage {
    /// A step's report in what it printed: the `--json` object, written in one piece, wherever the
    /// student's own prints (buffered, so flushed in chunks at any moment) put it.
    static func report(fromOutput data: Data, of step: String) throws -> RunReport {
        try reportAndText(fromOutput: data, of: step).0
    }

    /// The report in what a step printed, and its text.
    static func reportAndText(fromOutput data: Data, of step: String) throws -> (RunReport, String) {
        let bytes = [UInt8](data)
        let marker = Array("{\n  \"step\":".utf8)
        var index = bytes.count - marker.count
        while index >= 0 {
            if bytes[index] == marker[0], Array(bytes[index..<(index + marker.count)]) == marker,
                let end = endOfObject(in: bytes, from: index),
                let report = try? Self.report(fromJSON: Data(bytes[index...end]))
            {
                return (report, String(decoding: bytes[index...end], as: UTF8.self))
            }
            index -= 1
        }
        throw CourseError(
            "\(step) printed no --json report that Course could read: does your code stop the step early?")
    }

    /// The index of the `}` closing the JSON object that starts at `start`, skipping strings.
    static func endOfObject(in bytes: [UInt8], from start: Int) -> Int? {
        var depth = 0
        var inString = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }

    /// A step's `--json` report as the exercises see it.
    static func report(fromJSON data: Data) throws -> RunReport {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let metrics = object["metrics"] as? [String: Any]
        else { throw CourseError("a step printed something that is not its --json report") }
        let oracle = object["oracle"] as? [String: Any] ?? [:]
        let screen = object["final_screen"] as? [[String: Any]] ?? []
        return RunReport(
            metrics: metrics.compactMapValues { ($0 as? NSNumber)?.doubleValue },
            oracle: oracle.compactMapValues { ($0 as? NSNumber)?.doubleValue },
            finalShows: screen.map { $0["shows"] as? String ?? "?" },
            finalHashes: screen.map { $0["image_hash"] as? String ?? "" })
    }

    /// A `--trace` file's events (JSON Lines, one object per line), with the fields the exercises read:
    /// a string field's text, a true-or-false field as `true` or `false`.
    static func events(fromTrace bytes: [UInt8]) -> [TraceLine] {
        let keys = ["thread", "state", "operation", "cancelled", "url", "method"]
        return bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let name = object["event"] as? String
            else { return nil }
            var fields: [String: String] = [:]
            for key in keys {
                if let text = object[key] as? String {
                    fields[key] = text
                } else if let flag = object[key] as? Bool {
                    fields[key] = flag ? "true" : "false"
                }
            }
            return TraceLine(name: name, fields: fields)
        }
    }

    /// The first line where two reports differ, in words; nil when they are the same.
    static func firstDifference(_ first: String, _ second: String) -> String? {
        let a = first.split(separator: "\n", omittingEmptySubsequences: false)
        let b = second.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(a.count, b.count) {
            let left = index < a.count ? String(a[index]) : "(nothing)"
            let right = index < b.count ? String(b[index]) : "(nothing)"
            if left != right {
                let (mine, theirs) = differingItems(left, right)
                return
                    "line \(index + 1) of the --json report has `\(mine)` in one and `\(theirs)` in the other"
            }
        }
        return nil
    }

    /// Where two lines first differ, as the items holding the difference: for a line of JSON, the
    /// comma-separated items (`"bytes_wasted": 357148` and `"bytes_wasted": 515342`), each at most 120
    /// characters; `(end of line)` for a line that stops there.
    static func differingItems(_ left: String, _ right: String) -> (String, String) {
        let a = Array(left)
        let b = Array(right)
        var first = 0
        while first < a.count, first < b.count, a[first] == b[first] { first += 1 }
        func rest(_ characters: [Character]) -> String {
            first < characters.count ? String(String(characters[first...]).prefix(120)) : "(end of line)"
        }
        if first == a.count || first == b.count { return (rest(a), rest(b)) }
        var start = first
        while start > 0, !",{[".contains(a[start - 1]) { start -= 1 }
        func item(_ characters: [Character]) -> String {
            var end = first
            while end < characters.count, !",}]".contains(characters[end]) { end += 1 }
            let text = String(characters[start..<end]).trimmingCharacters(in: .whitespaces)
            return text.count > 120 ? text.prefix(120) + "…" : text
        }
        return (item(a), item(b))
    }
}
