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
/// A step's `main.swift` is one call: `Workbook.main(step:summary:makeApp:)`.
public enum Workbook {
    /// The seed used when neither the scenario nor `--seed` gives one.
    package static let defaultSeed: UInt64 = 7

    /// Runs a step as a command: parses the arguments, plays the scenario, prints the report, and exits
    /// (0 on success, also when the reader of the output went away; 1 when the report cannot be written;
    /// 2 for bad input). SIGINT and SIGTERM remove the run's temporary files before the process ends.
    public static func main(
        step: String, summary: String, techniques: [Technique] = [],
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        makeApp: @escaping (RunOptions) -> TableViewController
    ) -> Never {
        ignoreBrokenPipes()
        TemporaryFiles.removeOnInterrupt()
        do {
            let options = try OptionsParser.parse(arguments, techniques: techniques)
            if options.help {
                write(OptionsParser.helpText(program: step, summary: summary, techniques: techniques))
                exit(0)
            }
            let result = try run(step: step, options: options, makeApp: makeApp)
            try writeOutputs(result, options: options)
            exit(0)
        } catch {
            let hint = error is OptionsError ? "\nTry '\(step) --help' for the options." : ""
            fail("\(step): \(visible(message(for: error)))\(hint)")
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

    /// Plays a step on the scenario the options name, without printing anything.
    package static func run(
        step: String, options: RunOptions, keepTrace: Bool = false,
        makeApp: @escaping (RunOptions) -> TableViewController
    ) throws -> RunResult {
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
        }
        if let posters = options.postersDirectory {
            phoneOptions.postersDirectory = URL(fileURLWithPath: posters, isDirectory: true)
        }
        try checkWritable(file: options.tracePath, option: "--trace")
        try checkWritable(file: options.timelinePath, option: "--timeline")
        if let directory = options.exportDirectory {
            _ = try writableDirectory(directory, option: "--export")
        }
        return try Phone.run(
            step: step, scenario: scenario, seed: seed, movies: movies, options: phoneOptions
        ) {
            makeApp(options)
        }
    }

    static func loadMovies(rows: Int) throws -> [Movie] {
        do {
            return try MovieCatalog.bundled().rows(rows)
        } catch {
            throw WorkbookError.badInput("the catalog: \(error)")
        }
    }

    /// Writes the file an option names; a file that cannot be written is the user's bad input.
    private static func writeFile(_ text: String, to path: String, option: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw WorkbookError.badInput("\(option): cannot write \(path) (\(SystemError.reason(error)))")
        }
    }

    /// Prints the report and writes the files the options ask for.
    static func writeOutputs(_ result: RunResult, options: RunOptions) throws {
        if let tracePath = options.tracePath {
            try writeFile(TraceEvent.jsonLines(result.trace), to: tracePath, option: "--trace")
        }
        if let timelinePath = options.timelinePath {
            try writeFile(TimelineSVG.render(result), to: timelinePath, option: "--timeline")
        }
        if let directory = options.exportDirectory {
            try PictureExport.write(result, to: try writableDirectory(directory, option: "--export"))
        }
        write(options.json ? JSONReport.render(result) : TextReport.render(result))
        if options.screens {
            // With --json the screens go to standard error, so standard output stays one JSON object.
            let descriptor: Int32 = options.json ? 2 : 1
            let text = ScreenText.render(result, color: useColor(options.color, descriptor: descriptor))
            if options.json {
                write(text, to: .standardError)
            } else {
                write("\n" + text)
            }
        }
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
    static func writableDirectory(_ path: String, option: String) throws -> URL {
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

    /// Fails early when a file the run will write cannot be written.
    static func checkWritable(file path: String?, option: String) throws {
        guard let path else { return }
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw WorkbookError.badInput("\(option): \(path) is a folder, not a file")
            }
            guard FileManager.default.isWritableFile(atPath: path) else {
                throw WorkbookError.badInput("\(option): \(path) is not writable")
            }
            return
        }
        let folder = url.deletingLastPathComponent().path
        var folderIsDirectory: ObjCBool = false
        guard
            FileManager.default.fileExists(
                atPath: folder.isEmpty ? "." : folder, isDirectory: &folderIsDirectory),
            folderIsDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: folder.isEmpty ? "." : folder)
        else {
            throw WorkbookError.badInput(
                "\(option): cannot write \(path) (its folder is missing or not writable)")
        }
    }

    /// Prints to standard output; a reader that went away (`| head`) ends the process quietly.
    static func write(_ text: String) {
        write(text, to: .standardOutput)
    }

    /// Writes to a stream. A reader that closed it (EPIPE) ends the process quietly with status 0; any
    /// other failure (a full disk, an I/O error) loses the report, so it ends the process with status 1 and
    /// a line on standard error (when that can still be written).
    static func write(_ text: String, to handle: FileHandle) {
        let number = writeAll(Array(text.utf8), to: handle.fileDescriptor)
        guard number != 0 else { return }
        if number == EPIPE { exit(0) }
        let stream = handle.fileDescriptor == 2 ? "standard error" : "standard output"
        _ = writeAll(
            Array("error: cannot write the report to \(stream) (\(SystemError.message(number)))\n".utf8),
            to: 2)
        exit(1)
    }

    /// Writes every byte to a file descriptor; returns 0, or the error number of the write that failed.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                writeBytes(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += count
        }
        return 0
    }

    static func fail(_ message: String) -> Never {
        _ = writeAll(Array((message + "\n").utf8), to: 2)
        exit(2)
    }

    /// Text with its control characters escaped (`\r`, `\u{0}`), so a message stays one visible line
    /// whatever bytes a file or an argument held.
    package static func visible(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _
            where scalar.properties.generalCategory == .control
                || scalar == "\u{2028}" || scalar == "\u{2029}":
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Writing to a closed pipe (`| head`) ends the process quietly instead of with a signal.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}

/// `write(2)`, under a name `Workbook.write` does not hide.
private func writeBytes(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
