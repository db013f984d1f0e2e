import Files
import Foundation
import Shared

/// `Compare --live`: its options, the live steps built, and each step played simulated and then live.
extension LiveComparison {
    static let help = """
        Usage: Compare --live [--scenario NAME|FILE] [--seed N] [--live-bin DIR]

        Runs every step on one scenario twice, simulated and live (real threads, real Foundation, a real
        HTTP server on loopback, wall-clock time), one run at a time, and prints each figure beside its live
        twin ("-": not measured live), then whether each lesson holds live: step 1 hangs and steps 2-6 do
        not; step 3 moves fewer bytes than step 2 on flings; step 4 needs no network after a relaunch; no
        wrong picture in steps 4 to 6. A lesson is judged live only where the simulator shows it on the
        scenario. Exits 1 when one fails live, 2 on bad input.

          --scenario NAME|FILE  the scenario (default course); a live run takes its wall-clock length
          --seed N              the seed (default the scenario's)
          --live-bin DIR        the live step executables (default: swift build --package-path Live, in
                                Compare's own configuration, then its --show-bin-path)

        """

    /// Runs `Compare --live` with the arguments after `--live`; never returns.
    static func main(_ arguments: [String]) -> Never {
        var rest: [String] = []
        var liveFolder: URL?
        var index = 0
        while index < arguments.count {
            if arguments[index] == "--live-bin" {
                guard index + 1 < arguments.count else { Compare.fail("--live-bin needs a folder") }
                liveFolder = URL(fileURLWithPath: arguments[index + 1])
                index += 2
            } else {
                rest.append(arguments[index])
                index += 1
            }
        }
        let options: RunOptions
        do {
            options = try OptionsParser.parse(rest, accepting: ["--scenario", "--seed", "--help"])
        } catch {
            Compare.fail(Workbook.visible(error.description))
        }
        if options.help {
            print(help, terminator: "")
            exit(0)
        }
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.load(options.scenario)
        } catch {
            Compare.fail(Workbook.visible(String(describing: error)))
        }
        let folder = Compare.executableFolder()
        let steps: [String]
        let limit: Int
        do throws(WorkbookError) {
            steps = try Compare.steps(in: folder)
            limit = try Compare.timeLimit()
        } catch {
            Compare.fail(error.description)
        }
        guard !steps.isEmpty else {
            Compare.fail(
                "cannot find the steps next to Compare in \(folder.path); build every step first: swift build"
            )
        }
        let live = liveFolder ?? buildLive(near: folder)
        for step in steps
        where !FileManager.default.isExecutableFile(atPath: live.appendingPathComponent(step).path) {
            Compare.fail(
                "no live \(step) in \(Workbook.visible(live.path)); build the live steps: swift build --package-path Live"
            )
        }
        let passThrough =
            ["--scenario", options.scenario] + (options.seed.map { ["--seed", String($0)] } ?? [])
        let scratch: URL
        do {
            scratch = try TemporaryFiles.makeFolder(prefix: "compare-live")
        } catch {
            Compare.fail(error.description)
        }
        let started = ContinuousClock.now
        var pairs: [Pair] = []
        for (index, step) in steps.enumerated() {
            let trace = scratch.appendingPathComponent("\(step).jsonl")
            Compare.progress("\(step) (\(index + 1) of \(steps.count)): simulated", since: started)
            let simulatedOutput = Compare.run(
                folder.appendingPathComponent(step).path,
                arguments: ["--json", "--trace", trace.path] + passThrough,
                step: step, timeLimit: limit)
            Compare.progress(
                "\(step) (\(index + 1) of \(steps.count)): live, the scenario's \(scenarioSeconds(scenario)) s "
                    + "on the wall clock and its settling", since: started)
            let liveOutput = Compare.run(
                live.appendingPathComponent(step).path, arguments: ["--json"] + passThrough,
                step: "live \(step)", timeLimit: limit, saysItRuns: true)
            do throws(WorkbookError) {
                var simulated = try Report.read(simulatedOutput)
                let text = (try? String(contentsOf: trace, encoding: .utf8)) ?? ""
                simulated.postersAfterLastRelaunch = postersAfterLastRelaunch(trace: text)
                pairs.append(Pair(step: step, simulated: simulated, live: try Report.read(liveOutput)))
            } catch {
                Compare.fail("\(step) printed something that is not its --json report, simulated or live")
            }
        }
        let hasFlings = scenario.actions.contains {
            if case .fling = $0 { return true }
            return false
        }
        Compare.progress("every step ran simulated and live", since: started)
        let lessons = lessons(pairs, hasFlings: hasFlings, hasRelaunch: scenario.actions.contains(.relaunch))
        print(render(pairs, lessons: lessons), terminator: "")
        exit(anyFailed(lessons) ? 1 : 0)
    }

    /// Builds the `Live` package found above `folder` (or in the working directory) in the configuration
    /// `folder` is, and returns its executables' folder; a build that fails ends `Compare` with exit 2.
    static func buildLive(near folder: URL) -> URL {
        let candidates =
            sequence(first: folder) { $0.pathComponents.count > 1 ? $0.deletingLastPathComponent() : nil }
            .map { $0.appendingPathComponent("Live") }
            + [URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Live")]
        guard
            let package = candidates.first(where: {
                FileManager.default.fileExists(atPath: $0.appendingPathComponent("Package.swift").path)
            })
        else {
            Compare.fail(
                "cannot find the Live package above \(folder.path) or here; give its steps with --live-bin DIR"
            )
        }
        guard let swift = executable(named: "swift") else {
            Compare.fail("no swift on PATH to build the live steps; give them with --live-bin DIR")
        }
        let configuration = folder.lastPathComponent == "release" ? ["-c", "release"] : []
        let arguments = ["build", "--package-path", package.path] + configuration
        Compare.say("building the live steps: swift \(arguments.joined(separator: " "))")
        _ = Compare.run(swift, arguments: arguments, step: "swift build", timeLimit: 3600, echoing: true)
        let output = Compare.run(
            swift, arguments: arguments + ["--show-bin-path"], step: "swift build --show-bin-path",
            timeLimit: 600)
        let path = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !path.isEmpty else { Compare.fail("swift build --show-bin-path printed no folder") }
        return URL(fileURLWithPath: path)
    }
}
