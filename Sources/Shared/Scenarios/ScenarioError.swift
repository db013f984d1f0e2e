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
