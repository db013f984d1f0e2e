import Foundation
import Shared
import Testing

/// The course quotes only numbers that the current code produces.
@Suite("The walkthrough's quoted output")
struct WalkthroughTests {
    @Test("Every generated block of Walkthrough.md matches a fresh run")
    func blocksMatchFreshRuns() throws {
        let path = WalkthroughBlocks.documentPath
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        let blocks = WalkthroughBlocks.blocks(in: lines)
        #expect(blocks.count >= 4, "Walkthrough.md should quote its runs in generated blocks")
        let recording = ProcessInfo.processInfo.environment["WORKBOOK_RECORD"] == "1"
        // The blocks' runs are independent (and shared through the run caches), so they are made side by
        // side: this test is the suite's longest, and made one after another it ran alone at the end.
        let made = ResultsByIndex<WalkthroughBlocks.Generated>(count: blocks.count)
        DispatchQueue.concurrentPerform(iterations: blocks.count) { index in
            made.set(index, Result { try WalkthroughBlocks.generateWithFiles(blocks[index].directive) })
        }
        for (index, block) in blocks.enumerated().reversed() {
            let fresh = try made.get(index)
            if recording {
                lines.replaceSubrange(block.bodyLines, with: fresh.body.components(separatedBy: "\n"))
            } else {
                #expect(
                    block.body == fresh.body,
                    "Walkthrough.md is stale at “\(block.directive)”: run `\(WalkthroughBlocks.recordCommand)`"
                )
            }
            for (path, bytes) in fresh.files.sorted(by: { $0.key < $1.key }) {
                let url = WalkthroughBlocks.documentFolder.appendingPathComponent(path)
                if recording {
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(bytes).write(to: url)
                } else {
                    #expect(
                        (try? Data(contentsOf: url)) == Data(bytes),
                        "\(path) is stale or missing: run `\(WalkthroughBlocks.recordCommand)`")
                }
            }
        }
        if recording {
            try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    /// The names in the first column of the table under a heading: each backticked name, a name that
    /// starts with `_` completing the one before it (`time_to_visible_ms_p50` / `_p95`).
    static func firstColumnNames(under heading: String, in text: String) -> [String] {
        var names: [String] = []
        var inside = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("#") {
                inside = line == heading
                continue
            }
            guard inside, line.hasPrefix("| `") else { continue }
            let cell = line.dropFirst(2).prefix { $0 != "|" }
            for (index, piece) in cell.split(separator: "`").enumerated() where index % 2 == 0 {
                let name = String(piece)
                if name.hasPrefix("_"), let last = names.last, let cut = last.lastIndex(of: "_") {
                    names.append(String(last[..<cut]) + name)
                } else if !name.trimmingCharacters(in: .whitespaces).isEmpty {
                    names.append(name)
                }
            }
        }
        return names
    }

    @Test(
        "The walkthrough's metric and scenario tables list exactly the report's metrics and the built-ins, and its step commands parse"
    )
    func walkthroughTables() throws {
        // How to read a report explains exactly the metrics a report has.
        do {
            let text = try String(contentsOfFile: WalkthroughBlocks.documentPath, encoding: .utf8)
            let documented = Self.firstColumnNames(under: "## How to read a report", in: text)
            let result = try SharedRuns.shared.result(.naive, "course")
            #expect(documented.sorted() == result.metrics.entries.map(\.key).sorted())
        }
        // The walkthrough's scenario table lists exactly the built-in scenarios.
        do {
            let text = try String(contentsOfFile: WalkthroughBlocks.documentPath, encoding: .utf8)
            let documented = Self.firstColumnNames(under: "### The simulated phone", in: text)
            #expect(documented.sorted() == ScenarioParser.builtInNames)
        }
        // Every step command the walkthrough shows parses and names a real scenario.
        do {
            let text = try String(contentsOfFile: WalkthroughBlocks.documentPath, encoding: .utf8)
            var commands = 0
            for command in WalkthroughBlocks.stepCommands(in: text) {
                let words = command.split(separator: " ").map(String.init)
                guard words.count >= 3, let step = Step(rawValue: words[2]) else {
                    Issue.record("unknown step in “\(command)”")
                    continue
                }
                let options = try OptionsParser.parse(
                    Array(words.dropFirst(3)), techniques: step.info.techniques)
                // A scenario file the student writes in an exercise does not exist yet; built-ins must.
                if !options.scenario.hasSuffix(".scenario") {
                    _ = try ScenarioParser.load(options.scenario)
                }
                commands += 1
            }
            #expect(commands >= 12)
        }
    }

}

/// Results made on several threads, one slot each.
private final class ResultsByIndex<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<Value, any Error>?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ result: Result<Value, any Error>) {
        lock.withLock { slots[index] = result }
    }

    /// The value made for a slot, or the error its making threw.
    func get(_ index: Int) throws -> Value {
        guard let result = lock.withLock({ slots[index] }) else {
            throw WorkbookError.badInput("walkthrough: block \(index) was not made")
        }
        return try result.get()
    }
}
