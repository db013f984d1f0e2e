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

    /// Runs a program in the package folder under `limits` and collects its output (standard error
    /// included when asked); a program stopped at its time limit reports status 124.
    func execute(_ program: String, _ arguments: [String], errors: Bool = true, limits: Limits = .build)
        -> Outcome
    {
        do {
            let scratch = try makeScratchFolder("course-command")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let output = scratch.appendingPathComponent("output")
            let child = try ChildStep.spawn(
                program, arguments, in: folder, limits: limits, output: output,
                errors: errors ? output : scratch.appendingPathComponent("errors"))
            let stopped = child.wait(limits: limits)
            let text = Self.head(of: output, bytes: 4_000_000)
            if stopped != nil {
                return Outcome(
                    status: 124,
                    output: text + "\n\(program) \(arguments.first ?? "") did not finish within "
                        + "\(Int(limits.seconds ?? 0)) s: stopped")
            }
            return Outcome(status: child.status, output: text)
        } catch {
            return Outcome(status: 127, output: "cannot run \(program): \(error)")
        }
    }

    /// Builds one step; on failure, the compiler's errors.
    func build(_ step: String) -> String? {
        let outcome = execute("swift", ["build", "--product", step])
        guard outcome.status != 0 else { return nil }
        let errors = outcome.output.split(separator: "\n").filter { $0.contains("error:") }
        return (errors.isEmpty ? outcome.output.split(separator: "\n").suffix(5) : errors.prefix(5))
            .joined(separator: "\n")
    }

    /// Builds the package's tests (every step with them); on failure, the compiler's errors. `start`
    /// does it once, so that `check` rebuilds only what the student changed before it runs the tests.
    func buildTests() -> String? {
        let outcome = execute("swift", ["build", "--build-tests"])
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

    /// The most bytes a run may write to its standard output, standard error or trace before it is
    /// stopped: a report is a few kilobytes and a built-in scenario's trace under a megabyte.
    static let outputLimit = 64_000_000

    /// Runs a built step with `--json` (and `--trace` when asked) and reads its report; with `twin`, plays
    /// the same scenario in a second process at the same time (with the twin's options, such as its own
    /// cache folder) and fails, naming the first line of the reports that differs, when the two differ:
    /// a step must print the same for the same scenario, and a `Set` or `Dictionary` iterated where the
    /// order reaches the app does not.
    ///
    /// The step runs in `scratch` (outside the package, so nothing it writes lands among the student's
    /// files or the tests), under `limits`, in a process group of its own that ends with it. It writes
    /// into files, not pipes, and the check waits for the step's own exit, so a process it leaves behind
    /// cannot keep the check waiting; a step that runs too long or writes too much is stopped.
    func run(
        _ step: String, scenario: String, options: [String], traced: Bool, limits: Limits = .step, bin: URL,
        scratch: URL, twin: [String]? = nil
    ) throws -> RunReport {
        let first = try launch(
            step, scenario: scenario, options: options, traced: traced, limits: limits, bin: bin,
            scratch: scratch)
        defer { first.remove() }
        let second = try twin.map {
            try launch(
                step, scenario: scenario, options: $0, traced: false, limits: limits, bin: bin,
                scratch: scratch)
        }
        defer { second?.remove() }
        let (report, text) = try finish(first, step: step, scenario: scenario, limits: limits)
        guard let second else { return report }
        let (_, secondText) = try finish(second, step: step, scenario: scenario, limits: limits)
        if let difference = Self.firstDifference(text, secondText) {
            throw CourseError(
                "two runs of \(step) on \(scenario) printed different reports (the same scenario must give the "
                    + "same run): \(difference). Does your code loop over a Set or a Dictionary where the order "
                    + "matters? Sort it first.")
        }
        return report
    }

    /// A step started by `launch`: the process and the files it writes.
    struct Launched {
        let process: ChildStep
        let trace: URL?
        let output: URL
        let errors: URL

        func remove() {
            for file in [trace, output, errors].compactMap({ $0 }) {
                try? FileManager.default.removeItem(at: file)
            }
        }
    }

    /// Starts a built step with `--json` (and `--trace` when asked) in `scratch`.
    func launch(
        _ step: String, scenario: String, options: [String], traced: Bool, limits: Limits, bin: URL,
        scratch: URL
    ) throws -> Launched {
        var arguments = ["--json", "--scenario", scenario] + options
        let name = "\(step)-\(UUID().uuidString)"
        let trace = scratch.appendingPathComponent("\(name).trace")
        let outputFile = scratch.appendingPathComponent("\(name).out")
        let errorFile = scratch.appendingPathComponent("\(name).err")
        if traced { arguments += ["--trace", trace.path] }
        let process = try ChildStep.spawn(
            bin.appendingPathComponent(step).path, arguments, in: scratch, limits: limits, output: outputFile,
            errors: errorFile)
        return Launched(process: process, trace: traced ? trace : nil, output: outputFile, errors: errorFile)
    }

    /// Waits for a launched step and reads its report (and the report's text).
    func finish(_ launched: Launched, step: String, scenario: String, limits: Limits) throws -> (
        RunReport, String
    ) {
        let (process, outputFile, errorFile) = (launched.process, launched.output, launched.errors)
        var tooMuch: String?
        let stopped = process.wait(limits: limits) {
            guard
                let file = [outputFile, errorFile, launched.trace].compactMap({ $0 }).first(where: {
                    Self.size(of: $0) > Self.outputLimit
                })
            else { return nil }
            tooMuch =
                "\(step) wrote more than \(Self.outputLimit / 1_000_000) MB to its "
                + "\(file == launched.trace ? "trace" : file == errorFile ? "standard error" : "output") on "
                + "\(scenario): stopped. Does a print run in a loop?"
            return tooMuch
        }
        if let tooMuch { throw CourseError(tooMuch) }
        if stopped != nil {
            throw CourseError(
                "\(step) did not finish \(scenario) within \(Int(limits.seconds ?? 0)) s: stopped. Does "
                    + "something loop, such as a row reloaded again and again with no work done?")
        }
        let message = Self.head(of: errorFile)
        guard process.status == 0 else {
            let said = message.split(separator: "\n").prefix(3).joined(separator: "\n")
            if process.signal == SIGXCPU {
                throw CourseError(
                    "\(step) used more than \(limits.processorSeconds) s of processor time on \(scenario): "
                        + "stopped. Does something loop?")
            }
            throw CourseError(
                "\(step) \(process.signal != 0 ? "crashed" : "failed") on \(scenario)"
                    + (said.isEmpty ? "" : ": \(said)")
                    + (Self.outOfMemory(said)
                        ? " (a run may map at most \(limits.memoryBytes >> 30) GB: does something allocate "
                            + "without end?)" : ""))
        }
        if let warning = Self.runtimeWarning(in: message) {
            throw CourseError("\(step) warned on \(scenario): \(warning)")
        }
        guard Self.size(of: outputFile) <= Self.outputLimit,
            let data = FileManager.default.contents(atPath: outputFile.path)
        else { throw CourseError("\(step)'s output on \(scenario) could not be read") }
        var (report, text) = try Self.reportAndText(fromOutput: data, of: step)
        if let trace = launched.trace {
            do {
                report.events = Self.events(fromTrace: try BoundedFile.read(trace.path, as: .trace))
            } catch {
                throw CourseError("\(step)'s --trace on \(scenario) could not be read: \(error)")
            }
        }
        return (report, text)
    }

    /// Whether a child's last words say an allocation failed (the memory limit reached).
    static func outOfMemory(_ errors: String) -> Bool {
        [
            "Could not allocate memory", "out of memory", "Out of memory", "Cannot allocate memory",
            "std::bad_alloc", "Out of space",
        ].contains {
            errors.contains($0)
        }
    }

    /// A file's size in bytes (0 when it is missing).
    static func size(of file: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// The first `bytes` of a file (64 KB unless told), as text.
    static func head(of file: URL, bytes: Int = 65_536) -> String {
        guard let handle = FileHandle(forReadingAtPath: file.path) else { return "" }
        defer { try? handle.close() }
        return String(decoding: handle.readData(ofLength: bytes), as: UTF8.self)
    }

    /// The first line of a step's standard error that says the Swift runtime or the step itself saw
    /// something wrong (a continuation resumed twice or never, a fatal error), counted; nil when none.
    static func runtimeWarning(in errors: String) -> String? {
        // The workbook's own notices (a run cut at its time limit, a disk cache turned off) are in the
        // report too, and judged there.
        let lines = errors.split(separator: "\n").filter { line in
            !RunNotice.isNotice(line)
                && ["MISUSE", "warning", "Warning", "error", "Error", "Fatal"].contains { line.contains($0) }
        }
        guard let first = lines.first else { return nil }
        let shown = first.count > 240 ? first.prefix(240) + "…" : first
        return lines.count == 1 ? String(shown) : "\(shown) (and \(lines.count - 1) more such line(s))"
    }
}

/// A problem `Course` reports in one line.
struct CourseError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
