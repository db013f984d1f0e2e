import Files
import Foundation

/// The workbook package `Course` works on: its folder, its steps, and how to build and run them.
struct WorkbookPackage {
    let folder: URL

    /// The package around the current folder (the first folder upwards holding `Sources/Course`).
    static func find() -> WorkbookPackage? {
        var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        while true {
            let marker = folder.appendingPathComponent("Sources/Course").path
            if FileManager.default.fileExists(atPath: marker) { return WorkbookPackage(folder: folder) }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    /// The number in a step folder's name `Step<N>…`, or nil for another name.
    static func stepNumber(_ name: String) -> Int? {
        guard name.hasPrefix("Step") else { return nil }
        let digits = name.dropFirst(4).prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : Int(digits)
    }

    /// Every step folder, `Sources/Step<N>…`, in course order.
    var steps: [(number: Int, name: String)] {
        let names =
            (try? FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent("Sources").path))
            ?? []
        return names.compactMap { name in Self.stepNumber(name).map { (number: $0, name: name) } }
            .sorted { ($0.number, $0.name) < ($1.number, $1.name) }
    }

    /// The folder (and executable) name of step `number`.
    func stepName(_ number: Int) -> String? {
        steps.first { $0.number == number }?.name
    }

    /// The step before step `number` in the course.
    func previousStep(_ number: Int) -> String? {
        steps.last { $0.number < number }?.name
    }

    /// The step an exercise's run plays.
    func stepName(for run: RunSpec, of exercise: Exercise) -> String? {
        switch run.step {
        case .this: return stepName(exercise.step)
        case .previous: return previousStep(exercise.step)
        }
    }

    // MARK: Building and running

    /// The outcome of a command: its exit code and what it printed.
    struct Outcome {
        let status: Int32
        let output: String
    }

    /// Runs a program in the package folder and collects its output (standard error included when asked).
    func execute(_ program: String, _ arguments: [String], errors: Bool = true) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = errors ? pipe : FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return Outcome(status: 127, output: "cannot run \(program): \(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// Builds one step; on failure, the compiler's errors.
    func build(_ step: String) -> String? {
        let outcome = execute("swift", ["build", "--product", step])
        guard outcome.status != 0 else { return nil }
        let errors = outcome.output.split(separator: "\n").filter { $0.contains("error:") }
        return (errors.isEmpty ? outcome.output.split(separator: "\n").suffix(5) : errors.prefix(5))
            .joined(separator: "\n")
    }

    /// Where `swift build` puts executables.
    func binFolder() -> URL {
        let outcome = execute("swift", ["build", "--show-bin-path"], errors: false)
        return URL(fileURLWithPath: outcome.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// How long one run of the student's step may take, in seconds (a debug run of a scenario takes a
    /// few, or a minute on a busy machine); runs of untouched steps have no limit.
    static let runTimeLimit = 150.0

    /// Runs a built step with `--json` (and `--trace` when asked) and reads its report.
    func run(
        _ step: String, scenario: String, options: [String], traced: Bool, limited: Bool, bin: URL,
        scratch: URL
    ) throws -> RunReport {
        var arguments = ["--json", "--scenario", scenario] + options
        let trace = scratch.appendingPathComponent("\(step)-\(UUID().uuidString).trace")
        if traced { arguments += ["--trace", trace.path] }
        let process = Process()
        process.executableURL = bin.appendingPathComponent(step)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // A step whose code loops (a row that reloads itself forever) never ends: stop it after a while.
        let watched = Watched(process)
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.runTimeLimit) {
            if limited, watched.process.isRunning {
                watched.timedOut = true
                watched.process.terminate()
            }
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if watched.timedOut {
            throw CourseError(
                "\(step) did not finish \(scenario) within \(Int(Self.runTimeLimit)) s: does something loop, "
                    + "such as a row reloaded again and again with no work done?")
        }
        guard process.terminationStatus == 0 else {
            let said = String(decoding: message, as: UTF8.self).split(separator: "\n").prefix(3)
                .joined(separator: "\n")
            let crashed = process.terminationReason == .uncaughtSignal
            throw CourseError(
                "\(step) \(crashed ? "crashed" : "failed") on \(scenario)"
                    + (said.isEmpty ? "" : ": \(said)"))
        }
        var report = try Self.report(fromJSON: data)
        if traced {
            defer { try? FileManager.default.removeItem(at: trace) }
            do {
                report.events = Self.events(fromTrace: try BoundedFile.read(trace.path, as: .trace))
            } catch {
                throw CourseError("\(step)'s --trace on \(scenario) could not be read: \(error)")
            }
        }
        return report
    }

    /// A step's `--json` report as the exercises see it.
    static func report(fromJSON data: Data) throws -> RunReport {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let metrics = object["metrics"] as? [String: Any]
        else { throw CourseError("a step printed something that is not its --json report") }
        let oracle = object["oracle"] as? [String: Any] ?? [:]
        let screen = object["final_screen"] as? [[String: Any]] ?? []
        return RunReport(
            metrics: metrics.compactMapValues { ($0 as? NSNumber)?.doubleValue },
            oracle: oracle.compactMapValues { ($0 as? NSNumber)?.doubleValue },
            finalShows: screen.map { $0["shows"] as? String ?? "?" })
    }

    /// A `--trace` file's events (JSON Lines, one object per line), with the fields the exercises read:
    /// a string field's text, a true-or-false field as `true` or `false`.
    static func events(fromTrace bytes: [UInt8]) -> [TraceLine] {
        let keys = ["thread", "state", "operation", "cancelled", "url"]
        return bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let name = object["event"] as? String
            else { return nil }
            var fields: [String: String] = [:]
            for key in keys {
                if let text = object[key] as? String {
                    fields[key] = text
                } else if let flag = object[key] as? Bool {
                    fields[key] = flag ? "true" : "false"
                }
            }
            return TraceLine(name: name, fields: fields)
        }
    }
}

/// A running step, watched by the timer that stops it.
final class Watched: @unchecked Sendable {
    let process: Process
    var timedOut = false
    init(_ process: Process) { self.process = process }
}

/// A problem `Course` reports in one line.
struct CourseError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
