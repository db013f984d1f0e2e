import Files
import Foundation
import Shared

/// Runs every step executable on one scenario and prints their metrics side by side.
///
/// The steps are separate executables, so `Compare` runs the ones built next to it (`swift build` builds
/// them all) with `--json` and reads their reports. It finds them by name, `Step<N>…`, so a step a teacher
/// adds gets its column as soon as it is built.
enum Compare {
    /// The step executables in a folder, in course order (by the number after `Step`). A file named like a
    /// step that cannot be run, or a gap in the numbers (Step1, Step2, Step4), is refused in one line: a
    /// column left out silently would make the table lie.
    static func steps(in folder: URL) throws(WorkbookError) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var found: [(Int, String)] = []
        for name in names where name.hasPrefix("Step") && !name.contains(".") {
            let digits = name.dropFirst(4).prefix { $0.isASCII && $0.isNumber }
            guard let number = Int(digits) else { continue }
            let path = folder.appendingPathComponent(name).path
            if let kind = BoundedFile.nonFileKind(atPath: path) {
                if kind == "a directory" { continue }
                throw .badInput("\(name) in \(folder.path) is \(kind), not a step executable")
            }
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw .badInput(
                    "\(name) in \(folder.path) is not executable; build the steps again (swift build)")
            }
            found.append((number, name))
        }
        found.sort { $0 < $1 }
        for (index, step) in found.enumerated() where step.0 != index + 1 {
            let missing = found.first { $0.0 == index + 1 } == nil ? index + 1 : step.0
            throw .badInput(
                "no Step\(missing)… executable next to Compare in \(folder.path) (found "
                    + found.map(\.1).joined(separator: ", ") + "); build every step: swift build")
        }
        return found.map(\.1)
    }

    /// How long one step may run, in seconds: `COMPARE_TIME_LIMIT`, or ten minutes.
    static func timeLimit() throws(WorkbookError) -> Int {
        guard let text = ProcessInfo.processInfo.environment["COMPARE_TIME_LIMIT"] else { return 600 }
        guard let seconds = Int(text), (1...86_400).contains(seconds) else {
            throw .badInput(
                "COMPARE_TIME_LIMIT “\(Workbook.visible(text))” is not a whole number of seconds from 1 to 86400"
            )
        }
        return seconds
    }

    /// The options Compare takes; it passes the scenario and seed on to every step.
    static let accepted: Set<String> = ["--scenario", "--seed", "--help"]

    /// Parses the arguments, runs the steps and prints the table; exits 2 on a problem.
    static func main() -> Never {
        StepRun.passInterruptsOn()
        // Every way out through `exit` removes the scratch files (an interrupt's watcher does it too).
        atexit { TemporaryFiles.removeAll() }
        var arguments = Array(CommandLine.arguments.dropFirst())
        var sweepCases: Int?
        var sweepPicture: String?
        if arguments.first == "--live" { LiveComparison.main(Array(arguments.dropFirst())) }
        if arguments.first == "--sweep" {
            arguments.removeFirst()
            sweepCases = 50
            if let text = arguments.first, !text.hasPrefix("-") {
                guard let number = Int(text), (1...1000).contains(number) else {
                    fail("--sweep takes a number of cases from 1 to 1000, not “\(Workbook.visible(text))”")
                }
                sweepCases = number
                arguments.removeFirst()
            }
            if arguments.first == "--picture" {
                guard arguments.count >= 2, !arguments[1].isEmpty else { fail("--picture needs a file name") }
                sweepPicture = arguments[1]
                arguments.removeFirst(2)
            }
            if let extra = arguments.first {
                fail("--sweep takes no other option but --picture FILE, found “\(Workbook.visible(extra))”")
            }
        }
        let options: RunOptions
        do {
            options = try OptionsParser.parse(arguments, accepting: accepted)
        } catch {
            fail(Workbook.visible(error.description))
        }
        if options.help {
            print(
                OptionsParser.helpText(
                    program: "Compare",
                    summary:
                        "runs every step on one scenario and prints a table, a column per step, with the oracle.",
                    accepting: accepted)
                    + "  --sweep [N]           every step on N generated scenarios (50 if no N is given), and\n"
                    + "                        each step's distance beyond the limit: median and worst case,\n"
                    + "                        then the last step's goals against step 4 and the plan; exits 1\n"
                    + "                        if a step beats a bound or misses a goal\n"
                    + "  --sweep [N] --picture FILE\n"
                    + "                        also draws, for each family of the sweep, each step's median\n"
                    + "                        grey row-s against its median waste, as SVG into FILE\n"
                    + "  --live ...            every step simulated and live, side by side, and whether each\n"
                    + "                        lesson holds live (Compare --live --help says more)\n"
                    + "\nThe step executables must be built next to Compare: run `swift build` first.\n"
                    + "Each step may run for COMPARE_TIME_LIMIT seconds (default 600) before it is stopped.\n",
                terminator: "")
            exit(0)
        }
        let passThrough =
            ["--scenario", options.scenario] + (options.seed.map { ["--seed", String($0)] } ?? [])
        let folder = executableFolder()
        var columns: [ComparisonTable.Column] = []
        let steps: [String]
        let limit: Int
        do throws(WorkbookError) {
            steps = try Self.steps(in: folder)
            limit = try timeLimit()
        } catch {
            fail(error.description)
        }
        guard !steps.isEmpty else {
            fail(
                "cannot find the steps next to Compare in \(folder.path); build every step first: "
                    + "swift build && swift run Compare --scenario course")
        }
        if let sweepCases {
            Sweep.main(
                cases: sweepCases, steps: steps, folder: folder, timeLimit: limit,
                picture: sweepPicture.map { URL(fileURLWithPath: $0) })
        }
        for step in steps {
            let path = folder.appendingPathComponent(step).path
            let data = run(path, arguments: ["--json"] + passThrough, step: step, timeLimit: limit)
            do {
                columns.append(try ComparisonTable.column(fromJSON: data))
            } catch {
                fail("\(step) printed something that is not its --json report")
            }
        }
        print(ComparisonTable.render(columns, plan: plan(options)), terminator: "")
        exit(0)
    }

    /// The limit's clairvoyant client (`ClairvoyantClient`) played on the same scenario, here in this
    /// process, as a column.
    static func plan(_ options: RunOptions) -> ComparisonTable.Column {
        do {
            let result = try Workbook.run(step: "plan", options: options) { _ in ClairvoyantClient() }
            return try ComparisonTable.column(fromJSON: Data(JSONReport.render(result).utf8))
        } catch {
            fail("the limit's plan did not run: \(error)")
        }
    }

    /// The folder this executable lives in, where `swift build` puts the steps too.
    static func executableFolder() -> URL {
        let url = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return url.resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Runs a step and returns its standard output; a step that fails, hangs, is killed or prints too much
    /// ends Compare with one line of its own (after the step's own message, when it printed one). With
    /// `saysItRuns`, a long run says every ten seconds that it is still running.
    static func run(
        _ path: String, arguments: [String], step: String, timeLimit: Int, echoing: Bool = false,
        saysItRuns: Bool = false
    ) -> Data {
        let run: StepRun
        do {
            run = try StepRun.run(
                path, arguments: arguments, timeLimit: timeLimit, echoing: echoing,
                tick: saysItRuns
                    ? { elapsed in say("\(step) still running · \(elapsed.components.seconds) s") } : nil)
        } catch {
            fail("cannot run \(path): \(SystemError.reason(error))")
        }
        // The interrupt watcher ends Compare with the signal once the step is gone.
        while StepRun.isInterrupted { pause() }
        switch run.ending {
        case .exited(0):
            return run.output
        case .exited(let status):
            FileHandle.standardError.write(run.errors)
            if run.errors.isEmpty { say("\(step) exited with status \(status) and printed no message") }
            exit(status == 2 ? 2 : 1)
        case .signalled(let number):
            FileHandle.standardError.write(run.errors)
            say("\(step) was killed by \(StepRun.name(ofSignal: number))")
            exit(1)
        case .timedOut(let seconds):
            say(
                "\(step) was still running after \(seconds) s and was stopped "
                    + "(COMPARE_TIME_LIMIT sets the limit in seconds)")
            exit(1)
        case .printedTooMuch:
            say(
                "\(step) printed more than \(StepRun.outputLimit >> 20) MB on standard output, far more "
                    + "than a --json report, and was stopped")
            exit(1)
        }
    }

    /// One line of progress on standard error, with the time since `start`: long work is never silent.
    static func progress(_ message: String, since start: ContinuousClock.Instant) {
        let seconds =
            Double((ContinuousClock.now - start).components.seconds)
            + Double((ContinuousClock.now - start).components.attoseconds) / 1e18
        say("\(message) · \(String(format: "%.1f", seconds)) s")
    }

    /// One line on standard error, from Compare.
    static func say(_ message: String) {
        FileHandle.standardError.write(Data("Compare: \(Workbook.visible(message))\n".utf8))
    }

    /// Prints a message to standard error and exits with code 2.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("Compare: \(message)\n".utf8))
        exit(2)
    }
}

Compare.main()
