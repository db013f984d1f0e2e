import Foundation
import TestSupport
import Testing

@testable import Course

/// Every run of the student's code is played twice at once: two processes that print different reports
/// for the same scenario fail the check, naming the first line that differs.
@Suite("Course plays each run of the student's code twice and compares the reports")
struct CourseTwinRunTests {
    /// Runs a stand-in step twice at once; what the check threw, if anything.
    static func twice(_ body: String) throws -> String? {
        let folder = try StepFixtures.folder("twin")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bin = try CourseConfinementTests.standIn(body, in: folder)
        let package = WorkbookPackage(folder: folder)
        do {
            _ = try package.run(
                "Step9StandIn", scenario: "course", options: [], traced: false, bin: bin, scratch: folder,
                twin: [])
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("Two runs that print the same report pass")
    func theSameReportPasses() throws {
        #expect(try Self.twice(CourseConfinementTests.report) == nil)
    }

    @Test("Two runs whose reports differ fail, naming the first line that differs")
    func differentReportsFail() throws {
        // The process id differs between the two processes, as a Set's order does.
        let body =
            #"printf '{\n  "step": "x",\n  "metrics": {"requests_started": %s},\n  "final_screen": []}\n' $$"#
        let error = try #require(try Self.twice(body))
        #expect(error.contains("two runs of Step9StandIn on course printed different reports"), "\(error)")
        #expect(error.contains("line 3 of the --json report has `\"requests_started\": "), "\(error)")
        #expect(error.contains("Set"), "\(error)")
    }

    @Test("The difference is named by the JSON items that differ, not by a long line cut short")
    func theDifferenceIsNamedByItsItems() {
        let padding = String(repeating: "\"x\": 1, ", count: 40)
        let (mine, theirs) = WorkbookPackage.differingItems(
            "\"metrics\": {\(padding)\"bytes_wasted\": 357148, \"y\": 2}",
            "\"metrics\": {\(padding)\"bytes_wasted\": 515342, \"y\": 2}")
        #expect(mine == "\"bytes_wasted\": 357148")
        #expect(theirs == "\"bytes_wasted\": 515342")
        #expect(
            WorkbookPackage.differingItems("\"a\": 1", "\"a\": 1, \"b\": 2") == (
                "(end of line)", ", \"b\": 2"
            ))
    }

    @Test("A mutant's words are looked for in its failure message, in any case")
    func aMutantsWordsAreLookedFor() {
        let mutant = Mutant(
            "a failure recorded as .downloaded", file: "F.swift", inside: "func main", "a", "b",
            shows: ["Not a failure", "sepia"])
        #expect(mutant.missingWords(in: "only posters … the sepia filter, not a failure") == [])
        #expect(
            mutant.missingWords(in: "every row should end with its poster") == ["Not a failure", "sepia"])
    }
}

/// What `Course` judges beside an exercise's own expectations, and what `verify` leaves behind.
@Suite("Course's main thread check and verify's clean-up")
struct CourseMainThreadAndCleanUpTests {
    @Test("A chapter 2 to 4 check fails on a call off the main thread, naming the method and the thread")
    func aCallOffTheMainThreadFailsTheCheck() throws {
        let exercise = try #require(Exercises.named("2.5"))
        var run = RunReport(
            metrics: ["main_thread_checker_violations": 2], oracle: [:], finalShows: [])
        run.events = [
            TraceLine(
                name: "main_thread_violation",
                fields: ["method": "reloadRows(at:with:)", "thread": "download-1"])
        ]
        let failure = try #require(Judge.firstFailure(of: exercise, runs: ["course": run], baselines: [:]))
        #expect(failure.hasPrefix("the main thread checker saw 2 call(s) off the main thread"), "\(failure)")
        #expect(failure.contains("reloadRows(at:with:) on download-1"), "\(failure)")
        // Chapter 1's step does everything on the main thread: nothing to check there.
        #expect(Judge.mainThreadViolation(in: RunReport(metrics: [:], oracle: [:], finalShows: [])) == nil)
        #expect(!Judge.checksMainThread.contains(1))
    }

    @Test("verify removes the lock files SwiftPM leaves in the temporary folder for its scratch copy")
    func verifyRemovesItsBuildLocks() throws {
        let scratch = try makeScratchFolder("course-verify")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let temporary = FileManager.default.temporaryDirectory
        let prefix = scratch.path.replacingOccurrences(of: "/", with: "_")
        let locks = ["\(prefix)_.build.lock", "\(prefix)_.build_workspace-state.json.lock"].map {
            temporary.appendingPathComponent($0)
        }
        let other = temporary.appendingPathComponent("\(prefix)-other.lock")
        for file in locks + [other] {
            #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        }
        defer { try? FileManager.default.removeItem(at: other) }
        Verify.removeBuildLocks(of: scratch)
        for file in locks {
            #expect(!FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent)")
        }
        #expect(FileManager.default.fileExists(atPath: other.path))
    }
}
