import Files
import Foundation
import Shared
import TestSupport
import Testing

@testable import Course

/// The walkthrough's exercises, from `Course`'s table: the run exercises' promises hold on the code as
/// shipped, and every exercise that edits code finds that code (`ExerciseTextTests`: the walkthrough's items
/// give their words).
/// (`swift run Course verify`, run by CI, makes the edits and checks the write exercises.) The brace
/// matcher `Course` finds code with is tested here too (below).
@Suite("The walkthrough's exercises")
struct ExerciseTests {
    static let package = WorkbookPackage(folder: Step.sourcesFolder.deletingLastPathComponent())

    static var runExercises: [String] {
        Exercises.all.filter { if case .run = $0.kind { return true } else { return false } }.map(\.id)
    }

    /// Plays an exercise's runs in-process, as `Course check` plays them as processes, and reads the
    /// reports the same way.
    static func reports(for exercise: Exercise) throws -> [String: RunReport] {
        let folder = try StepFixtures.folder("exercise-\(exercise.id)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var reports: [String: RunReport] = [:]
        for spec in exercise.runs {
            let step = try #require(Self.step(for: spec, of: exercise))
            let scenario: String
            switch spec.scenario {
            case .builtIn(let name):
                scenario = name
            case .file(let path, let recipe):
                scenario = folder.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent).path
                try Course.text(of: recipe, package: package.folder).write(
                    toFile: scenario, atomically: true, encoding: .utf8)
            }
            let options = spec.options.map {
                $0 == "{cache}" ? folder.appendingPathComponent("cache").path : $0
            }
            let result: RunResult
            if options.isEmpty, case .builtIn = spec.scenario {
                result = try SharedRuns.shared.result(step, scenario)
            } else {
                let parsed = try OptionsParser.parse(
                    ["--scenario", scenario] + options, techniques: step.info.techniques)
                result = try Workbook.run(
                    step: step.rawValue, options: parsed, keepTrace: spec.traced, makeApp: step.makeApp)
            }
            var report = try WorkbookPackage.report(fromJSON: Data(JSONReport.render(result).utf8))
            report.events = WorkbookPackage.events(
                fromTrace: Array(result.trace.map(\.jsonLine).joined(separator: "\n").utf8))
            reports[spec.label] = report
        }
        return reports
    }

    /// The step a run plays, found the way `Course` finds it: by number, among the step folders.
    static func step(for spec: RunSpec, of exercise: Exercise) -> Step? {
        switch spec.step {
        case .this: return Step.allCases.first { $0.number == exercise.step }
        case .previous: return Step.allCases.last { $0.number < exercise.step }
        }
    }

    @Test("Each predict-and-run exercise shows what the walkthrough says")
    func runExerciseHolds() throws {
        for id in Self.runExercises {
            let exercise = try #require(Exercises.named(id), "\(id)")
            let reports = try Self.reports(for: exercise)
            let failure = Judge.firstFailure(of: exercise, runs: reports, baselines: [:])
            #expect(failure == nil, "\(id): exercise \(id): \(failure ?? "")")
        }
    }

    @Test(
        "The exercise table is well formed, knows each exercise the walkthrough runs Course on, finds the code it edits, and gives each write exercise five named mutants and each change exercise two"
    )
    func exerciseTable() throws {
        // Every exercise names a step folder, has hints, and an id that fits its chapter.
        do {
            var seen: Set<String> = []
            for exercise in Exercises.all {
                #expect(seen.insert(exercise.id).inserted, "\(exercise.id) twice")
                #expect(
                    Self.package.stepName(exercise.step) != nil,
                    "\(exercise.id): no Step\(exercise.step) folder")
                #expect(!exercise.hints.isEmpty, "\(exercise.id) has no hint")
                #expect(!exercise.expectations.isEmpty, "\(exercise.id) judges nothing")
                #expect(
                    exercise.id.hasPrefix("\(exercise.step)."),
                    "\(exercise.id) is in chapter \(exercise.step)")
            }
        }
        // Every `swift run Course` command of the walkthrough names an exercise Course knows.
        do {
            let text = try String(contentsOfFile: WalkthroughBlocks.documentPath, encoding: .utf8)
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "`" }).map(String.init)
            var named = 0
            for index in words.indices.dropLast(4)
            where words[index] == "swift" && words[index + 1] == "run" && words[index + 2] == "Course"
                && ["start", "check", "hint", "reset", "watch"].contains(words[index + 3])
            {
                let id = words[index + 4].trimmingCharacters(in: CharacterSet(charactersIn: ".,;:)"))
                if words[index + 3] == "reset" && id == "--all" { continue }
                #expect(Exercises.named(id) != nil, "Walkthrough.md runs Course on an unknown exercise \(id)")
                named += 1
            }
            #expect(named >= 20)
        }
        // Every exercise that edits code finds that code in the step as shipped.
        do {
            for exercise in Exercises.all {
                let folder = try #require(
                    Self.package.stepName(exercise.step), "no folder for \(exercise.id)")
                func text(_ file: String) throws -> String {
                    try String(
                        contentsOf: Self.package.folder.appendingPathComponent("Sources/\(folder)/\(file)"),
                        encoding: .utf8)
                }
                for edit in exercise.mutants.flatMap(\.edits) {
                    let changed = SwiftSource.replacing(
                        edit.old, with: edit.new, occurrence: edit.occurrence, inside: edit.inside,
                        in: try text(edit.file))
                    #expect(
                        changed != nil,
                        "exercise \(exercise.id): a mutant's \(edit.old.debugDescription) is gone"
                    )
                }
                switch exercise.kind {
                case .run:
                    break
                case .change(let edits):
                    for edit in edits {
                        let changed = SwiftSource.replacing(
                            edit.old, with: edit.new, occurrence: edit.occurrence, inside: edit.inside,
                            in: try text(edit.file))
                        #expect(
                            changed != nil,
                            "exercise \(exercise.id): no \(edit.old.debugDescription) in \(edit.inside)")
                    }
                case .write(let blanks):
                    for blank in blanks {
                        let source = try text(blank.file)
                        let changed =
                            blank.statement.map {
                                SwiftSource.blankingStatement(
                                    $0, inside: blank.declaration, in: source, todo: ["TODO"])
                            }
                            ?? SwiftSource.blankingBody(
                                of: blank.declaration, in: source, todo: ["TODO"], placeholder: nil)
                        #expect(
                            changed != nil,
                            "exercise \(exercise.id): no \(blank.declaration) in \(blank.file)")
                        #expect(changed != source)
                    }
                }
            }
        }
        // Every write exercise lists at least five mutants and every change exercise two, each a named
        // mistake with the words its failure shows.
        do {
            for exercise in Exercises.all {
                let fewest: Int
                switch exercise.kind {
                case .run: continue
                case .change: fewest = Verify.mutantsPerChangeExercise
                case .write: fewest = Verify.mutantsPerWriteExercise
                }
                #expect(
                    exercise.mutants.count >= fewest,
                    "exercise \(exercise.id) has \(exercise.mutants.count) mutant(s)")
                for mutant in exercise.mutants {
                    #expect(
                        !mutant.mistake.isEmpty && !mutant.edits.isEmpty && !mutant.shows.isEmpty,
                        "exercise \(exercise.id)")
                }
            }
        }
    }

    @Test(
        "A check finds the report among prints, fails a slow check by its wall time, counts runtime warnings in one line, and names a final screen's first differing row"
    )
    func checkReadsTheStep() throws {
        // A step's report is found among whatever the student's code printed around it.
        do {
            let json = "{\n  \"step\": \"Step2Background\",\n  \"metrics\": {\"decodes\": 3}\n}\n"
            // Buffered prints land before, inside a line around, and after the report.
            let printed = "here {\n  \"step\": no\nrow 3 lo" + json + "aded\nrow 4 loaded\n"
            let report = try WorkbookPackage.report(fromOutput: Data(printed.utf8), of: "Step2Background")
            #expect(report.metrics["decodes"] == 3)
            #expect(throws: CourseError.self) {
                try WorkbookPackage.report(fromOutput: Data("row 3 loaded\n".utf8), of: "Step2Background")
            }
        }
        // Verify fails a check slower than the limit, by its wall time, and names it.
        do {
            let limit = Verify.checkTimeLimit
            let checks = [
                Verify.Timing(what: "2.4 as shipped", seconds: limit - 1, processorSeconds: 5),
                Verify.Timing(what: "4.7 mutant 1", seconds: limit + 1, processorSeconds: 12),
            ]
            let slow = Verify.slowChecks(checks)
            #expect(slow.count == 1)
            #expect(slow.first?.hasPrefix("check time: 4.7 mutant 1 took ") == true, "\(slow)")
        }
        // A runtime warning on standard error is one line, with how many more there were.
        do {
            let errors = String(
                repeating: "SWIFT TASK CONTINUATION MISUSE: image(for:preview:) leaked its continuation\n",
                count: 3)
            #expect(
                WorkbookPackage.runtimeWarning(in: errors)
                    == "SWIFT TASK CONTINUATION MISUSE: image(for:preview:) leaked its continuation "
                    + "(and 2 more such line(s))")
            #expect(WorkbookPackage.runtimeWarning(in: "") == nil)
            #expect(WorkbookPackage.runtimeWarning(in: "loaded row 3\n") == nil)
            // The workbook's own notices are judged from the report, not taken for a runtime warning.
            let cut = RunNotice.cut(atSeconds: 601, settleSeconds: 600)
            #expect(WorkbookPackage.runtimeWarning(in: "Step2Background: \(cut)\n") == nil)
            #expect(
                WorkbookPackage.runtimeWarning(in: "Step2Background: \(cut)\nwarning: something else\n")
                    == "warning: something else")
        }
        // A final screen that differs from the code as shipped is named by its first differing row.
        do {
            let shipped = RunReport(
                metrics: [:], oracle: [:], finalShows: ["image", "failed"], finalHashes: ["ab", "cd"])
            var mine = shipped
            #expect(Judge.screenDifference(mine, shipped) == nil)
            mine.finalHashes[1] = "ef"
            #expect(Judge.screenDifference(mine, shipped)?.contains("row 2") == true)
            mine.finalShows[0] = "placeholder"
            #expect(Judge.screenDifference(mine, shipped)?.contains("row 1 shows placeholder") == true)
        }
    }

}

/// The brace matcher `Course` finds code with.
extension ExerciseTests {
    static let sample = """
        final class Cell {
            /// Not this one: `func prepareForReuse() {`
            let note = "a } in a string { "
            override func prepareForReuse() {
                super.prepareForReuse()
                if let load { load.cancel() }  // a } in a comment
            }

            func prepareForReuseLater() {}
        }
        """

    @Test(
        "The brace matcher finds a body past braces in strings and comments, takes a statement to the end of its braces, and replaces the n-th occurrence"
    )
    func braceMatcher() throws {
        // A body is found past braces in strings and comments, and a longer name is not taken for it.
        do {
            let blanked = try #require(
                SwiftSource.blankingBody(
                    of: "func prepareForReuse", in: Self.sample, todo: ["TODO"], placeholder: nil))
            #expect(!blanked.contains("super.prepareForReuse()"))
            #expect(blanked.contains("        // TODO\n    }\n\n    func prepareForReuseLater() {}"))
            #expect(blanked.contains("let note = \"a } in a string { \""))
        }
        // A statement is taken away to the end of its braces.
        do {
            let blanked = try #require(
                SwiftSource.blankingStatement(
                    "if let load", inside: "func prepareForReuse", in: Self.sample, todo: ["TODO"]))
            #expect(blanked.contains("super.prepareForReuse()\n        // TODO\n    }"))
        }
        // The n-th occurrence inside a declaration is the one replaced; a missing one is nil.
        do {
            let text = "func a() { x; x }\nfunc b() { x }"
            #expect(
                SwiftSource.replacing("x", with: "y", occurrence: 2, inside: "func a", in: text)
                    == "func a() { x; y }\nfunc b() { x }")
            #expect(SwiftSource.replacing("x", with: "y", occurrence: 3, inside: "func a", in: text) == nil)
            #expect(SwiftSource.replacing("x", with: "y", occurrence: 1, inside: "func c", in: text) == nil)
        }
    }

}
