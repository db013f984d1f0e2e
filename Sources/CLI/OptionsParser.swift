import Scenarios

/// Reads the command-line options every step shares.
///
/// Options take their value as the next argument (`--seed 7`) or after an equals sign (`--seed=7`); flags
/// take none. Each option may be given once. `-h` is `--help`.
package enum OptionsParser {
    /// What an option expects after it.
    enum ValueKind: Equatable {
        /// A flag: no value.
        case none
        /// A value, shown in the help as this placeholder (for example `FILE`).
        case value(placeholder: String)
    }

    /// One option: its spelling, its value, its line of help, and how its value is checked and stored.
    struct Option: Sendable {
        /// The long spelling, with the dashes (`--seed`).
        let name: String
        /// Whether it takes a value.
        let kind: ValueKind
        /// One line of help.
        let help: String
        /// Checks the value (empty for a flag) and stores it; `techniques` are those the program takes.
        let store:
            @Sendable (_ value: String, _ techniques: [String], _ result: inout RunOptions)
                throws(OptionsError) -> Void
    }

    /// Every option, in the order the help lists them, each with its parser.
    static let options: [Option] = [
        Option(
            name: "--scenario", kind: .value(placeholder: "NAME|FILE"),
            help: "a built-in scenario or a scenario file (default: course)"
        ) { value, _, result throws(OptionsError) in
            result.scenario = try nonEmpty(
                value, option: "--scenario", expected: "a built-in scenario name or a file path")
        },
        Option(
            name: "--seed", kind: .value(placeholder: "N"),
            help: "seed for every random choice, overriding the scenario's (0…18446744073709551615)"
        ) { value, _, result throws(OptionsError) in
            result.seed = try parsed(
                value, option: "--seed", expected: "a whole number from 0 to \(UInt64.max)"
            ) { ScenarioValue.wholeNumber(Substring($0)) }
        },
        Option(name: "--json", kind: .none, help: "print one JSON object instead of the text report") {
            _, _, result in result.json = true
        },
        pathOption(
            "--trace", .file, help: "write every event as JSON Lines, in virtual-time order",
            into: \.tracePath),
        pathOption(
            "--cache-dir", .directory,
            help: "keep the disk cache here across runs (default: a fresh temporary directory)",
            into: \.cacheDirectory),
        Option(
            name: "--concurrency", kind: .value(placeholder: "N"),
            help: "override the step's download concurrency (1…64)"
        ) { value, _, result throws(OptionsError) in
            result.concurrency = try parsed(
                value, option: "--concurrency", expected: "a whole number from 1 to 64"
            ) { ScenarioValue.wholeInt(Substring($0)).flatMap { (1...64).contains($0) ? $0 : nil } }
        },
        Option(
            name: "--without", kind: .value(placeholder: "LIST"),
            help: "turn off some of the step's techniques, comma-separated (the step's --help lists them)"
        ) { value, techniques, result throws(OptionsError) in
            result.without = try without(value, accepting: techniques)
        },
        pathOption(
            "--posters", .directory, help: "serve the PNG files in DIR instead of generated posters",
            into: \.postersDirectory),
        pathOption(
            "--timeline", .file,
            help: "draw the whole run as an SVG picture (scrolling, threads, transfers, waits, hitches)",
            into: \.timelinePath),
        Option(
            name: "--screens", kind: .none,
            help: "print the visible rows at every scroll stop and at the end (to stderr with --json)"
        ) { _, _, result in result.screens = true },
        pathOption(
            "--export", .directory,
            help: "write PNGs of the screen at each stop and at the end, and of each poster, into DIR",
            into: \.exportDirectory),
        Option(
            name: "--color", kind: .value(placeholder: "WHEN"),
            help: "colour --screens thumbnails: auto (on a terminal), always or never (default: auto)"
        ) { value, _, result throws(OptionsError) in
            result.color = try parsed(value, option: "--color", expected: "auto, always or never") {
                ColorMode(rawValue: $0)
            }
        },
        Option(name: "--help", kind: .none, help: "print this help and exit (also -h)") { _, _, result in
            result.help = true
        },
    ]

    /// The help line of `--without`, listing the techniques it may name.
    private static func withoutHelp(listing techniques: [String]) -> String {
        "turn off some of the step's techniques, comma-separated: " + techniques.joined(separator: ", ")
    }

    /// Reads the arguments (without the program name) into options. `accepting` narrows the options to
    /// those names (with their dashes, `--seed`), for a program that takes only some of them (`Compare`);
    /// `techniques` are the only names `--without` may take (the running step's own; none by default).
    package static func parse(
        _ arguments: [String], accepting: Set<String>? = nil, techniques: [String] = []
    ) throws(OptionsError) -> RunOptions {
        let options =
            accepting.map { names in Self.options.filter { names.contains($0.name) } } ?? Self.options
        var result = RunOptions()
        var seen: Set<String> = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-"), argument != "-", argument != "--" else {
                throw .unexpectedArgument(argument)
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if name == "-h" { name = "--help" }
            guard let option = options.first(where: { $0.name == name }) else {
                let known = options.map(\.name) + ["-h"]
                throw .unknownOption(name, suggestion: EditDistance.closest(to: name, among: known))
            }
            guard seen.insert(option.name).inserted else {
                throw .duplicateOption(option.name)
            }
            let value: String
            switch option.kind {
            case .none:
                if let inlineValue {
                    throw .badValue(
                        option: option.name, value: inlineValue, expected: "no value (it is a flag)")
                }
                value = ""
            case .value:
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count, !looksLikeOption(arguments[index]) {
                    value = arguments[index]
                    index += 1
                } else {
                    throw .missingValue(option: option.name)
                }
            }
            try option.store(value, techniques, &result)
        }
        return result
    }

    /// The help: a usage line, one line per option (those named in `accepting`, or all), and the built-in
    /// scenarios. With `techniques`, `--without` lists those (and is left out when there are none).
    package static func helpText(
        program: String, summary: String, accepting: Set<String>? = nil, techniques: [String]? = nil
    ) -> String {
        var options =
            accepting.map { names in Self.options.filter { names.contains($0.name) } } ?? Self.options
        if let techniques {
            options = options.compactMap { option in
                guard option.name == "--without" else { return option }
                guard !techniques.isEmpty else { return nil }
                return Option(
                    name: option.name, kind: option.kind, help: withoutHelp(listing: techniques),
                    store: option.store)
            }
        }
        let labels = options.map { option -> String in
            switch option.kind {
            case .none: return option.name
            case .value(let placeholder): return "\(option.name) \(placeholder)"
            }
        }
        let width = labels.map(\.count).max() ?? 0
        var lines = [
            "\(program): \(summary)",
            "",
            "Usage: \(program) [options]",
            "",
            "Options (--name value or --name=value):",
        ]
        for (label, option) in zip(labels, options) {
            let padding = String(repeating: " ", count: width - label.count)
            lines.append("  \(label)\(padding)  \(option.help)")
        }
        lines.append("")
        lines.append("Built-in scenarios: \(ScenarioParser.builtInNames.joined(separator: ", "))")
        lines.append("")
        lines.append(contentsOf: cacheHelp)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Where the files kept between runs live, and how to clear them.
    static let cacheHelp = [
        "Generated posters are kept between runs in $XDG_CACHE_HOME/image-workbook, or",
        "~/.cache/image-workbook (a private folder, at most 128 MB; the least recently used go first).",
        "Remove that folder to clear it; set WORKBOOK_POSTER_CACHE=off to run without it.",
    ]

    /// Whether an argument is an option rather than a value (`--json`, `-h`), so it is not taken as one.
    private static func looksLikeOption(_ argument: String) -> Bool {
        argument.hasPrefix("--") || argument == "-h"
    }

    /// The techniques a `--without` list names, in the step's order and each once; a word the step does
    /// not list is refused with the list of those it takes.
    private static func without(_ value: String, accepting techniques: [String]) throws(OptionsError)
        -> [String]
    {
        var named: Set<String> = []
        for word in value.split(separator: ",", omittingEmptySubsequences: false) {
            guard techniques.contains(String(word)) else {
                throw .badValue(
                    option: "--without", value: String(word), expected: expectedTechniques(techniques))
            }
            named.insert(String(word))
        }
        return techniques.filter(named.contains)
    }

    /// What `--without` expects, for a program that takes these techniques.
    private static func expectedTechniques(_ techniques: [String]) -> String {
        techniques.isEmpty
            ? "nothing: this step has no techniques to turn off (steps 4 to 6 have)"
            : "a comma-separated list of " + techniques.joined(separator: ", ")
    }

    /// What a path option names: a file or a folder.
    private enum PathKind {
        case file, directory
    }

    /// An option whose value is a path (any but the empty one), stored at `field`.
    private static func pathOption(
        _ name: String, _ kind: PathKind, help: String,
        into field: any WritableKeyPath<RunOptions, String?> & Sendable
    ) -> Option {
        let (placeholder, expected) = kind == .file ? ("FILE", "a file path") : ("DIR", "a directory path")
        return Option(name: name, kind: .value(placeholder: placeholder), help: help) {
            value, _, result throws(OptionsError) in
            result[keyPath: field] = try nonEmpty(value, option: name, expected: expected)
        }
    }

    /// The value, unless it is empty.
    private static func nonEmpty(_ value: String, option: String, expected: String) throws(OptionsError)
        -> String
    {
        try parsed(value, option: option, expected: expected) { $0.isEmpty ? nil : $0 }
    }

    /// An option's value as `parse` reads it, refused as not what was `expected` when `parse` gives nil.
    private static func parsed<Value>(
        _ value: String, option: String, expected: String, by parse: (String) -> Value?
    ) throws(OptionsError) -> Value {
        guard let parsed = parse(value) else {
            throw .badValue(option: option, value: value, expected: expected)
        }
        return parsed
    }
}
