import Foundation
import Shared
import TestSupport
import Testing

@testable import Imaging
@testable import Scenarios

/// Scenario parser.
extension InputTests {
    /// The grammar example of the brief, every setting and every action once.
    static let grammarExample = """
        rows 200                      # 1...1_000_000
        seed 7                        # UInt64
        network rtt=120ms jitter=30ms bandwidth=1000KB/s connections=6 timeout=10s   # any subset
        screen height=667 row=88 refresh=60     # refresh 60 or 120
        faults timeout=2% refused=1% server-error=1% truncated=2% corrupt=2%
        slow-host img3.posters.test factor=8
        wait 2s                       # durations: 2s, 1.5s, 250ms, 500us; must be > 0
        drag to row 6 over 1s
        fling to row 80
        memory-warning
        relaunch
        """

    /// Parses text expected to fail and returns the error.
    func parseError(_ text: String) -> ScenarioError? {
        do {
            _ = try ScenarioParser.parse(text, name: "test", source: "test.scenario")
            return nil
        } catch {
            return error
        }
    }

    /// Loads a name or path expected to fail and returns the error.
    func loadError(_ nameOrPath: String) -> ScenarioError? {
        do {
            _ = try ScenarioParser.load(nameOrPath)
            return nil
        } catch {
            return error
        }
    }

    @Test("The built-in names are the seven documented scenarios, sorted")
    func builtInNamesAreTheSeven() throws {
        #expect(
            ScenarioParser.builtInNames == [
                "course", "flaky", "long-fling", "mix-up", "reading", "relaunch", "slow-reuse",
            ])
    }

    @Test("Every built-in parses, has actions and fits in about 90 s of virtual time")
    func everyBuiltInParsesAndFits() throws {
        for name in ScenarioParser.builtInNames {
            let scenario = try ScenarioParser.load(name)
            #expect(scenario.name == name)
            #expect(scenario.source == "\(name).scenario")
            #expect(!scenario.actions.isEmpty)
            // Generous estimate: a fling (drag plus deceleration) counts as 4 s.
            var microseconds: Int64 = 0
            for action in scenario.actions {
                switch action {
                case .wait(let duration): microseconds += duration
                case .drag(_, let duration): microseconds += duration
                case .dragThrough(_, let duration): microseconds += duration
                case .fling: microseconds += 4_000_000
                case .memoryWarning, .relaunch: break
                }
            }
            #expect(microseconds <= 90_000_000, "\(name) runs \(microseconds) us")
            if name == "course" { #expect(microseconds < 60_000_000) }
        }
    }

    @Test(
        "The course tells the whole story: look, slow drag, fling down, fling back, memory, relaunch, reading"
    )
    func courseTellsTheWholeStory() throws {
        let course = try ScenarioParser.load("course")
        #expect(course.seed == 7)
        #expect(course.rows == 200)
        let actions = course.actions
        guard case .wait = actions.first else {
            Issue.record("course starts by looking")
            return
        }
        let flings = actions.compactMap { action -> Int? in
            if case .fling(let row) = action { return row }
            return nil
        }
        #expect(flings == [80, 0])
        let memory = try #require(actions.firstIndex(of: .memoryWarning))
        let relaunch = try #require(actions.firstIndex(of: .relaunch))
        #expect(memory < relaunch)
        let readingDrags = actions[relaunch...].filter {
            if case .drag(_, let duration) = $0 { return duration == 800_000 }
            return false
        }
        #expect(readingDrags.count >= 5)
    }

    @Test("The flaky and slow-reuse built-ins set the slow networks they promise")
    func slowNetworksAsPromised() throws {
        let flaky = try ScenarioParser.load("flaky")
        #expect(flaky.network.bandwidthBytesPerSecond == 300_000)
        #expect(flaky.network.rttMicroseconds == 400_000)
        #expect(flaky.network.jitterMicroseconds == 200_000)
        #expect(flaky.faults.truncatedPerMille > 0 && flaky.faults.corruptPerMille > 0)
        #expect(flaky.faults.timeoutPerMille > 0 && flaky.faults.refusedPerMille > 0)
        #expect(flaky.faults.serverErrorPerMille > 0)
        #expect(flaky.faults.slowHost != nil)
        let slowReuse = try ScenarioParser.load("slow-reuse")
        #expect(slowReuse.network.bandwidthBytesPerSecond == 150_000)
        #expect(slowReuse.network.rttMicroseconds == 800_000)
        let longFling = try ScenarioParser.load("long-fling")
        #expect(longFling.rows == 1000)
        let relaunch = try ScenarioParser.load("relaunch")
        #expect(relaunch.actions.filter { $0 == .relaunch }.count == 2)
    }

    @Test("The grammar example parses into exactly the values it spells")
    func grammarExampleParses() throws {
        let scenario = try ScenarioParser.parse(
            Self.grammarExample, name: "example", source: "example.scenario")
        var expected = Scenario(name: "example", source: "example.scenario")
        expected.rows = 200
        expected.seed = 7
        expected.network.rttMicroseconds = 120_000
        expected.network.jitterMicroseconds = 30_000
        expected.network.bandwidthBytesPerSecond = 1_000_000
        expected.network.connectionsPerHost = 6
        expected.network.timeoutMicroseconds = 10_000_000
        expected.screen.height = 667
        expected.screen.rowHeight = 88
        expected.screen.refreshRate = 60
        expected.faults.timeoutPerMille = 20
        expected.faults.refusedPerMille = 10
        expected.faults.serverErrorPerMille = 10
        expected.faults.truncatedPerMille = 20
        expected.faults.corruptPerMille = 20
        expected.faults.slowHost = SlowHost(host: "img3.posters.test", factor: 8)
        expected.actions = [
            .wait(microseconds: 2_000_000),
            .drag(toRow: 6, microseconds: 1_000_000),
            .fling(toRow: 80),
            .memoryWarning,
            .relaunch,
        ]
        #expect(scenario == expected)
    }

    @Test("Values take every documented unit and spelling")
    func valuesTakeEveryUnit() throws {
        let text = """
            network bandwidth=1.5MB/s rtt=0ms jitter=250us
            screen refresh=120
            faults corrupt=0.5%
            wait 1.5s
            wait 250ms
            wait 500us
            wait 0.000001s
            \tdrag\tto row 3 over 0.8s\r
            """
        let scenario = try ScenarioParser.parse(text, name: "units", source: "units.scenario")
        #expect(scenario.network.bandwidthBytesPerSecond == 1_500_000)
        #expect(scenario.network.rttMicroseconds == 0)
        #expect(scenario.network.jitterMicroseconds == 250)
        #expect(scenario.network.connectionsPerHost == 6, "keys not given keep their defaults")
        #expect(scenario.screen.refreshRate == 120)
        #expect(scenario.screen.height == 667)
        #expect(scenario.faults.corruptPerMille == 5)
        #expect(
            scenario.actions == [
                .wait(microseconds: 1_500_000), .wait(microseconds: 250_000), .wait(microseconds: 500),
                .wait(microseconds: 1), .drag(toRow: 3, microseconds: 800_000),
            ])
        let bytes = try ScenarioParser.parse("network bandwidth=800B/s\nwait 1s", name: "b", source: "b")
        #expect(bytes.network.bandwidthBytesPerSecond == 800)
        let kilobytes = try ScenarioParser.parse(
            "network bandwidth=2.5KB/s\nwait 1s", name: "k", source: "k")
        #expect(kilobytes.network.bandwidthBytesPerSecond == 2_500)
    }

    @Test("A disk line sets the writes it accepts before it is full; without one the disk never fills")
    func diskLineSetsWrites() throws {
        let full = try ScenarioParser.parse("disk full-after=0\nwait 1s", name: "t", source: "t")
        #expect(full.diskFullAfterWrites == 0)
        let some = try ScenarioParser.parse("disk full-after=12\nwait 1s", name: "t", source: "t")
        #expect(some.diskFullAfterWrites == 12)
        let none = try ScenarioParser.parse("wait 1s", name: "t", source: "t")
        #expect(none.diskFullAfterWrites == nil)
    }

    @Test("The caps let a script at each limit through")
    func capsLetScriptsAtEachLimit() throws {
        let screen = try ScenarioParser.parse("screen height=990 row=10\nwait 1s", name: "t", source: "t")
        #expect(screen.screen.rowHeight == 10)
        let long = try ScenarioParser.parse("rows 100000\nwait 3599s\nwait 1s", name: "t", source: "t")
        #expect(long.rows == 100_000)
        let many = String(repeating: "wait 1ms\n", count: ScenarioReader.maximumActions)
        #expect(try ScenarioParser.parse(many, name: "t", source: "t").actions.count == 2000)
        let error = parseError("# one more\n" + many + "relaunch\n")
        #expect(error?.line == 2002)
        #expect(error?.message.contains("action 2001; a scenario may hold at most 2000 actions") == true)
    }

    @Test("CRLF line ends and a byte-order mark are read like LF, and errors name the right line")
    func crlfReadLikeLF() throws {
        let text = "\u{FEFF}rows 10\r\nscreen height=667 row=88\r\n\r\nwait 1s\r\nfling to row 5\r\n"
        let scenario = try ScenarioParser.parse(text, name: "crlf", source: "crlf")
        #expect(scenario.rows == 10)
        #expect(scenario.actions == [.wait(microseconds: 1_000_000), .fling(toRow: 5)])
        #expect(
            scenario
                == (try ScenarioParser.parse(
                    text.replacingOccurrences(of: "\r\n", with: "\n"), name: "crlf", source: "crlf")))
        let error = parseError("wait 1s\r\nwait 1x\r\nwait 1s\r\n")
        #expect(error?.line == 2)
        #expect(error?.message.contains("\r") == false, "\(String(describing: error))")
        #expect(error?.message.contains("\n") == false)
    }

    @Test("A byte-order mark at the start is ignored")
    func byteOrderMarkIgnored() throws {
        let scenario = try ScenarioParser.parse("\u{FEFF}wait 1s", name: "bom", source: "bom")
        #expect(scenario.actions == [.wait(microseconds: 1_000_000)])
    }

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

/// Scenario drags that change direction.
extension InputTests {
    @Test("A drag through several rows parses into one gesture with its legs in order")
    func dragThroughParsesOneGesture() throws {
        let scenario = try ScenarioParser.parse(
            "rows 50\ndrag to row 14 then row 3 then row 9 over 3s\n", name: "scrub",
            source: "scrub.scenario"
        )
        #expect(scenario.actions == [.dragThrough(rows: [14, 3, 9], microseconds: 3_000_000)])
    }

    @Test("A drag through rows names the line when a leg is missing its row or its duration")
    func dragThroughNamesTheLine() throws {
        for text in ["rows 50\ndrag to row 14 then 3 over 3s\n", "rows 50\ndrag to row 14 then row 3\n"] {
            #expect(throws: ScenarioError.self) {
                try ScenarioParser.parse(text, name: "scrub", source: "scrub.scenario")
            }
            let error = try? ScenarioParser.parse(text, name: "scrub", source: "scrub.scenario")
            #expect(error == nil)
        }
    }

    @Test("The finger passes through every leg of the path at equal time steps")
    func fingerPassesEveryLeg() throws {
        let timeline = GestureTimeline(
            actions: [.dragThrough(rows: [10, 2], microseconds: 2_000_000)], rows: 100, rowHeight: 100,
            viewport: 500)
        let gesture = timeline.gestures[0]
        #expect(gesture.offset(at: 0) == 0)
        #expect(gesture.offset(at: 500_000) == 500)
        #expect(gesture.offset(at: 1_000_000) == 1000)
        #expect(gesture.offset(at: 1_500_000) == 600)
        #expect(gesture.offset(at: 2_000_000) == 200)
        #expect(timeline.restOffsets == [0, 200])
    }

}
