import Foundation
import Testing

@testable import Course

/// The parts of `Course coverage` that need no instrumented build: reading `llvm-cov`'s export, finding
/// an exercise's lines, and matching the regions known to be unreachable. (`Scripts/check-exercise-coverage`,
/// run by CI, builds with coverage and plays the runs.)
@Suite("The exercise coverage check")
struct CoverageTests {
    static let package = WorkbookPackage(folder: Step.sourcesFolder.deletingLastPathComponent())

    /// An export with two functions of `A.swift` (one compiled twice) and one of `B.swift`.
    static let export = """
        {"data": [{"functions": [
          {"name": "f", "filenames": ["/x/Sources/S/A.swift"],
           "regions": [[3, 10, 9, 2, 4, 0, 0, 0], [5, 20, 7, 6, 2, 0, 0, 0], [6, 1, 6, 9, 0, 0, 0, 2]]},
          {"name": "f-copy", "filenames": ["/x/Sources/S/A.swift"],
           "regions": [[5, 20, 7, 6, 0, 0, 0, 0]]},
          {"name": "g", "filenames": ["/x/Sources/S/B.swift"], "regions": [[1, 1, 2, 2, 0, 0, 0, 0]]}
        ]}]}
        """

    @Test(
        "The export's code regions of the files asked for are read, a region compiled twice summing its runs")
    func readsTheExport() throws {
        let counts = try Coverage.regions(fromExport: Data(Self.export.utf8), files: ["A.swift"])
        #expect(Set(counts.keys) == ["A.swift"])
        let regions = try #require(counts["A.swift"])
        // The skipped region (kind 2) is left out; the region compiled twice ran in its first copy only.
        #expect(regions.count == 2)
        #expect(regions[Coverage.CodeRegion(line: 3, column: 10, endLine: 9, endColumn: 2)] == 4)
        #expect(regions[Coverage.CodeRegion(line: 5, column: 20, endLine: 7, endColumn: 6)] == 2)
    }

    @Test("Something that is not an export is refused")
    func refusesOtherText() {
        #expect(throws: CourseError.self) {
            try Coverage.regions(fromExport: Data("[1, 2]".utf8), files: ["A.swift"])
        }
    }

    @Test("A region contains the regions inside it, and itself, not one that starts before it")
    func containment() {
        let outer = Coverage.CodeRegion(line: 3, column: 10, endLine: 9, endColumn: 2)
        let inner = Coverage.CodeRegion(line: 5, column: 20, endLine: 7, endColumn: 6)
        let across = Coverage.CodeRegion(line: 2, column: 1, endLine: 4, endColumn: 1)
        #expect(outer.contains(inner))
        #expect(outer.contains(outer))
        #expect(!inner.contains(outer))
        #expect(!outer.contains(across))
    }

    @Test(
        "Every write and change exercise's code is found, within its file, spanning its declaration's lines",
        arguments: Exercises.all.filter {
            if case .run = $0.kind { return false } else { return true }
        }.map(\.id))
    func findsTheSpans(id: String) throws {
        let exercise = try #require(Exercises.named(id))
        let step = try #require(Self.package.stepName(exercise.step))
        let spans = try Coverage.spans(of: exercise, stepFolder: step, package: Self.package)
        #expect(!spans.isEmpty)
        for span in spans {
            let text = try String(
                contentsOf: Self.package.folder.appendingPathComponent("Sources/\(step)/\(span.file)"),
                encoding: .utf8)
            #expect(span.first >= 1 && span.first <= span.last)
            #expect(span.last <= text.components(separatedBy: "\n").count)
        }
    }

    @Test("A known unreachable region is matched by its exercise, its line's text and that line's occurrence")
    func matchesKnownUnreachable() throws {
        let exercise = try #require(Exercises.named("2.4"))
        let step = try #require(Self.package.stepName(exercise.step))
        let span = try #require(
            try Coverage.spans(of: exercise, stepFolder: step, package: Self.package).first)
        let lines = try String(
            contentsOf: Self.package.folder.appendingPathComponent("Sources/\(step)/\(span.file)"),
            encoding: .utf8
        ).components(separatedBy: "\n")
        let checks = (span.first...span.last).filter { lines[$0 - 1].contains("if isCancelled {") }
        try #require(checks.count == 2)
        #expect(Coverage.known(exercise: "2.4", line: checks[0], of: lines, span: span)?.occurrence == 1)
        #expect(Coverage.known(exercise: "2.4", line: checks[1], of: lines, span: span)?.occurrence == 2)
        // The same line in another exercise, and another line of this one, are not excused.
        #expect(Coverage.known(exercise: "4.8", line: checks[0], of: lines, span: span) == nil)
        #expect(Coverage.known(exercise: "2.4", line: span.first, of: lines, span: span) == nil)
    }

    @Test("Every region listed as unreachable names a write or change exercise")
    func unreachableEntriesNameExercises() {
        for entry in Coverage.unreachable {
            let exercise = Exercises.named(entry.exercise)
            #expect(exercise != nil, "no exercise \(entry.exercise)")
            if case .run? = exercise?.kind { Issue.record("\(entry.exercise) is a run exercise") }
        }
    }
}
