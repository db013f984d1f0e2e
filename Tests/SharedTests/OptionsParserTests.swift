import Shared
import Testing

@testable import CLI

/// Command-line options.
extension InputTests {
    /// Parses arguments expected to fail and returns the error.
    func parseError(_ arguments: [String]) -> OptionsError? {
        do {
            _ = try OptionsParser.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    /// Every option with a value, the value given, and the options it should produce.
    static let valued: [(option: String, value: String, expected: RunOptions)] = {
        var scenario = RunOptions()
        scenario.scenario = "flaky"
        var seed = RunOptions()
        seed.seed = 18_446_744_073_709_551_615
        var trace = RunOptions()
        trace.tracePath = "out/trace.jsonl"
        var cache = RunOptions()
        cache.cacheDirectory = "/tmp/posters cache"
        var concurrency = RunOptions()
        concurrency.concurrency = 64
        var posters = RunOptions()
        posters.postersDirectory = "real-posters"
        var timeline = RunOptions()
        timeline.timelinePath = "timeline.txt"
        var export = RunOptions()
        export.exportDirectory = "exported"
        var color = RunOptions()
        color.color = .never
        return [
            ("--scenario", "flaky", scenario),
            ("--seed", "18446744073709551615", seed),
            ("--trace", "out/trace.jsonl", trace),
            ("--cache-dir", "/tmp/posters cache", cache),
            ("--concurrency", "64", concurrency),
            ("--posters", "real-posters", posters),
            ("--timeline", "timeline.txt", timeline),
            ("--export", "exported", export),
            ("--color", "never", color),
        ]
    }()

    @Test("No arguments give the defaults: the course scenario, text output, auto colour")
    func noArgumentsGiveDefaults() throws {
        let options = try OptionsParser.parse([])
        #expect(options.scenario == "course")
        #expect(options.seed == nil)
        #expect(!options.json && !options.screens && !options.help)
        #expect(options.color == .auto)
        #expect(
            options.tracePath == nil && options.cacheDirectory == nil && options.concurrency == nil)
        #expect(
            options.postersDirectory == nil && options.timelinePath == nil
                && options.exportDirectory == nil)
    }

    @Test("Every option with a value parses as “--opt value” and as “--opt=value”")
    func valuedOptionsParseBothSpellings() throws {
        for (option, value, expected) in Self.valued {
            #expect(try OptionsParser.parse([option, value]) == expected, "\(option) \(value)")
            #expect(try OptionsParser.parse(["\(option)=\(value)"]) == expected, "\(option)=\(value)")
        }
    }

    @Test("Flags parse, and -h means --help")
    func flagsParse() throws {
        var json = RunOptions()
        json.json = true
        #expect(try OptionsParser.parse(["--json"]) == json)
        var screens = RunOptions()
        screens.screens = true
        #expect(try OptionsParser.parse(["--screens"]) == screens)
        var help = RunOptions()
        help.help = true
        #expect(try OptionsParser.parse(["--help"]) == help)
        #expect(try OptionsParser.parse(["-h"]) == help)
    }

    @Test("Options combine in any order, and an equals sign inside a value is kept")
    func optionsCombineInAnyOrder() throws {
        let options = try OptionsParser.parse([
            "--json", "--seed=7", "--scenario", "my=file.scenario", "--color=always", "--screens",
        ])
        #expect(options.json && options.screens)
        #expect(options.seed == 7)
        #expect(options.scenario == "my=file.scenario")
        #expect(options.color == .always)
        #expect(try OptionsParser.parse(["--scenario=a=b"]).scenario == "a=b")
    }

    @Test("Every option in the table parses its own value: the table is the one place an option lives")
    func everyOptionParsesItsValue() throws {
        let names = OptionsParser.options.map(\.name)
        #expect(Set(names).count == names.count, "each option once")
        for option in OptionsParser.options {
            let arguments: [String]
            switch option.kind {
            case .none: arguments = [option.name]
            case .value: arguments = [option.name, Self.sample(for: option.name)]
            }
            let parsed = try OptionsParser.parse(arguments, techniques: ["prefetch"])
            #expect(parsed != RunOptions(), "\(option.name) stored nothing")
        }
    }

    @Test("The help text names every option and every built-in scenario")
    func helpNamesEveryOption() throws {
        let help = OptionsParser.helpText(program: "Step9Test", summary: "a test step")
        #expect(help.hasPrefix("Step9Test: a test step"))
        let documented = [
            "--scenario", "--seed", "--json", "--trace", "--cache-dir", "--concurrency", "--without",
            "--posters",
            "--timeline",
            "--screens", "--export", "--color", "--help", "-h",
        ]
        for option in documented {
            #expect(help.contains(option), "\(option)")
        }
        for name in ["course", "flaky", "long-fling", "mix-up", "reading", "relaunch", "slow-reuse"] {
            #expect(help.contains(name), "\(name)")
        }
        let optionLines = help.split(separator: "\n").filter { $0.hasPrefix("  --") }
        #expect(optionLines.count == documented.count - 1, "one line per option")
    }

    @Test("Unknown options are refused, suggesting a close one")
    func unknownOptionsRefused() {
        #expect(parseError(["--jsno"]) == .unknownOption("--jsno", suggestion: "--json"))
        #expect(
            parseError(["--cachedir", "x"]) == .unknownOption("--cachedir", suggestion: "--cache-dir")
        )
        #expect(parseError(["-json"]) == .unknownOption("-json", suggestion: "--json"))
        #expect(parseError(["--sed=4"]) == .unknownOption("--sed", suggestion: "--seed"))
        #expect(parseError(["--verbose"]) == .unknownOption("--verbose", suggestion: nil))
        let message = OptionsError.unknownOption("--jsno", suggestion: "--json").description
        #expect(message.contains("“--jsno”") && message.contains("did you mean “--json”"))
    }

    @Test("An option missing its value is refused, naming it")
    func missingValueRefused() {
        #expect(parseError(["--seed"]) == .missingValue(option: "--seed"))
        #expect(parseError(["--scenario", "--json"]) == .missingValue(option: "--scenario"))
        #expect(parseError(["--trace", "-h"]) == .missingValue(option: "--trace"))
        #expect(
            OptionsError.missingValue(option: "--seed").description.contains("“--seed” needs a value")
        )
    }

    @Test("Bad values are refused, naming the option, the value and what is expected")
    func badValuesRefused() {
        #expect(
            parseError(["--seed", "-5"])
                == .badValue(
                    option: "--seed", value: "-5",
                    expected: "a whole number from 0 to 18446744073709551615"))
        #expect(parseError(["--seed=18446744073709551616"]) != nil)
        #expect(parseError(["--seed=7.5"]) != nil)
        #expect(
            parseError(["--concurrency", "65"])
                == .badValue(
                    option: "--concurrency", value: "65", expected: "a whole number from 1 to 64"))
        #expect(parseError(["--concurrency=0"]) != nil)
        #expect(
            parseError(["--color", "blue"])
                == .badValue(option: "--color", value: "blue", expected: "auto, always or never"))
        #expect(
            parseError(["--trace="])
                == .badValue(option: "--trace", value: "", expected: "a file path"))
        #expect(
            parseError(["--json=yes"])
                == .badValue(option: "--json", value: "yes", expected: "no value (it is a flag)"))
        let message = OptionsError.badValue(
            option: "--color", value: "blue", expected: "auto, always or never"
        )
        .description
        #expect(
            message.contains("“blue”") && message.contains("“--color”")
                && message.contains("auto, always"))
    }

    @Test("An option given twice is refused, in either spelling")
    func repeatedOptionRefused() {
        #expect(parseError(["--seed", "1", "--seed=2"]) == .duplicateOption("--seed"))
        #expect(parseError(["--json", "--json"]) == .duplicateOption("--json"))
        #expect(parseError(["-h", "--help"]) == .duplicateOption("--help"))
    }

    @Test("A bare word is refused with a hint to use --scenario")
    func bareWordRefused() {
        #expect(parseError(["course"]) == .unexpectedArgument("course"))
        #expect(parseError(["--json", "extra"]) == .unexpectedArgument("extra"))
        #expect(OptionsError.unexpectedArgument("course").description.contains("--scenario course"))
    }

    @Test("A program that takes only some options (Compare) refuses the others and lists only its own")
    func compareRefusesOthersOptions() throws {
        let accepted: Set<String> = ["--scenario", "--seed", "--help"]
        var expected = RunOptions()
        expected.scenario = "flaky"
        expected.seed = 3
        #expect(
            try OptionsParser.parse(["--scenario=flaky", "--seed", "3"], accepting: accepted) == expected)
        #expect(throws: OptionsError.unknownOption("--json", suggestion: nil)) {
            try OptionsParser.parse(["--json"], accepting: accepted)
        }
        #expect(throws: OptionsError.unknownOption("--sed", suggestion: "--seed")) {
            try OptionsParser.parse(["--sed", "3"], accepting: accepted)
        }
        let help = OptionsParser.helpText(program: "Compare", summary: "compares", accepting: accepted)
        #expect(help.contains("--seed N") && help.contains("--scenario NAME|FILE"))
        #expect(!help.contains("--json") && !help.contains("--trace"))
        // Without `accepting`, every option is known.
        #expect(try OptionsParser.parse(["--json"]).json)
    }

    @Test("--without takes a comma-separated list of the step's techniques, in the step's order, each once")
    func withoutTakesAList() throws {
        let names = ["memory-cache", "prefetch"]
        let options = try OptionsParser.parse(
            ["--without", "prefetch,memory-cache,prefetch"], techniques: names)
        #expect(options.without == ["memory-cache", "prefetch"])
        #expect(throws: OptionsError.self) {
            try OptionsParser.parse(["--without", "prefetching"], techniques: names)
        }
        #expect(throws: OptionsError.self) {
            try OptionsParser.parse(["--without", ""], techniques: names)
        }
    }

    @Test("A step's --without takes only the techniques it has; a step with none refuses the option")
    func withoutTakesOnlyTheStepsTechniques() throws {
        let stepFive = ["decode-at-display-size", "disk-cache"]
        let options = try OptionsParser.parse(["--without", "disk-cache"], techniques: stepFive)
        #expect(options.without == ["disk-cache"])
        // A name another step has is refused with exit code 2's error, not ignored.
        #expect(throws: OptionsError.self) {
            try OptionsParser.parse(["--without", "prefetch"], techniques: stepFive)
        }
        #expect(throws: OptionsError.self) {
            try OptionsParser.parse(["--without", "prefetch"], techniques: [])
        }
        // The help lists the step's own names, and leaves the option out of a step that has none.
        let help = OptionsParser.helpText(program: "Step5", summary: "s", techniques: stepFive)
        let line = try #require(help.split(separator: "\n").first { $0.contains("--without") })
        #expect(line.hasSuffix("decode-at-display-size, disk-cache"))
        #expect(
            !OptionsParser.helpText(program: "Step1", summary: "s", techniques: []).contains(
                "--without"))
    }

    @Test("A --without word that is no technique is refused listing only the step's own techniques")
    func unknownTechniqueRefused() throws {
        let stepFive = ["decode-at-display-size", "disk-cache"]
        let error = #expect(throws: OptionsError.self) {
            try OptionsParser.parse(["--without", "disk-cach"], techniques: stepFive)
        }
        #expect(
            error
                == .badValue(
                    option: "--without", value: "disk-cach",
                    expected: "a comma-separated list of decode-at-display-size, disk-cache"))
        // Without a step's list (a library caller), no name is taken.
        let none = #expect(throws: OptionsError.self) {
            try OptionsParser.parse(["--without", "prefetch"])
        }
        #expect(none?.description.contains("no techniques") == true)
    }

    /// A value each valued option accepts.
    static func sample(for option: String) -> String {
        switch option {
        case "--seed", "--concurrency": return "3"
        case "--without": return "prefetch"
        case "--color": return "never"
        case "--scenario": return "flaky"
        default: return "some/path"
        }
    }
}
