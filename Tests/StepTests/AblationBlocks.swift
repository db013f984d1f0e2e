import Foundation
import Shared

/// Walkthrough blocks that compare runs with options: a step at another concurrency, or step 4 with one
/// technique turned off.
///
/// - `<!-- workbook: columns SCENARIO | COMMAND | COMMAND … : KEY … -->` holds a Markdown table of those
///   metrics, a column per command (a step name and its options, such as `Step3IdleOnly --concurrency 5`),
///   and the oracle where it applies.
/// - `<!-- workbook: ablation SCENARIO : KEY … -->` holds "what each part of step 4 buys": a row for
///   step 3 at step 4's concurrency, step 4 itself, and step 4 with each technique turned off in turn.
enum AblationBlocks {
    /// Runs kept per command line, like `SharedRuns` but with options.
    private static let runs = SharedCommandRuns()

    /// Step 4's download concurrency, at which step 3 is compared with it.
    static let stepFourConcurrency = 5

    /// The body of a `columns` directive (the words after `columns`).
    static func columns(_ text: String) throws -> String {
        let (head, keys) = try split(text, expecting: "columns SCENARIO | COMMAND … : KEY …")
        let parts = head.components(separatedBy: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count >= 2 else { throw WorkbookError.badInput("walkthrough: no columns in “\(text)”") }
        let results = try parts.dropFirst().map { try runs.result($0, scenario: parts[0]) }
        return WalkthroughBlocks.table(results: results, keys: keys, headers: Array(parts.dropFirst()))
    }

    /// The body of an `ablation` directive (the words after `ablation`).
    static func ablation(_ text: String) throws -> String {
        let (scenario, keys) = try split(text, expecting: "ablation SCENARIO : KEY …")
        var lines = ["| run | " + keys.map { "`\($0)`" }.joined(separator: " | ") + " |"]
        lines.append("|---|" + keys.map { _ in "---:|" }.joined())
        for command in commands {
            let result = try runs.result(command, scenario: scenario)
            let values = keys.map { key in
                result.metrics.entries.first { $0.key == key }?.value.formatted ?? "?"
            }
            lines.append("| `\(command)` | " + values.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// The ablation's rows: step 3 at step 4's concurrency, step 4, and step 4 without each technique.
    static var commands: [String] {
        ["Step3IdleOnly --concurrency \(stepFourConcurrency)", "Step4CacheAndPrefetch"]
            + Step.cacheAndPrefetch.info.techniques.map {
                "Step4CacheAndPrefetch --without \($0)"
            }
    }

    /// A run of a command line (a step name and its options) on a scenario, shared between blocks and tests.
    static func result(_ command: String, scenario: String) throws -> RunResult {
        try runs.result(command, scenario: scenario)
    }

    private static func split(_ text: String, expecting form: String) throws -> (String, [String]) {
        guard let colon = text.range(of: " : ") else {
            throw WorkbookError.badInput("walkthrough: expected “\(form)” in “\(text)”")
        }
        let head = text[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
        let keys = text[colon.upperBound...].split(separator: " ").map(String.init)
        return (head, keys)
    }
}

/// Runs each (command line, scenario) once per test process.
final class SharedCommandRuns: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [String: RunResult] = [:]

    func result(_ command: String, scenario: String) throws -> RunResult {
        let key = "\(command) / \(scenario)"
        if let cached = lock.withLock({ results[key] }) { return cached }
        let words = command.split(separator: " ").map(String.init)
        guard let name = words.first, let step = Step(rawValue: name) else {
            throw WorkbookError.badInput("walkthrough: unknown step in “\(command)”")
        }
        if words.count == 1 { return try SharedRuns.shared.result(step, scenario) }
        var options = try OptionsParser.parse(Array(words.dropFirst()), techniques: step.info.techniques)
        options.scenario = scenario
        let result = try Workbook.run(
            step: step.rawValue, options: options, keepTrace: true, makeApp: step.makeApp)
        lock.withLock { results[key] = result }
        return result
    }
}
