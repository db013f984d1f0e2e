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
}
