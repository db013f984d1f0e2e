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
        #expect(error.contains("line 3 of the --json report"), "\(error)")
        #expect(error.contains("Set"), "\(error)")
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
