import Foundation
import Shared
import TestSupport
import Testing

@testable import Imaging
@testable import Scenarios

/// The scenario parser refusing what it must: each kind of mistake on its line, missing and unreadable
/// files, and mutated text that must never trap.
extension InputTests {
    /// A mistake, the line it is on, and words the message must contain.
    struct Mistake: CustomStringConvertible {
        let text: String
        let line: Int?
        let mentions: [String]
        var description: String { text.replacingOccurrences(of: "\n", with: " ⏎ ") }
    }

    static let mistakes: [Mistake] = [
        Mistake(text: "wait 1s\njump to row 3", line: 2, mentions: ["unknown action or setting “jump”"]),
        Mistake(text: "Wait 1s", line: 1, mentions: ["“Wait”", "did you mean “wait”"]),
        Mistake(text: "flign to row 3", line: 1, mentions: ["did you mean “fling”"]),
        Mistake(
            text: "network latency=3ms\nwait 1s", line: 1,
            mentions: ["unknown network key “latency”", "rtt, jitter, bandwidth, connections, timeout"]),
        Mistake(text: "screen width=3\nwait 1s", line: 1, mentions: ["unknown screen key “width”"]),
        Mistake(text: "faults timeuot=1%\nwait 1s", line: 1, mentions: ["did you mean “timeout”"]),
        Mistake(text: "network rtt=1ms rtt=2ms\nwait 1s", line: 1, mentions: ["“rtt” is given twice"]),
        Mistake(text: "network rtt\nwait 1s", line: 1, mentions: ["expected “key=value”", "found “rtt”"]),
        Mistake(text: "network rtt=\nwait 1s", line: 1, mentions: ["missing value for “rtt”", "duration"]),
        Mistake(
            text: "network\nwait 1s", line: 1, mentions: ["expected network settings", "found end of line"]),
        Mistake(text: "network rtt=120\nwait 1s", line: 1, mentions: ["expected a duration", "found “120”"]),
        Mistake(text: "network bandwidth=1000kb/s\nwait 1s", line: 1, mentions: ["expected a bandwidth"]),
        Mistake(text: "network bandwidth=0KB/s\nwait 1s", line: 1, mentions: ["at least 1B/s"]),
        Mistake(text: "network connections=0\nwait 1s", line: 1, mentions: ["from 1 to 64", "found “0”"]),
        Mistake(text: "network timeout=0s\nwait 1s", line: 1, mentions: ["longer than zero"]),
        Mistake(text: "screen refresh=90\nwait 1s", line: 1, mentions: ["60 or 120"]),
        Mistake(text: "screen height=200 row=300\nwait 1s", line: 1, mentions: ["taller than the screen"]),
        Mistake(
            text: "faults corrupt=0.25%\nwait 1s", line: 1, mentions: ["at most one decimal", "“0.25%”"]),
        Mistake(text: "faults corrupt=2\nwait 1s", line: 1, mentions: ["expected a percentage"]),
        Mistake(text: "faults corrupt=60% truncated=50%\nwait 1s", line: 1, mentions: ["at most 100%"]),
        Mistake(
            text: "slow-host\nwait 1s", line: 1, mentions: ["expected a host name", "found end of line"]),
        Mistake(
            text: "slow-host factor=8\nwait 1s", line: 1, mentions: ["expected a host name", "“factor=8”"]),
        Mistake(text: "slow-host img1.posters.test\nwait 1s", line: 1, mentions: ["expected “factor=<n>”"]),
        Mistake(text: "slow-host img1.posters.test factor=0\nwait 1s", line: 1, mentions: ["from 1 to 1000"]),
        Mistake(text: "disk\nwait 1s", line: 1, mentions: ["expected “full-after=<writes>”"]),
        Mistake(
            text: "wait 1s\ndisk full-after=-1", line: 2, mentions: ["must come before the first action"]),
        Mistake(text: "disk full-after=-1\nwait 1s", line: 1, mentions: ["full-after", "“-1”"]),
        Mistake(text: "disk full-after=1000001\nwait 1s", line: 1, mentions: ["full-after", "1000000"]),
        Mistake(text: "disk full-after=2 size=9\nwait 1s", line: 1, mentions: ["size"]),
        Mistake(
            text: "rows 0\nwait 1s", line: 1, mentions: ["expected a row count from 1 to 100000", "“0”"]),
        Mistake(text: "rows 100001\nwait 1s", line: 1, mentions: ["from 1 to 100000", "“100001”"]),
        Mistake(
            text: "screen height=1000 row=10\nwait 1s", line: 1,
            mentions: ["shows up to 101 rows at once", "at most 100"]),
        Mistake(
            text: "rows 20\nwait 3600s\n\nwait 1ms", line: 4,
            mentions: ["reaches 3600.001s of virtual time here", "at most 3600s"]),
        Mistake(
            text: "wait 3599s\nfling to row 150\nwait 1s", line: 2,
            mentions: ["of virtual time here", "at most 3600s (one hour)"]),
        Mistake(text: "rows -5\nwait 1s", line: 1, mentions: ["expected a row count", "“-5”"]),
        Mistake(text: "rows 1000001\nwait 1s", line: 1, mentions: ["expected a row count"]),
        Mistake(text: "rows\nwait 1s", line: 1, mentions: ["after “rows”, found end of line"]),
        Mistake(text: "rows 200 300\nwait 1s", line: 1, mentions: ["expected end of line after “rows 200”"]),
        Mistake(text: "seed 18446744073709551616\nwait 1s", line: 1, mentions: ["expected a seed"]),
        Mistake(text: "seed 0x10\nwait 1s", line: 1, mentions: ["expected a seed", "“0x10”"]),
        Mistake(text: "rows 10\nrows 20\nwait 1s", line: 2, mentions: ["already set on line 1"]),
        Mistake(
            text: "wait 1s\nrows 20", line: 2, mentions: ["must come before the first action", "line 1"]),
        Mistake(text: "# start\n\nwait 0s", line: 3, mentions: ["longer than zero", "“0s”"]),
        Mistake(text: "wait -1s", line: 1, mentions: ["expected a duration", "“-1s”"]),
        Mistake(
            text: "wait 2", line: 1, mentions: ["expected a duration like 2s", "after “wait”", "found “2”"]),
        Mistake(text: "wait 1.5us", line: 1, mentions: ["expected a duration"]),
        Mistake(text: "wait 1.s", line: 1, mentions: ["expected a duration"]),
        Mistake(text: "wait 99999999999999999999s", line: 1, mentions: ["expected a duration"]),
        Mistake(text: "wait 3601s", line: 1, mentions: ["at most 3600s"]),
        Mistake(text: "wait", line: 1, mentions: ["expected a duration", "found end of line"]),
        Mistake(
            text: "wait 1s now", line: 1, mentions: ["expected end of line after “wait 1s”, found “now”"]),
        Mistake(
            text: "wait 1s\ndrag to row 6 in 1s", line: 2,
            mentions: ["expected “over <duration>” after “drag to row 6”, found “in 1s”"]),
        Mistake(text: "drag row 6 over 1s", line: 1, mentions: ["expected “to row <row>” after “drag”"]),
        Mistake(
            text: "fling to 6", line: 1, mentions: ["expected “row <row>” after “fling to”", "found “6”"]),
        Mistake(text: "fling to row", line: 1, mentions: ["expected a row number", "found end of line"]),
        Mistake(text: "fling to row six", line: 1, mentions: ["expected a row number", "found “six”"]),
        Mistake(text: "fling to row 3 fast", line: 1, mentions: ["expected end of line", "found “fast”"]),
        Mistake(text: "drag to row 3 over", line: 1, mentions: ["expected a duration", "found end of line"]),
        Mistake(text: "drag to row 3 over 0ms", line: 1, mentions: ["a drag must last longer than zero"]),
        Mistake(text: "memory-warning now", line: 1, mentions: ["after “memory-warning”", "found “now”"]),
        Mistake(text: "relaunch 2", line: 1, mentions: ["after “relaunch”", "found “2”"]),
        Mistake(
            text: "rows 50\nwait 1s\nfling to row 49\n\ndrag to row 50 over 1s", line: 5,
            mentions: ["row 50 is past the last row", "50 rows", "“rows 50” on line 1"]),
        Mistake(text: "fling to row 200", line: 1, mentions: ["row 200 is past the last row", "default"]),
        Mistake(text: "", line: nil, mentions: ["the file is empty"]),
        Mistake(text: "  \n\t\n", line: nil, mentions: ["the file is empty"]),
        Mistake(
            text: "# only a comment\nrows 10\n", line: nil, mentions: ["no actions", "wait, drag, fling"]),
    ]

    @Test("Each kind of mistake is refused on the right line, saying what was expected")
    func mistakesRefusedOnTheirLine() throws {
        // One sweep, not a test case each: parsing a line takes microseconds, and a case each printed a line
        // per mistake in every passing `swift test`. A failure names the mistake.
        for mistake in Self.mistakes {
            let error = try #require(parseError(mistake.text), "\(mistake)")
            #expect(error.source == "test.scenario", "\(mistake)")
            #expect(error.line == mistake.line, "\(mistake)")
            for words in mistake.mentions {
                #expect(error.message.contains(words), "\(mistake): \(error.message)")
            }
            let prefix = mistake.line.map { "test.scenario:\($0): " } ?? "test.scenario: "
            #expect(error.description == prefix + error.message, "\(mistake)")
        }
        #expect(!Self.mistakes.isEmpty)
    }

    @Test("The error reads like a compiler diagnostic")
    func errorReadsLikeADiagnostic() {
        let error = parseError("wait 1s\n\ndrag to row 6 in 1s")
        #expect(
            error?.description
                == "test.scenario:3: expected “over <duration>” after “drag to row 6”, found “in 1s”")
    }

    @Test("Loading a scenario file by path names it after the file")
    func loadedFileNamedAfterItself() throws {
        let path = StepFixtures.path("scenario", suffix: ".scenario").path
        try Data("rows 30\nwait 1s\nfling to row 29\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let scenario = try ScenarioParser.load(path)
        #expect(scenario.source == path)
        #expect(scenario.name == URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
        #expect(scenario.actions == [.wait(microseconds: 1_000_000), .fling(toRow: 29)])
    }

    @Test("A missing scenario file or unknown name is refused, listing the built-ins")
    func missingScenarioListsBuiltIns() {
        let unknown = loadError("corse")
        #expect(unknown?.source == "corse")
        #expect(unknown?.line == nil)
        #expect(unknown?.message.contains("no built-in scenario") == true)
        let names = "course, flaky, long-fling, mix-up, reading, relaunch, slow-reuse"
        #expect(unknown?.message.contains(names) == true)
        let path = StepFixtures.path("scenario", suffix: ".scenario").path
        let missing = loadError(path)
        #expect(missing?.source == path)
        #expect(missing?.message.contains("no such file") == true)
        #expect(missing?.message.contains("course") == true)
        #expect(loadError("")?.message.contains("no scenario given") == true)
    }

    @Test("A directory where a scenario file belongs is refused")
    func directoryRefusedAsScenario() throws {
        let path = StepFixtures.path("scenario").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = loadError(path)
        #expect(error?.source == path)
        #expect(error?.message.contains("is a directory") == true)
    }

    @Test("Bytes that are not UTF-8 are refused, naming the file and the line")
    func nonUTF8ScenarioRefused() throws {
        let path = StepFixtures.path("scenario", suffix: ".scenario").path
        var bytes = Array("rows 10\nwait 1s\n".utf8)
        bytes += [0x77, 0x61, 0x69, 0x74, 0x20, 0xFF, 0xFE, 0x0A]
        bytes += Array("wait 1s\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = loadError(path)
        #expect(error?.source == path)
        #expect(error?.line == 3)
        #expect(error?.message.contains("not UTF-8") == true)
    }

    @Test("An empty file on disk is refused")
    func emptyScenarioFileRefused() throws {
        let path = StepFixtures.path("scenario", suffix: ".scenario").path
        try Data().write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(loadError(path)?.message.contains("the file is empty") == true)
    }

    @Test("Thousands of randomly mutated scenarios never trap: each parses or throws ScenarioError")
    func mutatedScenariosNeverTrap() throws {
        var seeds = [Self.grammarExample]
        for name in ScenarioParser.builtInNames {
            let url = try #require(ScenarioParser.builtInFolder?.appendingPathComponent("\(name).scenario"))
            seeds.append(try String(contentsOf: url, encoding: .utf8))
        }
        let pieces = [
            " ", "\n", "\t", "#", "=", "%", ".", "-", "0", "9", "s", "ms", "us", "KB/s", "MB/s", "B/s",
            "row", "to", "over", "wait", "drag", "fling", "rows", "seed", "network", "faults", "screen",
            "slow-host", "factor=", "rtt=", "99999999999999999999", "18446744073709551615", "-1", "0.0",
            "1.", ".5", "é", "🎬", "\u{FEFF}", "\r", "relaunch", "memory-warning", "1000000", "999999",
        ]
        var random = SeededGenerator(seed: 0x5EED_2015)
        var parsed = 0
        var refused = 0
        for round in 0..<3000 {
            var characters = Array(seeds[round % seeds.count])
            for _ in 0...random.below(6) {
                let position = random.below(characters.count + 1)
                switch random.below(4) {
                case 0 where position < characters.count:
                    characters.remove(at: position)
                case 1:
                    characters.insert(contentsOf: pieces[random.below(pieces.count)], at: position)
                case 2 where position < characters.count:
                    characters[position] = Array(pieces[random.below(pieces.count)]).first ?? " "
                default:
                    let end = min(characters.count, position + random.below(40))
                    characters.removeSubrange(position..<end)
                }
            }
            do {
                _ = try ScenarioParser.parse(String(characters), name: "fuzz", source: "fuzz.scenario")
                parsed += 1
            } catch {
                #expect(error.source == "fuzz.scenario")
                #expect(!error.message.isEmpty)
                refused += 1
            }
        }
        #expect(parsed > 0, "some mutations stay valid")
        #expect(refused > 0, "some mutations are refused")
    }
}
