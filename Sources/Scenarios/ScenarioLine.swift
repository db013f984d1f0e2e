/// One non-blank line of a scenario file, split into tokens, read left to right.
///
/// It knows its file and line number, so every error it makes names both, and it phrases them as
/// `expected X after “what was read”, found “what is there”`.
struct ScenarioLine {
    /// The file, for error messages.
    let source: String
    /// The 1-based line number.
    let number: Int
    /// The words of the line, comment removed, split on spaces and tabs.
    let tokens: [String]
    /// How many tokens have been read.
    private(set) var position = 0

    /// Splits a raw line; nil when it holds nothing but blanks and a comment.
    init?(_ text: Substring, number: Int, source: String) {
        var content = text
        if let hash = content.firstIndex(of: "#") {
            content = content[..<hash]
        }
        let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard !words.isEmpty else { return nil }
        self.source = source
        self.number = number
        self.tokens = words.map(String.init)
    }

    /// The first word: the action or setting.
    var keyword: String { tokens[0] }

    /// Whether every token has been read.
    var isAtEnd: Bool { position >= tokens.count }

    /// The tokens read so far, as written (for “after …” in messages).
    var consumedText: String { tokens[..<position].joined(separator: " ") }

    /// The unread rest of the line, quoted, or “end of line”.
    var foundText: String {
        isAtEnd ? "end of line" : ScenarioLine.quote(tokens[position...].joined(separator: " "))
    }

    /// The next token without reading it, if any.
    func peek() -> String? {
        isAtEnd ? nil : tokens[position]
    }

    /// Reads the next token, if any.
    mutating func next() -> String? {
        guard !isAtEnd else { return nil }
        defer { position += 1 }
        return tokens[position]
    }

    /// Reads a fixed word (like `to` in `drag to row`), or fails naming the phrase that should follow.
    mutating func expect(_ word: String, phrase: String) throws(ScenarioError) {
        guard !isAtEnd, tokens[position] == word else {
            throw expected(phrase)
        }
        position += 1
    }

    /// Fails unless the whole line has been read.
    func expectEnd() throws(ScenarioError) {
        guard isAtEnd else { throw expected("end of line") }
    }

    /// An error on this line with the given message.
    func error(_ message: String) -> ScenarioError {
        ScenarioError(source: source, line: number, message: message)
    }

    /// “expected X after “read so far”, found “rest of line””.
    func expected(_ what: String) -> ScenarioError {
        error("expected \(what) after \(ScenarioLine.quote(consumedText)), found \(foundText)")
    }

    /// “expected X after “read so far”, found “token”” for a token just read that has the wrong shape.
    func expected(_ what: String, insteadOf token: String) -> ScenarioError {
        let before = tokens[..<max(position - 1, 0)].joined(separator: " ")
        return error(
            "expected \(what) after \(ScenarioLine.quote(before)), found \(ScenarioLine.quote(token))")
    }

    /// Puts text in curly quotes, shortening very long text.
    static func quote(_ text: String) -> String {
        let limit = 60
        let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
        return "“\(shown)”"
    }
}

/// A scenario that could not be read: the file, the line (when there is one) and what was expected.
///
/// Its description reads like a compiler diagnostic:
/// `course.scenario:12: expected “over <duration>” after “drag to row 6”, found “in 1s”`.
package struct ScenarioError: Error, Equatable, CustomStringConvertible {
    /// The built-in's resource name (`course.scenario`) or the file path, as given.
    package var source: String
    /// The 1-based line the problem is on, or nil when it concerns the whole file.
    package var line: Int?
    /// What was expected and what was found.
    package var message: String

    /// Makes an error for a source, an optional line and a message.
    init(source: String, line: Int?, message: String) {
        self.source = source
        self.line = line
        self.message = message
    }

    /// `source:line: message`, or `source: message` without a line.
    public var description: String {
        if let line {
            return "\(source):\(line): \(message)"
        }
        return "\(source): \(message)"
    }
}
