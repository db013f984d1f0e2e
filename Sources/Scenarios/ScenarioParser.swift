import Files
import Foundation

/// Reads scenario files: the built-ins shipped with the package and files a teacher writes.
///
/// The format is one line per setting or action; `#` starts a comment; blank lines are ignored; keywords
/// are lowercase; words are separated by spaces (or tabs). Settings come first, each at most once, and
/// describe the session before it starts; actions follow, in the order they happen:
///
/// ```
/// rows 200                  # catalog rows used, 1…100000 (default 200)
/// seed 7                    # a UInt64; --seed overrides it
/// network rtt=120ms jitter=30ms bandwidth=1000KB/s connections=6 timeout=10s
/// screen height=667 row=88 refresh=60
/// faults timeout=2% refused=1% server-error=1% truncated=2% corrupt=0.5%
/// slow-host img3.posters.test factor=8
/// disk full-after=20
/// wait 2s
/// drag to row 6 over 1s
/// fling to row 80
/// memory-warning
/// relaunch
/// ```
///
/// - `network`, `screen` and `faults` take any subset of their `key=value` words, in any order, each once;
///   unknown keys are errors. Network keys: `rtt` and `jitter` (durations, may be 0, at most 60s),
///   `bandwidth` (`B/s`, `KB/s` or `MB/s` with KB = 1000 bytes and MB = 1 000 000 bytes, decimals allowed
///   down to one byte, at least 1B/s), `connections` (per host, 1…64), `timeout` (a positive duration).
///   Screen keys: `height` (points, 100…10000), `row` (points, at most the height), `refresh` (60 or 120).
///   Fault keys: `timeout`, `refused`, `server-error`, `truncated`, `corrupt`: percentages with at most one
///   decimal, stored per mille, adding up to at most 100%.
/// - `slow-host HOST factor=N`: one host (letters, digits, dots, hyphens), N from 1 to 1000.
/// - `disk full-after=N`: the phone's disk accepts N writes (0…1000000), then fails every write as a full
///   disk does.
/// - Durations are a number with the unit `s` (up to six decimals), `ms` (up to three) or `us` (none);
///   `wait` and `drag … over` need more than zero and at most 3600s. They are read without floating point.
/// - Rows are numbered from 0; every `drag`/`fling` target must be below `rows` (checked once the whole
///   file is read, reported on the action's line).
/// - A file needs at least one action.
/// - A file may hold at most `maximumFileBytes` (1 MB); a larger one is refused before it is read. It may
///   use CRLF line ends and start with a UTF-8 byte-order mark.
/// - Caps that keep every run small (each refusal names the line and the limit): at most 100 000 rows, at
///   most 2000 actions, at most one hour of virtual time for the whole script (waits, drags, and flings
///   with their coasting), and at most 100 rows visible at once (`height` / `row`, rounded up, plus one).
package enum ScenarioParser {
    /// The largest scenario file read: 1 MB (1 000 000 bytes), far more than any script of gestures needs.
    /// A larger file is refused from its size alone, before it is read or parsed.
    package static let maximumFileBytes = BoundedFile.Kind.scenario.maximumBytes

    /// Reads scenario text; `name` becomes the scenario's name and `source` prefixes every error.
    package static func parse(_ text: String, name: String, source: String) throws(ScenarioError) -> Scenario
    {
        var reader = ScenarioReader(name: name, source: source)
        try reader.read(text)
        return try reader.finish()
    }

    /// Loads a built-in by name (`course`) or a scenario file by path.
    ///
    /// A built-in name wins over a file of the same name in the current directory; write `./course` for
    /// the file.
    package static func load(_ nameOrPath: String) throws(ScenarioError) -> Scenario {
        let builtIns = builtInNames
        if builtIns.contains(nameOrPath), let folder = builtInFolder {
            let url = folder.appendingPathComponent("\(nameOrPath).scenario")
            return try loadFile(at: url, name: nameOrPath, source: "\(nameOrPath).scenario")
        }
        let list = "built-in scenarios: \(builtIns.joined(separator: ", "))"
        guard !nameOrPath.isEmpty else {
            throw ScenarioError(source: "scenario", line: nil, message: "no scenario given; \(list)")
        }
        guard FileManager.default.fileExists(atPath: nameOrPath) else {
            let looksLikeName = !nameOrPath.contains("/") && !nameOrPath.contains(".")
            let message =
                looksLikeName
                ? "no built-in scenario by that name and no such file; \(list)"
                : "no such file; \(list), or give the path of a scenario file"
            throw ScenarioError(source: nameOrPath, line: nil, message: message)
        }
        if let kind = BoundedFile.nonFileKind(atPath: nameOrPath) {
            throw ScenarioError(
                source: nameOrPath, line: nil, message: "is \(kind), not a scenario file; \(list)")
        }
        let url = URL(fileURLWithPath: nameOrPath)
        // The name reaches the reports, the trace and the SVG: its control characters are escaped here,
        // once, so no output gets raw escape sequences or bytes XML does not allow.
        let name = VisibleText.escaped(url.deletingPathExtension().lastPathComponent)
        return try loadFile(at: url, name: name, source: nameOrPath)
    }

    /// The names of the built-in scenarios, sorted.
    package static var builtInNames: [String] {
        guard let folder = builtInFolder,
            let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        let suffix = ".scenario"
        return files.filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }.sorted()
    }

    /// The folder of built-in scenario files in the package's resources.
    static var builtInFolder: URL? {
        Bundle.module.url(forResource: "Scenarios", withExtension: nil)
    }

    /// Reads a file's bytes (through `BoundedFile`: a regular file of at most `maximumFileBytes`), insists
    /// on UTF-8 and parses it.
    static func loadFile(at url: URL, name: String, source: String) throws(ScenarioError) -> Scenario {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(url.path, as: .scenario)
        } catch {
            throw ScenarioError(source: source, line: nil, message: error.description)
        }
        let text = try decodeUTF8(bytes, source: source)
        return try parse(text, name: name, source: source)
    }

    /// The bytes as text, or an error naming the first line that is not valid UTF-8.
    static func decodeUTF8(_ bytes: [UInt8], source: String) throws(ScenarioError) -> String {
        if let text = String(validating: bytes, as: UTF8.self) {
            return text
        }
        var lineNumber = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if String(validating: line, as: UTF8.self) == nil {
                break
            }
        }
        throw ScenarioError(
            source: source, line: lineNumber,
            message: "this line is not UTF-8 text; scenario files must be UTF-8")
    }
}
