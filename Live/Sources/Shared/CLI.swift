import Files
import Foundation

/// The command line's options, as the steps read them.
public struct RunOptions: Sendable, Equatable {
    /// How many downloads at once (nil for the step's own choice).
    public var concurrency: Int?
    /// The techniques `--without` turns off.
    public var without: [String] = []

    public init() {}
}

/// What the harness needs to run a step.
public protocol WorkbookStep {
    static var name: String { get }
    static var summary: String { get }
    static func makeApp(_ options: RunOptions) -> TableViewController
    static var techniques: [String] { get }
}

extension WorkbookStep {
    public static var techniques: [String] { [] }
}

/// Runs a step as a command, live: the scenario's gestures on the wall clock, the app on the real main
/// thread and Foundation's queues, its posters from a server on loopback, the table drawn in the terminal
/// when standard output is one (`LiveDrawing`); it prints the report (text, or JSON with `--json`) when
/// the scenario ends, and each notice on standard error, as a simulated step does. Bad options or a bad
/// scenario: a message and exit code 2. The app's caches folder is removed on every way out: the end, an
/// error, and SIGINT, SIGTERM or SIGHUP (which also put the terminal back as it was); a report standard
/// output cannot take gets one line and exit code 1.
public enum Workbook {
    public static func main(
        step: String, summary: String, techniques: [String] = [],
        makeApp: @escaping (RunOptions) -> TableViewController
    ) -> Never {
        StandardStreams.holdClosedStreams()
        signal(SIGPIPE, SIG_IGN)
        TemporaryFiles.removeOnInterrupt()
        TemporaryFiles.atInterrupt { LiveDrawing.restoreTerminal() }
        func fail(_ message: String) -> Never {
            TemporaryFiles.removeAll()
            _ = StandardStreams.writeAll(Array("\(step): \(VisibleText.escaped(message))\n".utf8), to: 2)
            exit(2)
        }
        let options: LiveOptions
        do {
            guard
                let parsed = try LiveOptions.parse(
                    Array(CommandLine.arguments.dropFirst()), techniques: techniques)
            else {
                StandardStreams.write("\(step) (live): \(summary)\n\(LiveOptions.usage)\n", to: 1)
                exit(0)
            }
            options = parsed
        } catch {
            fail(error.message)
        }
        let run: LiveRun
        do {
            run = try LiveRun(step: step, options: options, makeApp: makeApp)
        } catch {
            fail(String(describing: error))
        }
        let report = run.run()
        TemporaryFiles.removeAll()
        for line in report.notices {
            _ = StandardStreams.writeAll(Array("\(step): \(VisibleText.escaped(line))\n".utf8), to: 2)
        }
        StandardStreams.write(options.json ? report.json : report.text + LiveDrawing.reportLines, to: 1)
        exit(0)
    }
}
