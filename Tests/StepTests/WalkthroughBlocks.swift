import Foundation
import Shared

@testable import CLI
@testable import Course
@testable import Files
@testable import Pictures
@testable import Report

/// The generated blocks of `Walkthrough.md`: every number the course quotes lives in one, made from a
/// real in-process run of the current code.
///
/// A block starts with a marker line and ends with `<!-- /workbook -->`:
/// - `<!-- workbook: run Step2Background --scenario course -->` holds that command's text report.
/// - `<!-- workbook: table course Step1Naive Step2Background : key key … -->` holds a Markdown table of
///   those metrics on that scenario, a column per step (and the oracle where it applies).
/// - `<!-- workbook: translation : KEY … -->` holds step 4's and step 5's figures on every built-in
///   scenario (`Step5TranslationTests`).
/// - `<!-- workbook: step6-ablation -->` holds step 6's ablation table (`Step6Ablation`).
/// - `<!-- workbook: compare course -->` holds `Compare`'s table for every step on that scenario.
/// - `<!-- workbook: timeline Step1Naive course Pictures/x.svg -->` holds a link to that file, the step's
///   `--timeline` picture of that scenario, which is generated with the block.
/// - `<!-- workbook: screen Step1Naive course 2 Pictures/x.png -->` likewise, for the `--export` picture of
///   the screen at that stop (`end` for the last screen); options may follow the step, as in
///   `screen Step4CacheAndPrefetch --without cancel-on-reuse mix-up end Pictures/x.png`.
/// - `<!-- workbook: code Sources/Step5Concurrency/ImageLoader.swift | func image | return try await | 7 -->`
///   holds code cut from a source file: inside the declaration (found as `Course` finds it, skipping
///   comments and strings), the lines from the first one holding the text, as many as the number says
///   (`all`: to the declaration's closing brace), unindented, in a Swift fence.
/// - `<!-- workbook: diffstat Sources/Step3IdleOnly Sources/Step4CacheAndPrefetch -->` holds how many lines
///   change between two step folders, file by file, as `diff -ruN --minimal` counts them (`StepDiff`).
/// `WORKBOOK_RECORD=1 swift test --filter Walkthrough` rewrites every block from fresh runs.
enum WalkthroughBlocks {
    /// The path of `Walkthrough.md`, found from this source file.
    static var documentPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Walkthrough.md").path
    }

    /// The command that regenerates every block.
    static let recordCommand = "WORKBOOK_RECORD=1 swift test --filter Walkthrough"

    static let endMarker = "<!-- /workbook -->"

    /// One generated block: its marker, the line range of its body, and its body now.
    struct Block {
        let directive: String
        let bodyLines: Range<Int>
        let body: String
    }

    /// The blocks of a document.
    static func blocks(in lines: [String]) -> [Block] {
        var found: [Block] = []
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("<!-- workbook:"), line.hasSuffix("-->") else {
                index += 1
                continue
            }
            let directive = String(line.dropFirst("<!-- workbook:".count).dropLast(3)).trimmingCharacters(
                in: .whitespaces)
            var end = index + 1
            while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != endMarker { end += 1 }
            let body = lines[(index + 1)..<min(end, lines.count)].joined(separator: "\n")
            found.append(Block(directive: directive, bodyLines: (index + 1)..<end, body: body))
            index = end + 1
        }
        return found
    }

    /// The folder of `Walkthrough.md`, where the pictures' paths start.
    static var documentFolder: URL { URL(fileURLWithPath: documentPath).deletingLastPathComponent() }

    /// A block's body, and the picture files it links to, by path relative to the document.
    struct Generated {
        var body: String
        var files: [String: [UInt8]] = [:]
    }

    /// The body a directive should have, from fresh runs.
    static func generate(_ directive: String) throws -> String {
        try generateWithFiles(directive).body
    }

    /// The body a directive should have and the files it links to, from fresh runs.
    static func generateWithFiles(_ directive: String) throws -> Generated {
        let words = directive.split(separator: " ").map(String.init)
        guard let kind = words.first else { throw WorkbookError.badInput("empty walkthrough directive") }
        func step(_ name: String) throws -> Step {
            guard let step = Step(rawValue: name) else {
                throw WorkbookError.badInput("walkthrough: unknown step \(name) in “\(directive)”")
            }
            return step
        }
        switch kind {
        case "compare":
            guard words.count == 2 else {
                throw WorkbookError.badInput("walkthrough: expected “compare SCENARIO”")
            }
            let columns = try Step.allCases.map { step in
                let result = try SharedRuns.shared.result(step, words[1])
                return try ComparisonTable.column(fromJSON: Data(JSONReport.render(result).utf8))
            }
            var options = RunOptions()
            options.scenario = words[1]
            let plan = try ComparisonTable.column(
                fromJSON: Data(
                    JSONReport.render(
                        Workbook.run(step: "plan", options: options) { _ in ClairvoyantClient() }
                    ).utf8))
            return Generated(
                body: "```text\n$ swift build && swift run Compare --scenario \(words[1])\n"
                    + ComparisonTable.render(columns, plan: plan) + "```")
        case "timeline":
            guard words.count == 4 else {
                throw WorkbookError.badInput("walkthrough: expected “timeline STEP SCENARIO FILE.svg”")
            }
            let result = try SharedRuns.shared.result(try step(words[1]), words[2])
            return Generated(
                body: "![\(words[1]) on \(words[2]): the timeline `--timeline` draws](\(words[3]))",
                files: [words[3]: Array(TimelineSVG.render(result).utf8)])
        case "screen":
            guard words.count >= 5 else {
                throw WorkbookError.badInput(
                    "walkthrough: expected “screen STEP [OPTION…] SCENARIO STOP|end FILE.png”")
            }
            // The words between the step and the scenario are the step's options, as in `--without …`.
            let command = words[1..<(words.count - 3)].joined(separator: " ")
            _ = try step(words[1])
            let (scenarioWord, stopWord, fileWord) = (
                words[words.count - 3], words[words.count - 2], words.last!
            )
            let result = try AblationBlocks.result(command, scenario: scenarioWord)
            let files = PictureExport.files(for: result).filter { $0.name.hasPrefix("screen-") }
            let wanted: (name: String, png: [UInt8])?
            if stopWord == "end" {
                wanted = files.last
            } else if let stop = Int(stopWord), stop >= 1, stop <= result.stops.count {
                wanted = files[stop - 1]
            } else {
                wanted = nil
            }
            guard let wanted else {
                throw WorkbookError.badInput("walkthrough: no screen “\(stopWord)” in “\(directive)”")
            }
            return Generated(
                body:
                    "![\(command) on \(scenarioWord): the screen `--export` draws, \(wanted.name)](\(fileWord))",
                files: [fileWord: wanted.png])
        case "run":
            guard words.count >= 2, let step = Step(rawValue: words[1]) else {
                throw WorkbookError.badInput("walkthrough: unknown step in “\(directive)”")
            }
            let options = try OptionsParser.parse(Array(words.dropFirst(2)), techniques: step.info.techniques)
            let result = try Workbook.run(step: step.rawValue, options: options, makeApp: step.makeApp)
            let text = options.json ? JSONReport.render(result) : TextReport.render(result)
            return Generated(
                body: "```text\n$ swift run \(words.dropFirst().joined(separator: " "))\n" + text + "```")
        case "table":
            guard let colon = words.firstIndex(of: ":"), colon >= 3 else {
                throw WorkbookError.badInput(
                    "walkthrough: expected “table SCENARIO STEP… : KEY…” in “\(directive)”")
            }
            let scenario = words[1]
            let steps = try words[2..<colon].map { name in
                guard let step = Step(rawValue: name) else {
                    throw WorkbookError.badInput("walkthrough: unknown step \(name)")
                }
                return step
            }
            let keys = Array(words[(colon + 1)...])
            let results = try steps.map { try SharedRuns.shared.result($0, scenario) }
            return Generated(body: table(results: results, keys: keys))
        case "columns", "ablation":
            let rest = String(directive.dropFirst(kind.count))
            return Generated(
                body: try kind == "columns" ? AblationBlocks.columns(rest) : AblationBlocks.ablation(rest))
        case "translation":
            guard words.count >= 3, words[1] == ":" else {
                throw WorkbookError.badInput("walkthrough: expected “translation : KEY…” in “\(directive)”")
            }
            return Generated(body: try Step5TranslationTests.table(keys: Array(words.dropFirst(2))))
        case "step6-ablation":
            return Generated(body: try Step6Ablation.table())
        case "code":
            return Generated(body: try code(String(directive.dropFirst(kind.count))))
        case "diffstat":
            guard words.count == 3 else {
                throw WorkbookError.badInput(
                    "walkthrough: expected “diffstat FOLDER FOLDER” in “\(directive)”")
            }
            return Generated(body: try StepDiff.table(from: words[1], to: words[2], root: documentFolder))
        default:
            throw WorkbookError.badInput("walkthrough: unknown directive “\(kind)”")
        }
    }

    /// The Swift fence a `code` directive's words (`PATH | DECLARATION | TEXT | COUNT`) cut from the sources.
    static func code(_ words: String) throws -> String {
        let parts = words.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 4, let path = parts.first, !path.isEmpty else {
            throw WorkbookError.badInput(
                "walkthrough: expected “code PATH | DECLARATION | TEXT | COUNT”, got “\(words)”")
        }
        let (declaration, text, count) = (parts[1], parts[2], parts[3])
        let file = documentFolder.appendingPathComponent(path)
        let source = try String(contentsOf: file, encoding: .utf8)
        let bytes = Array(source.utf8)
        guard let braces = SwiftSource.braces(of: declaration, in: bytes) else {
            throw WorkbookError.badInput("walkthrough: no `\(declaration)` in \(path)")
        }
        // The declaration's own line: its last appearance before its brace.
        var named = 0
        while let next = SwiftSource.find(
            Array(declaration.utf8), in: bytes, from: named + 1, before: braces.open)
        {
            named = next
        }
        guard
            let found = SwiftSource.find(Array(text.utf8), in: bytes, from: named, before: braces.close + 1)
        else { throw WorkbookError.badInput("walkthrough: no “\(text)” in `\(declaration)` of \(path)") }
        let from = SwiftSource.startOfLine(at: found, in: bytes)
        var lines: [String]
        if count == "all" {
            lines = String(decoding: bytes[from...braces.close], as: UTF8.self).components(separatedBy: "\n")
        } else {
            guard let wanted = Int(count), wanted > 0 else {
                throw WorkbookError.badInput("walkthrough: “\(count)” is not a line count")
            }
            lines = Array(
                String(decoding: bytes[from...braces.close], as: UTF8.self).components(separatedBy: "\n")
                    .prefix(wanted))
        }
        let indent = lines.first.map { $0.prefix { $0 == " " }.count } ?? 0
        let unindented = lines.map { line in
            line.prefix(indent).allSatisfy { $0 == " " }
                ? String(line.dropFirst(min(indent, line.count))) : line
        }
        return "```swift\n" + unindented.joined(separator: "\n") + "\n```"
    }

    /// A Markdown table: a row per metric, a column per run, and the oracle where one applies.
    static func table(results: [RunResult], keys: [String], headers: [String]? = nil) -> String {
        var lines = [
            "| metric | " + (headers ?? results.map(\.step)).joined(separator: " | ") + " | oracle |"
        ]
        lines.append("|---|" + results.map { _ in "---:|" }.joined() + "---:|")
        for key in keys {
            let values = results.map { result in
                result.metrics.entries.first { $0.key == key }?.value.formatted ?? "?"
            }
            let oracle: String
            switch key {
            case "requests_started": oracle = String(results.first?.oracle.requests ?? 0)
            case "bytes_downloaded": oracle = String(results.first?.oracle.bytes ?? 0)
            default: oracle = ""
            }
            lines.append("| `\(key)` | " + values.joined(separator: " | ") + " | \(oracle) |")
        }
        return lines.joined(separator: "\n")
    }

    /// Every `swift run Step…` command in the text: in code spans (even wrapped over lines) and code blocks.
    static func stepCommands(in text: String) -> [String] {
        var commands: [String] = []
        var inFence = false
        var span: String?
        for line in text.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if inFence {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("swift run Step") { commands.append(trimmed) }
                continue
            }
            for character in line + " " {
                if character == "`" {
                    if let finished = span {
                        let collapsed = finished.split(whereSeparator: { $0 == " " }).joined(separator: " ")
                        if collapsed.hasPrefix("swift run Step") { commands.append(collapsed) }
                        span = nil
                    } else {
                        span = ""
                    }
                } else if span != nil {
                    span!.append(character)
                }
            }
        }
        return commands
    }
}
