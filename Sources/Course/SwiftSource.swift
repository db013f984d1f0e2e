/// Finds code in a step's Swift file by what it declares, not by line numbers, so an exercise still finds
/// its code after other edits of the file: a small brace matcher that skips strings and comments.
enum SwiftSource {
    /// The byte offsets of a declaration's braces: `open` is its `{`, `close` its matching `}`.
    struct Braces: Equatable {
        let open: Int
        let close: Int
    }

    /// The braces of the first declaration whose line contains `declaration` as whole words (`func main`
    /// matches `override func main() {`, not `func mainly`), searched from `start`; nil when absent.
    static func braces(of declaration: String, in bytes: [UInt8], from start: Int = 0, before end: Int? = nil)
        -> Braces?
    {
        let limit = end ?? bytes.count
        let needle = Array(declaration.utf8)
        var index = start
        while let found = find(needle, in: bytes, from: index, before: limit) {
            index = found + 1
            let after = found + needle.count
            guard isBoundary(bytes, before: found), after >= limit || !isWordByte(bytes[after]),
                !isInCommentOrString(bytes, at: found)
            else { continue }
            guard let open = nextCodeByte(UInt8(ascii: "{"), in: bytes, from: after, before: limit),
                let close = matchingBrace(in: bytes, open: open)
            else { return nil }
            return Braces(open: open, close: close)
        }
        return nil
    }

    /// The text with a declaration's body replaced by `// TODO` lines (and a placeholder statement, if
    /// given, so the file still compiles); nil when the declaration is not found.
    static func blankingBody(of declaration: String, in text: String, todo: [String], placeholder: String?)
        -> String?
    {
        var bytes = Array(text.utf8)
        guard let braces = braces(of: declaration, in: bytes) else { return nil }
        let indent = indentation(ofLineAt: braces.open, in: bytes)
        var body = todo.map { indent + "    //" + ($0.isEmpty ? "" : " " + $0) }
        if let placeholder { body.append(indent + "    " + placeholder) }
        let replacement = Array(("\n" + body.joined(separator: "\n") + "\n" + indent).utf8)
        bytes.replaceSubrange((braces.open + 1)..<braces.close, with: replacement)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text with one statement inside a declaration taken away: from the start of the line holding
    /// `statement` to the end of the line where that statement's braces close, replaced by `// TODO` lines.
    static func blankingStatement(
        _ statement: String, inside declaration: String, in text: String, todo: [String]
    ) -> String? {
        var bytes = Array(text.utf8)
        guard let outer = braces(of: declaration, in: bytes),
            let found = find(Array(statement.utf8), in: bytes, from: outer.open, before: outer.close),
            let open = nextCodeByte(UInt8(ascii: "{"), in: bytes, from: found, before: outer.close),
            let close = matchingBrace(in: bytes, open: open)
        else { return nil }
        let lineStart = startOfLine(at: found, in: bytes)
        var lineEnd = close
        while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
        let indent = indentation(ofLineAt: found, in: bytes)
        let replacement = Array(
            todo.map { indent + "//" + ($0.isEmpty ? "" : " " + $0) }.joined(separator: "\n").utf8)
        bytes.replaceSubrange(lineStart..<lineEnd, with: replacement)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text with the `occurrence`-th `old` inside a declaration replaced by `new`; nil when there is no
    /// such occurrence.
    static func replacing(
        _ old: String, with new: String, occurrence: Int, inside declaration: String, in text: String
    ) -> String? {
        var bytes = Array(text.utf8)
        guard let outer = braces(of: declaration, in: bytes) else { return nil }
        let needle = Array(old.utf8)
        var from = outer.open
        var position: Int?
        for _ in 0..<occurrence {
            guard let found = find(needle, in: bytes, from: from, before: outer.close) else { return nil }
            position = found
            from = found + max(1, needle.count)
        }
        guard let position else { return nil }
        bytes.replaceSubrange(position..<(position + needle.count), with: Array(new.utf8))
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Scanning

    /// The `}` matching the `{` at `open`, skipping braces in strings, characters and comments.
    static func matchingBrace(in bytes: [UInt8], open: Int) -> Int? {
        var depth = 0
        var index = open
        while index < bytes.count {
            if let skipped = skipCommentOrString(bytes, at: index) {
                index = skipped
                continue
            }
            switch bytes[index] {
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
            index += 1
        }
        return nil
    }

    /// Where a comment or string literal starting at `index` ends (the index after it); nil when none
    /// starts there.
    static func skipCommentOrString(_ bytes: [UInt8], at index: Int) -> Int? {
        let byte = bytes[index]
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        if byte == UInt8(ascii: "/") && next == UInt8(ascii: "/") {
            var end = index
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            return end
        }
        if byte == UInt8(ascii: "/") && next == UInt8(ascii: "*") {
            var depth = 0
            var end = index
            while end + 1 < bytes.count {
                if bytes[end] == UInt8(ascii: "/") && bytes[end + 1] == UInt8(ascii: "*") {
                    depth += 1
                    end += 2
                } else if bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/") {
                    depth -= 1
                    end += 2
                    if depth == 0 { return end }
                } else {
                    end += 1
                }
            }
            return bytes.count
        }
        if byte == UInt8(ascii: "\"") {
            let triple = Array("\"\"\"".utf8)
            if index + 3 <= bytes.count, Array(bytes[index..<(index + 3)]) == triple {
                return find(triple, in: bytes, from: index + 3, before: bytes.count).map { $0 + 3 }
                    ?? bytes.count
            }
            var end = index + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\n") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            return min(end + 1, bytes.count)
        }
        return nil
    }

    /// Whether `index` falls inside a comment or a string literal, scanning from the start of the file.
    static func isInCommentOrString(_ bytes: [UInt8], at target: Int) -> Bool {
        var index = 0
        while index < target {
            if let skipped = skipCommentOrString(bytes, at: index) {
                if skipped > target { return true }
                index = skipped
            } else {
                index += 1
            }
        }
        return false
    }

    /// The first `byte` in code (not in a comment or string) from `start`.
    static func nextCodeByte(_ byte: UInt8, in bytes: [UInt8], from start: Int, before end: Int) -> Int? {
        var index = start
        while index < end {
            if let skipped = skipCommentOrString(bytes, at: index) {
                index = skipped
                continue
            }
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int, before end: Int) -> Int? {
        guard !needle.isEmpty, end - needle.count >= start else { return nil }
        var index = start
        while index <= end - needle.count {
            if bytes[index] == needle[0], Array(bytes[index..<(index + needle.count)]) == needle {
                return index
            }
            index += 1
        }
        return nil
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }

    static func isBoundary(_ bytes: [UInt8], before index: Int) -> Bool {
        index == 0 || !isWordByte(bytes[index - 1])
    }

    static func startOfLine(at index: Int, in bytes: [UInt8]) -> Int {
        var start = index
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        return start
    }

    /// The spaces that start the line holding `index`.
    static func indentation(ofLineAt index: Int, in bytes: [UInt8]) -> String {
        var position = startOfLine(at: index, in: bytes)
        var indent = ""
        while position < bytes.count, bytes[position] == UInt8(ascii: " ") {
            indent += " "
            position += 1
        }
        return indent
    }
}
