import Foundation
import Shared
import TestSupport
import Testing

/// What every step must get right, whatever its strategy.
extension LessonTests {
    @Test("No step ever shows a row other pixels than its own poster's, on any built-in scenario")
    func noWrongPixelsOnAnyBuiltIn() throws {
        // Every step on every built-in scenario, looped in one test so that a passing run prints one line,
        // not one per pair: each expectation names the step and scenario it judged.
        let catalog = try MovieCatalog.bundled()
        for step in Step.allCases {
            for scenario in Scenarios.all {
                let run = try SharedRuns.shared.result(step, scenario)
                let context = Comment(rawValue: "\(step) on \(scenario)")
                #expect(run.metric("wrong_image_events") == 0, context)
                // The main thread checker: no step as shipped calls the table off the main thread.
                #expect(run.metric("main_thread_checker_violations") == 0, context)
                // Judged here from the pixels, as the user would: every poster a cell showed hashes as
                // the row's own generated poster does, at one of the sizes and stages a step shows.
                let shown = run.events("cell_image").filter { $0.text("shows") == "image" }
                #expect(!shown.isEmpty, context)
                let movies = catalog.rows((shown.compactMap { $0.number("row") }.max() ?? 0) + 1)
                for event in shown {
                    let row = try #require(event.number("row"), context)
                    let hash = try #require(event.text("image_hash"), context)
                    #expect(
                        OwnPosterPixels.shared.hashes(of: movies[row].urlString).contains(hash),
                        "\(context): row \(row) at \(event.time) µs shows pixels that are not its poster's"
                    )
                }
            }
        }
    }

    @Test("Step 4 never runs completion work for a cancelled load, on any built-in scenario")
    func stepFourSkipsCancelledCompletions() throws {
        for scenario in Scenarios.all {
            let run = try SharedRuns.shared.result(.cacheAndPrefetch, scenario)
            #expect(run.metric("late_completions") == 0, "on \(scenario)")
        }
    }

    @Test("Every step ends on the same pictures, on every scenario without faults")
    func sameFinalPicturesWithoutFaults() throws {
        for scenario in Scenarios.faultless {
            let reference = try SharedRuns.shared.result(.naive, scenario)
            #expect(!reference.finalScreen.rows.isEmpty, "on \(scenario)")
            #expect(reference.finalScreen.rows.contains { $0.shows == "image" }, "on \(scenario)")
            for step in [Step.background, .idleOnly, .cacheAndPrefetch] {
                let run = try SharedRuns.shared.result(step, scenario)
                #expect(
                    run.finalHashes == reference.finalHashes,
                    "\(step) ends differently from step 1 on \(scenario)")
            }
        }
    }

    @Test("Every step's final screen shows every row's final content")
    func finalScreenShowsFinalContent() throws {
        for step in Step.allCases {
            let run = try SharedRuns.shared.result(step, "course")
            #expect(run.finalScreen.rows.allSatisfy { $0.shows != "placeholder" }, "\(step) on course")
        }
    }

    @Test("Two runs of a step give byte-identical reports and traces")
    func twoRunsAreByteIdentical() throws {
        for step in Step.allCases {
            let first = try step.run("course")
            let second = try step.run("course")
            #expect(TextReport.render(first) == TextReport.render(second), "\(step)")
            #expect(JSONReport.render(first) == JSONReport.render(second), "\(step)")
            #expect(first.trace.map(\.jsonLine) == second.trace.map(\.jsonLine), "\(step)")
            #expect(first.trace.count > 100, "\(step)")
        }
    }

    @Test("A different seed changes the network's timing")
    func seedChangesNetworkTiming() throws {
        let seven = try Step.cacheAndPrefetch.run("reading", seed: 7)
        let eight = try Step.cacheAndPrefetch.run("reading", seed: 8)
        let times = { (run: RunResult) in run.events("request_end").map(\.time) }
        #expect(times(seven) != times(eight))
    }

}
