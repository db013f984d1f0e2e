import Foundation

/// `Course verify`: proves, in a scratch copy of the package, that every exercise judges as it should.
///
/// A run exercise must pass as shipped. A change exercise must pass once its edit is made, and fail with
/// each of its mutants (at least two wrong edits). A write exercise must fail right after `start` (so a
/// student cannot pass without writing the code), pass once the code as shipped is put back (the
/// reference solution), and fail with each of its mutants (at least five wrong solutions). A mutant must
/// be caught with a message that shows its words. The walkthrough's exercise lists must match the table. The tests are built
/// once at the start, as `start` builds them for a student; each passing check then runs its
/// exercise's tests as a student's does, and a mutant's check runs them when only they catch it. Every
/// check is timed: the median and the longest are printed at the end, and a check over
/// `checkTimeLimit` is a failure.
enum Verify {
    /// The fewest wrong solutions a write exercise must prove it catches.
    static let mutantsPerWriteExercise = 5
    /// The fewest wrong edits a change exercise must prove it catches.
    static let mutantsPerChangeExercise = 2
    /// The longest a check may take, in seconds: feedback a student waits for, not a coffee break.
    static let checkTimeLimit = 30.0

    /// One check `verify` made: what it was, its wall time, and the processor time of the processes it
    /// ran (builds, steps, tests), which a busy machine does not stretch, in seconds.
    struct Timing {
        let what: String
        let seconds: Double
        let processorSeconds: Double
    }

    /// Each exercise's passing check (the one a student who got it right waits for), and every check.
    nonisolated(unsafe) static var passingChecks: [Timing] = []
    nonisolated(unsafe) static var allChecks: [Timing] = []

    /// The user and system time of every child process waited for so far, in seconds.
    static func childProcessorSeconds() -> Double {
        var usage = rusage()
        #if canImport(Darwin)
            getrusage(RUSAGE_CHILDREN, &usage)
        #else
            // Glibc imports the constant as an enumeration case.
            getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Runs a check, `what` naming it, and notes how long it took.
    static func timed(_ what: String, representative: Bool = false, _ check: () throws -> Bool) rethrows
        -> Bool
    {
        let started = (Date(), childProcessorSeconds())
        let passed = try check()
        let timing = Timing(
            what: what, seconds: Date().timeIntervalSince(started.0),
            processorSeconds: childProcessorSeconds() - started.1)
        allChecks.append(timing)
        if representative { passingChecks.append(timing) }
        return passed
    }

    /// The checks that took longer than `checkTimeLimit`, each in words.
    static func slowChecks(_ checks: [Timing]) -> [String] {
        checks.filter { $0.seconds > checkTimeLimit }.map {
            "check time: \($0.what) took \(String(format: "%.1f", $0.seconds)) s "
                + "(\(String(format: "%.1f", $0.processorSeconds)) s of processor time), over the "
                + "\(Int(checkTimeLimit)) s a check may take"
        }
    }

    /// The median of some numbers (0 for none).
    static func median(_ numbers: [Double]) -> Double {
        let sorted = numbers.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Verifies the exercises whose id starts with `prefix`; `here` works in the package itself (for a
    /// copy made to be thrown away), else in a scratch copy.
    static func run(prefix: String, from source: WorkbookPackage, here: Bool) throws -> Bool {
        var failures = walkthroughMismatches(package: source)
        for failure in failures { Course.say("FAIL  walkthrough: \(failure)") }
        let scratch = here ? source.folder : try copy(source)
        defer {
            if !here {
                try? FileManager.default.removeItem(at: scratch)
                removeBuildLocks(of: scratch)
            }
        }
        var course = try Course(package: WorkbookPackage(folder: scratch))
        course.quiet = true
        Course.say("Building the steps in \(here ? "place" : "a scratch copy (\(scratch.path))")…")
        for step in course.package.steps {
            if let errors = course.package.build(step.name) { throw CourseError("\(step.name): \(errors)") }
        }
        if Exercises.all.contains(where: { $0.id.hasPrefix(prefix) && $0.tests != nil }) {
            Course.say("Building the tests, as start does…")
            if let errors = course.package.buildTests() { throw CourseError("the tests: \(errors)") }
        }
        for exercise in Exercises.all where exercise.id.hasPrefix(prefix) {
            let verdict: String?
            do {
                verdict = try verify(exercise, with: &course)
            } catch {
                verdict = "\(error)"
            }
            if let verdict {
                failures.append("\(exercise.id): \(verdict)")
                Course.say("FAIL  \(exercise.id) \(course.texts[exercise].title): \(verdict)")
            } else {
                Course.say("ok    \(exercise.id) \(course.texts[exercise].title)")
            }
        }
        if let longest = allChecks.max(by: { $0.seconds < $1.seconds }) {
            func seconds(_ value: Double) -> String { String(format: "%.1f s", value) }
            func medians(_ timings: [Timing]) -> String {
                "median \(seconds(median(timings.map(\.seconds)))) "
                    + "(\(seconds(median(timings.map(\.processorSeconds)))) of processor time)"
            }
            let processorLongest = allChecks.max(by: { $0.processorSeconds < $1.processorSeconds })!
            Course.say(
                "\ncheck time: \(medians(passingChecks)) over \(passingChecks.count) exercise(s) (the passing "
                    + "check, its runs and tests); over all \(allChecks.count) checks made, \(medians(allChecks)); "
                    + "longest \(seconds(longest.seconds)) (\(longest.what)), longest in processor time "
                    + "\(seconds(processorLongest.processorSeconds)) (\(processorLongest.what))")
            for slow in slowChecks(allChecks) {
                failures.append(slow)
                Course.say("FAIL  \(slow)")
            }
        }
        Course.say(
            failures.isEmpty ? "\nevery exercise judges as it should" : "\n\(failures.count) problem(s)")
        return failures.isEmpty
    }

    /// Nil when the exercise judges as it should, else what is wrong.
    static func verify(_ exercise: Exercise, with course: inout Course) throws -> String? {
        let package = course.package
        guard let stepFolder = package.stepName(exercise.step) else {
            return "no folder for step \(exercise.step)"
        }
        switch exercise.kind {
        case .run:
            course.judgesPredictions = true
            defer { course.judgesPredictions = false }
            // A file the student writes: the check fails without it, and passes once it is written as the
            // walkthrough says.
            for path in exercise.studentFiles {
                try? FileManager.default.removeItem(at: package.folder.appendingPathComponent(path))
            }
            if !exercise.studentFiles.isEmpty {
                if try timed("\(exercise.id) with nothing written", { try course.check(exercise) }) {
                    return "it passes before \(exercise.studentFiles.joined(separator: ", ")) is written"
                }
                for run in exercise.runs {
                    guard case .file(let path, let recipe) = run.scenario else { continue }
                    let url = package.folder.appendingPathComponent(path)
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Course.text(of: recipe, package: package.folder).write(
                        to: url, atomically: true, encoding: .utf8)
                }
            }
            defer {
                for path in exercise.studentFiles {
                    try? FileManager.default.removeItem(at: package.folder.appendingPathComponent(path))
                }
            }
            return try timed(
                "\(exercise.id) as shipped", representative: true, { try course.check(exercise) })
                ? nil : course.lastFailure
        case .change(let edits):
            try course.start(exercise)
            defer { _ = try? course.reset(exercise) }
            for edit in edits {
                let url = package.folder.appendingPathComponent("Sources/\(stepFolder)/\(edit.file)")
                let text = try String(contentsOf: url, encoding: .utf8)
                guard
                    let changed = SwiftSource.replacing(
                        edit.old, with: edit.new, occurrence: edit.occurrence, inside: edit.inside, in: text)
                else { return "the edit does not apply: no \(edit.old.debugDescription) in \(edit.inside)" }
                try changed.write(to: url, atomically: true, encoding: .utf8)
            }
            guard
                try timed(
                    "\(exercise.id) with its edit", representative: true, { try course.check(exercise) })
            else { return "with the edit made: \(course.lastFailure ?? "")" }
            for file in exercise.files(stepFolder: stepFolder) {
                guard let original = course.progress.original(exercise.id, file: file) else {
                    return "the original of \(file) was not kept"
                }
                try original.write(
                    to: package.folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
            }
            if exercise.mutants.count < Self.mutantsPerChangeExercise {
                return "it has \(exercise.mutants.count) mutant(s): a change exercise needs at least "
                    + "\(Self.mutantsPerChangeExercise), each a wrong edit students make"
            }
            return try catchesMutants(of: exercise, in: stepFolder, with: &course)
        case .write:
            try course.start(exercise)
            defer { _ = try? course.reset(exercise) }
            if try timed("\(exercise.id) right after start", { try course.check(exercise, runTests: false) })
            {
                return "it passes with the code taken away: the check cannot tell"
            }
            let stubbed = course.lastFailure ?? ""
            for file in exercise.files(stepFolder: stepFolder) {
                guard let original = course.progress.original(exercise.id, file: file) else {
                    return "the original of \(file) was not kept"
                }
                try original.write(
                    to: package.folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
            }
            guard try timed("\(exercise.id) as shipped", representative: true, { try course.check(exercise) })
            else {
                return "the code as shipped does not pass: \(course.lastFailure ?? "")"
            }
            if exercise.mutants.count < Self.mutantsPerWriteExercise {
                return "it has \(exercise.mutants.count) mutant(s): a write exercise needs at least "
                    + "\(Self.mutantsPerWriteExercise), each a mistake students make"
            }
            if let problem = try catchesMutants(of: exercise, in: stepFolder, with: &course) {
                return problem
            }
            Course.say("      (with the code taken away: \(stubbed.split(separator: "\n").first ?? ""))")
            return nil
        }
    }

    /// Nil when the check fails with each of the exercise's mutants (made from the code as shipped, one
    /// at a time, and taken back after) with a message that shows the mutant's words; else what is wrong.
    static func catchesMutants(of exercise: Exercise, in stepFolder: String, with course: inout Course) throws
        -> String?
    {
        let package = course.package
        for (number, mutant) in exercise.mutants.enumerated() {
            var originals: [URL: String] = [:]
            for edit in mutant.edits {
                let url = package.folder.appendingPathComponent("Sources/\(stepFolder)/\(edit.file)")
                if originals[url] == nil { originals[url] = try String(contentsOf: url, encoding: .utf8) }
                guard
                    let changed = SwiftSource.replacing(
                        edit.old, with: edit.new, occurrence: edit.occurrence, inside: edit.inside,
                        in: try String(contentsOf: url, encoding: .utf8))
                else {
                    for (url, text) in originals {
                        try text.write(to: url, atomically: true, encoding: .utf8)
                    }
                    return "mutant \(number + 1) (\(mutant.mistake)) does not apply: no "
                        + "\(edit.old.debugDescription) in \(edit.inside)"
                }
                try changed.write(to: url, atomically: true, encoding: .utf8)
            }
            let caught =
                !(try timed("\(exercise.id) mutant \(number + 1)") {
                    try course.check(exercise, runTests: mutant.byTests)
                })
            for (url, text) in originals { try text.write(to: url, atomically: true, encoding: .utf8) }
            guard caught else {
                return "mutant \(number + 1) (\(mutant.mistake)) passes: the check cannot tell"
            }
            let message = course.lastFailure ?? ""
            if mutant.shows.isEmpty {
                return "mutant \(number + 1) (\(mutant.mistake)) does not say which words its failure "
                    + "must show"
            }
            let missing = mutant.missingWords(in: message)
            guard missing.isEmpty else {
                return "mutant \(number + 1) (\(mutant.mistake)) is caught with a message that does not "
                    + "name it (no \(missing.map { "“\($0)”" }.joined(separator: ", "))): "
                    + "\(message.split(separator: "\n").prefix(2).joined(separator: " / "))"
            }
            let reason = message.split(separator: "\n").first ?? ""
            Course.say("      caught mutant \(number + 1), \(mutant.mistake): \(reason)")
        }
        return nil
    }

    /// Removes the lock files SwiftPM leaves in the temporary folder for a package's build folder
    /// (`_tmp_course-verify-…_.build.lock` and the like: the folder's path, slashes made underscores).
    static func removeBuildLocks(of package: URL) {
        let temporary = FileManager.default.temporaryDirectory
        let prefix = package.path.replacingOccurrences(of: "/", with: "_") + "_"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        where name.hasPrefix(prefix) && name.hasSuffix(".lock") {
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }

    /// A copy of the package without its build products, git data, progress and outputs.
    static func copy(_ package: WorkbookPackage) throws -> URL {
        let scratch = try makeScratchFolder("course-verify")
        let skipped: Set<String> = [".build", ".git", ".course", "out", ".swiftpm", "Benchmarks", "Fuzz"]
        for name in try FileManager.default.contentsOfDirectory(atPath: package.folder.path)
        where !skipped.contains(name) {
            try FileManager.default.copyItem(
                at: package.folder.appendingPathComponent(name), to: scratch.appendingPathComponent(name))
        }
        return scratch
    }

    /// Where the walkthrough's exercise lists and the table disagree.
    static func walkthroughMismatches(package: WorkbookPackage) -> [String] {
        guard let texts = try? ExerciseTexts.read(package: package) else {
            return ["cannot read \(ExerciseTexts.file(of: package).path)"]
        }
        return mismatches(walkthrough: texts.items, table: Exercises.all)
    }

    /// The one-source rule: each entry of the table has exactly one item in the walkthrough, which gives its
    /// title, its task and a command to try, and each item an entry: items given twice first, then the
    /// table's entries in order, then the items without an entry.
    static func mismatches(walkthrough: [ExerciseText], table: [Exercise]) -> [String] {
        var problems: [String] = []
        let listed = Dictionary(grouping: walkthrough, by: \.id)
        for (id, items) in listed.sorted(by: { $0.key < $1.key }) where items.count > 1 {
            problems.append("exercise \(id) has \(items.count) items in Walkthrough.md")
        }
        for exercise in table {
            guard let item = listed[exercise.id]?.first else {
                problems.append(
                    "exercise \(exercise.id) has no item in Walkthrough.md (its title and task are written there)"
                )
                continue
            }
            if item.title.isEmpty || item.task.isEmpty {
                problems.append("exercise \(exercise.id)'s item in Walkthrough.md has no title or no task")
            }
            if item.commands.isEmpty {
                problems.append(
                    "exercise \(exercise.id)'s item in Walkthrough.md names no command to try before “You should "
                        + "see” (`swift run Step…`, or `swift run Course check \(exercise.id)`)")
            }
        }
        let known = Set(table.map(\.id))
        for item in walkthrough where !known.contains(item.id) {
            problems.append(
                "exercise \(item.id) (“\(item.title)”) of Walkthrough.md is not in Course's table")
        }
        return problems
    }
}
