import Catalog
import Files
import Foundation
import Pictures
import Posters
import Report
import Scenarios
import UI
import World

/// The command-line harness every step shares: options, scenario, the run, and the reports.
///
/// A step's `main.swift` is one call, the same in every step: `Workbook.main(StepInfo.self)`.
public enum Workbook {
    /// Runs the step `StepInfo` describes as a command, as `main(step:summary:techniques:makeApp:)` does.
    public static func main(_ step: any WorkbookStep.Type) -> Never {
        main(step: step.name, summary: step.summary, techniques: step.techniques, makeApp: step.makeApp)
    }

    /// The seed used when neither the scenario nor `--seed` gives one.
    package static let defaultSeed: UInt64 = 7

    /// Runs a step as a command: parses the arguments, plays the scenario, prints the report, and exits:
    /// 0 on success, also when the reader of the output went away; 1 when the report or an output file
    /// could not be written after the run (the report is still printed where it can go, and each failure
    /// gets one line); 2 for bad input, refused before the run. SIGINT, SIGTERM, SIGHUP, SIGUSR1 and
    /// SIGALRM remove the run's temporary files before the process ends.
    public static func main(
        step: String, summary: String, techniques: [String] = [],
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        makeApp: @escaping (RunOptions) -> TableViewController
    ) -> Never {
        StandardStreams.holdClosedStreams()
        ignoreBrokenPipes()
        TemporaryFiles.removeOnInterrupt()
        do {
            try CommandLineBytes.requireUTF8()
            let options = try OptionsParser.parse(arguments, techniques: techniques)
            if options.help {
                write(OptionsParser.helpText(program: step, summary: summary, techniques: techniques))
                exit(0)
            }
            let (result, outputs) = try prepareAndRun(
                step: step, options: options, keepTrace: false, makeApp: makeApp)
            let failures = writeOutputs(result, outputs: outputs, options: options)
            for line in result.notices + failures {
                _ = StandardStreams.writeAll(Array("\(step): \(visible(line))\n".utf8), to: 2)
            }
            exit(failures.isEmpty ? 0 : 1)
        } catch {
            fail("\(step): \(visible(message(for: error)))")
        }
    }

    /// One line for an error that ends a run: the workbook's own errors say what is wrong in their
    /// description; a file error from Foundation gives its short system reason.
    static func message(for error: any Error) -> String {
        switch error {
        case let error as OptionsError: return error.description
        case let error as ScenarioError: return error.description
        case let error as WorkbookError: return error.description
        default: return SystemError.reason(error)
        }
    }

    /// Plays a step on the scenario the options name, without printing anything. The output files the
    /// options name are checked (and left as they were).
    package static func run(
        step: String, options: RunOptions, keepTrace: Bool = false,
        makeApp: @escaping (RunOptions) -> TableViewController
    ) throws -> RunResult {
        let (result, outputs) = try prepareAndRun(
            step: step, options: options, keepTrace: keepTrace, makeApp: makeApp)
        outputs.trace?.discard()
        outputs.timeline?.discard()
        return result
    }

    /// Checks the inputs, opens the outputs (so a bad path costs no run), and plays the step.
    static func prepareAndRun(
        step: String, options: RunOptions, keepTrace: Bool,
        makeApp: @escaping (RunOptions) -> TableViewController
    ) throws -> (RunResult, Outputs) {
        let scenario = try ScenarioParser.load(options.scenario)
        let seed = options.seed ?? scenario.seed ?? defaultSeed
        let movies = try loadMovies(rows: scenario.rows)
        var phoneOptions = PhoneOptions()
        phoneOptions.keepsTrace = keepTrace || options.tracePath != nil || options.timelinePath != nil
        phoneOptions.keepsStopSnapshots = keepTrace || options.screens || options.exportDirectory != nil
        ProcessMemory.setUpAllocator()
        if let directory = options.cacheDirectory {
            let root = try writableDirectory(directory, option: "--cache-dir")
            // The disk's own folder inside, checked here so that a file in its way is named with the option.
            _ = try writableDirectory(root.appendingPathComponent("Caches").path, option: "--cache-dir")
            phoneOptions.diskRoot = root
            if let problem = PrivateFolder.keyProblem {
                // Said when the app first seals an entry: a step without a disk cache has nothing to trust.
                let line =
                    "\(step): warning: --cache-dir entries cannot be trusted across runs: \(problem); this "
                    + "run seals them with a key of its own, so a later run will not hit them"
                phoneOptions.onFirstSeal = { warn(line) }
            }
        } else {
            try checkTemporaryDirectory()
        }
        if let posters = options.postersDirectory {
            phoneOptions.postersDirectory = URL(fileURLWithPath: posters, isDirectory: true)
        }
        let outputs = try Outputs.open(options)
        let result = try Phone.run(
            step: step, scenario: scenario, seed: seed, movies: movies, options: phoneOptions
        ) {
            makeApp(options)
        }
        return (result, outputs)
    }

    /// Refuses a `TMPDIR` that is not an existing folder, where a fresh disk is made for the run: it is
    /// never created, so a mistyped one leaves nothing behind.
    static func checkTemporaryDirectory() throws(WorkbookError) {
        let path = FileManager.default.temporaryDirectory.path
        var status = stat()
        let source = ProcessInfo.processInfo.environment["TMPDIR"] != nil ? "TMPDIR" : "the temporary folder"
        let advice = "set TMPDIR to a folder, or give --cache-dir DIR"
        guard stat(path, &status) == 0 else {
            throw .badInput(
                "\(source) \(visible(path)): \(SystemError.words(errno)); the run's fresh disk goes "
                    + "there (\(advice))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            let kind = BoundedFile.nonFileKind(atPath: path) ?? "a file"
            throw .badInput(
                "\(source) \(visible(path)) is \(kind), not a folder; the run's fresh disk goes there "
                    + "(\(advice))")
        }
    }

    /// One line on standard error.
    static func warn(_ line: String) {
        _ = StandardStreams.writeAll(Array((visible(line) + "\n").utf8), to: 2)
    }

    static func loadMovies(rows: Int) throws -> [Movie] {
        do {
            return try MovieCatalog.bundled().rows(rows)
        } catch {
            throw WorkbookError.badInput("the catalog: \(error)")
        }
    }

    /// Writes the files the options ask for, then prints the report (even when a file failed), and
    /// returns one line for each output that could not be written.
    static func writeOutputs(_ result: RunResult, outputs: Outputs, options: RunOptions) -> [String] {
        var failures: [String] = []
        if let trace = outputs.trace {
            do throws(OutputFile.Failure) {
                try trace.commit(Array(TraceEvent.jsonLines(result.trace).utf8))
            } catch {
                failures.append(error.description)
            }
        }
        if let timeline = outputs.timeline {
            do throws(OutputFile.Failure) {
                try timeline.commit(Array(TimelineSVG.render(result).utf8))
            } catch {
                failures.append(error.description)
            }
        }
        if let directory = outputs.export {
            do throws(WorkbookError) {
                try PictureExport.write(result, to: directory)
            } catch {
                failures.append(error.description)
            }
        }
        write(options.json ? JSONReport.render(result) : TextReport.render(result))
        if options.screens {
            // With --json the screens go to standard error, so standard output stays one JSON object.
            let descriptor: Int32 = options.json ? 2 : 1
            let text = ScreenText.render(result, color: useColor(options.color, descriptor: descriptor))
            if options.json {
                StandardStreams.write(text, to: 2)
            } else {
                write("\n" + text)
            }
        }
        return failures
    }

    /// Whether to colour output going to a file descriptor: `always`, `never`, or (auto) when it is a terminal.
    static func useColor(_ mode: ColorMode, descriptor: Int32) -> Bool {
        switch mode {
        case .always: return true
        case .never: return false
        case .auto: return isatty(descriptor) == 1
        }
    }

    /// A directory that exists (or can be made) and can be written to.
    static func writableDirectory(_ path: String, option: String) throws(WorkbookError) -> URL {
        let url = URL(fileURLWithPath: path, isDirectory: true)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            let kind = BoundedFile.nonFileKind(atPath: path) ?? "a file"
            throw WorkbookError.badInput("\(option): \(path) is \(kind), not a folder")
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw WorkbookError.badInput(
                "\(option): cannot create the folder \(path) (\(SystemError.reason(error)))")
        }
        guard FileManager.default.isWritableFile(atPath: path) else {
            throw WorkbookError.badInput("\(option): the folder \(path) is not writable")
        }
        return url
    }

    /// Prints to standard output; a reader that went away (`| head`) ends the process quietly.
    static func write(_ text: String) {
        StandardStreams.write(text, to: 1)
    }

    static func fail(_ message: String) -> Never {
        _ = StandardStreams.writeAll(Array((message + "\n").utf8), to: 2)
        exit(2)
    }

    /// Text with its control characters escaped (`\r`, `\u{0}`), so a message stays one visible line
    /// whatever bytes a file or an argument held.
    package static func visible(_ text: String) -> String {
        VisibleText.escaped(text)
    }

    /// Writing to a closed pipe (`| head`) ends the process quietly instead of with a signal.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
