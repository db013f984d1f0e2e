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
/// the scenario ends. Bad options or a bad scenario: a message and exit code 2.
public enum Workbook {
    public static func main(
        step: String, summary: String, techniques: [String] = [],
        makeApp: @escaping (RunOptions) -> TableViewController
    ) -> Never {
        func fail(_ message: String) -> Never {
            FileHandle.standardError.write(Data("\(step): \(VisibleText.escaped(message))\n".utf8))
            exit(2)
        }
        let options: LiveOptions
        do {
            guard let parsed = try LiveOptions.parse(Array(CommandLine.arguments.dropFirst())) else {
                print("\(step) (live): \(summary)\n\(LiveOptions.usage)")
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
        run.server.stop()
        // The app's disk lives in a temporary folder for this process only.
        Disk.shared.removeItem(at: Disk.shared.cachesDirectory)
        FileHandle.standardOutput.write(
            Data((options.json ? report.json : report.text + LiveDrawing.reportLines).utf8))
        exit(0)
    }
}
