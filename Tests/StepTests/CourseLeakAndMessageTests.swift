import Foundation
import Testing

@testable import Course

/// The end-of-run invariant `Course` checks on every traced run, the decode it keeps off the main
/// thread, and the test comments it shows with a failing test's line.
@Suite("Course reports what a run left queued, a decode on the main thread, and a failing test's comment")
struct CourseLeakAndMessageTests {
    /// A run of the student's code whose trace holds `events`.
    static func run(_ events: [TraceLine]) -> RunReport {
        var run = RunReport(metrics: [:], oracle: [:], finalShows: [])
        run.events = events
        return run
    }

    @Test("A traced run that left operations in the app's queues fails the check, naming the first")
    func operationsLeftFailTheCheck() throws {
        let exercise = try #require(Exercises.named("3.5"))
        let traced = try #require(exercise.runs.first { $0.step == .this && $0.traced })
        let left = Self.run([
            TraceLine(
                name: "operation_left", fields: ["operation": "ImageDownloader", "state": "suspended"]),
            TraceLine(
                name: "operation_left", fields: ["operation": "ImageFiltration", "state": "suspended"]),
        ])
        let failure = try #require(
            Judge.firstFailure(of: exercise, runs: [traced.label: left], baselines: [:]))
        #expect(
            failure.hasPrefix(
                "at the end of \(traced.label), 2 operation(s) were left in the app's queues (first: "
                    + "ImageDownloader, on a suspended queue)"), "\(failure)")
        #expect(failure.contains("must be resumed when it stops"), "\(failure)")
        // Work that waits on a running queue is named as such.
        let waiting = try #require(
            Judge.operationsLeft(
                in: Self.run([
                    TraceLine(
                        name: "operation_left", fields: ["operation": "ImageDownloader", "state": "waiting"])
                ])))
        #expect(waiting.contains("(first: ImageDownloader, waiting)"), "\(waiting)")
        #expect(Judge.operationsLeft(in: Self.run([])) == nil)
    }

    @Test("A decode on the main thread breaks the invariant; one on a queue's worker does not")
    func aDecodeOnTheMainThreadIsSeen() {
        let onMain = Self.run([
            TraceLine(name: "decode", fields: ["thread": "download-queue-1"]),
            TraceLine(name: "decode", fields: ["thread": "main"]),
        ])
        #expect(
            Judge.violation(of: .noDecodeOnMainThread, in: onMain) == "1 decode(s) ran on the main thread")
        let offMain = Self.run([TraceLine(name: "decode", fields: ["thread": "download-queue-1"])])
        #expect(Judge.violation(of: .noDecodeOnMainThread, in: offMain) == nil)
    }

    @Test(
        "An operation a queue's worker starts while the table scrolls breaks the invariant; one started at rest, or a main-queue block, does not"
    )
    func anOperationStartedWhileScrollingIsSeen() {
        func run(_ state: String, thread: String) -> RunReport {
            Self.run([
                TraceLine(name: "scroll_state", fields: ["state": state]),
                TraceLine(
                    name: "operation_start", fields: ["operation": "ImageFiltration", "thread": thread]),
                TraceLine(name: "scroll_state", fields: ["state": "idle"]),
            ])
        }
        #expect(
            Judge.violation(of: .noOperationStartWhileScrolling, in: run("decelerating", thread: "filter-1"))
                == "an ImageFiltration started on filter-1 while the table was scrolling")
        #expect(
            Judge.violation(of: .noOperationStartWhileScrolling, in: run("dragging", thread: "main")) == nil)
        #expect(
            Judge.violation(of: .noOperationStartWhileScrolling, in: run("idle", thread: "filter-1")) == nil)
    }

    @Test("A failing test's comment is shown on its issue's line, and the lines after it are not")
    func aTestCommentJoinsItsIssue() {
        let output = """
            ◇ Test "Step 2 leaves nothing" started.
            ✘ Test "Step 2 leaves nothing" recorded an issue at EndOfRunTests.swift:65:41: Issue recorded
            ↳ 38 entries left in downloadsInProgress at the end: a finished download must remove its row
            ✘ Test "Step 2 leaves nothing" failed after 0.263 seconds with 1 issue.
            ↳ /// a suite's documentation, shown after its failure
            """
        let failure = Course.testFailure(output, limits: .tests)
        #expect(
            failure
                == "the tests failed: ✘ Test \"Step 2 leaves nothing\" recorded an issue at "
                + "EndOfRunTests.swift:65:41: Issue recorded 38 entries left in downloadsInProgress at the end: "
                + "a finished download must remove its row", "\(failure)")
    }
}
