import Foundation
import Shared

/// Runs every step executable on one scenario and prints their metrics side by side.
///
/// The steps are separate executables, so `Compare` runs the ones built next to it (`swift build` builds
/// them all) with `--json` and reads their reports. It finds them by name, `Step<N>…`, so a step a teacher
/// adds gets its column as soon as it is built.
enum Compare {
    /// The step executables in a folder, in course order (by the number after `Step`).
    static func steps(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("Step"), !name.contains(".") else { return nil }
            let digits = name.dropFirst(4).prefix { $0.isASCII && $0.isNumber }
            var isFolder: ObjCBool = false
            let path = folder.appendingPathComponent(name).path
            guard let number = Int(digits),
                FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
                !isFolder.boolValue, FileManager.default.isExecutableFile(atPath: path)
            else { return nil }
            return (number, name)
        }
        .sorted { $0 < $1 }.map(\.1)
    }

    /// The options Compare takes; it passes the scenario and seed on to every step.
    static let accepted: Set<String> = ["--scenario", "--seed", "--help"]

    /// Parses the arguments, runs the steps and prints the table; exits 2 on a problem.
    static func main() -> Never {
        let options: RunOptions
        do {
            options = try OptionsParser.parse(Array(CommandLine.arguments.dropFirst()), accepting: accepted)
        } catch {
            fail("\(Workbook.visible(error.description))\nTry 'Compare --help' for the options.")
        }
        if options.help {
            print(
                OptionsParser.helpText(
                    program: "Compare",
                    summary:
                        "runs every step on one scenario and prints a table, a column per step, with the oracle.",
                    accepting: accepted)
                    + "\nThe step executables must be built next to Compare: run `swift build` first.\n",
                terminator: "")
            exit(0)
        }
        let passThrough =
            ["--scenario", options.scenario] + (options.seed.map { ["--seed", String($0)] } ?? [])
        let folder = executableFolder()
        var columns: [ComparisonTable.Column] = []
        let steps = steps(in: folder)
        guard !steps.isEmpty else {
            fail(
                "cannot find the steps next to Compare in \(folder.path).\n"
                    + "Build every step first: swift build && swift run Compare --scenario course")
        }
        for step in steps {
            let path = folder.appendingPathComponent(step).path
            let data = run(path, arguments: ["--json"] + passThrough, step: step)
            do {
                columns.append(try ComparisonTable.column(fromJSON: data))
            } catch {
                fail("\(step) printed something that is not its --json report")
            }
        }
        print(ComparisonTable.render(columns), terminator: "")
        exit(0)
    }

    /// The folder this executable lives in, where `swift build` puts the steps too.
    static func executableFolder() -> URL {
        let url = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return url.resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Runs a step and returns its standard output; a failing step ends Compare with its message.
    static func run(_ path: String, arguments: [String], step: String) -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            fail("cannot run \(path): \(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            FileHandle.standardError.write(message)
            exit(process.terminationStatus == 2 ? 2 : 1)
        }
        return data
    }

    /// Prints a message to standard error and exits with code 2.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("Compare: \(message)\n".utf8))
        exit(2)
    }
}

Compare.main()
