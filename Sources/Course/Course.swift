import Foundation

/// The commands: `list`, `start`, `check`, `hint`, `reset`, `watch`, and `verify` for teachers and CI.
struct Course {
    let package: WorkbookPackage
    var progress: Progress
    /// Where `say` writes (standard output, or nothing while `verify` works quietly).
    var quiet = false
    /// Why the last `check` failed.
    var lastFailure: String?
    /// Whether `check` judges a prediction exercise's runs too (for `verify`, which proves what the
    /// walkthrough promises of them): a student's check has nothing of theirs to judge there.
    var judgesPredictions = false
    /// The exercises' titles and tasks, as the walkthrough writes them.
    let texts: ExerciseTexts

    /// Reads the package's progress and its walkthrough (throws when the walkthrough cannot be read).
    init(package: WorkbookPackage) throws {
        self.package = package
        progress = Progress(package: package.folder)
        texts = try ExerciseTexts.read(package: package)
    }

    func say(_ text: String) {
        if !quiet { Course.say(text) }
    }

    /// Prints a line at once, even into a pipe.
    static func say(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    // MARK: list

    func list() {
        var done = 0
        var chapter = 0
        for exercise in Exercises.all {
            let chapterNumber = Int(exercise.id.split(separator: ".").first ?? "") ?? 0
            if chapterNumber != chapter {
                chapter = chapterNumber
                say(
                    "\nChapter \(chapter) · \(package.stepName(exercise.step) ?? "no Step\(exercise.step) folder")"
                )
            }
            let state = progress.state(exercise.id)
            if state == .done { done += 1 }
            let mark = state == .done ? "[x]" : state == .started ? "[~]" : "[ ]"
            let current = progress.current == exercise.id && state == .started ? "  <- current" : ""
            say(
                "  \(mark) \(exercise.id.padding(toLength: 5, withPad: " ", startingAt: 0)) "
                    + "\(kindWord(exercise).padding(toLength: 7, withPad: " ", startingAt: 0)) "
                    + "\(texts[exercise].title) (\(state.rawValue))\(current)")
        }
        let covered = Set(Exercises.all.map(\.step))
        for step in package.steps where !covered.contains(step.number) {
            say("\nStep \(step.number) · \(step.name): no exercises yet")
        }
        say("\nProgress: \(done) of \(Exercises.all.count) done.")
        if let next = Exercises.all.first(where: { progress.state($0.id) != .done }) {
            say("Next: swift run Course start \(next.id)")
        }
    }

    func kindWord(_ exercise: Exercise) -> String {
        switch exercise.kind {
        case .run: return "run"
        case .change: return "change"
        case .write: return "write"
        }
    }

    // MARK: start

    /// Prepares an exercise: keeps the originals, records the shipped code's runs, removes code to write.
    mutating func start(_ exercise: Exercise) throws {
        guard let stepFolder = package.stepName(exercise.step) else {
            throw CourseError("there is no Sources/Step\(exercise.step)… folder for exercise \(exercise.id)")
        }
        let files = exercise.files(stepFolder: stepFolder)
        if progress.state(exercise.id) != .started {
            try progress.keepOriginals(exercise.id, files: files, package: package.folder)
            if exercise.needsBaseline || exercise.runs.contains(where: { $0.step == .previous }) {
                say("Recording the runs of the code as shipped, to compare yours with…")
                let baselines = try runAll(exercise, only: .this)
                try save(baselines, to: progress.baselineFile(exercise.id))
                try save(try runAll(exercise, only: .previous), to: progress.previousFile(exercise.id))
            }
            if exercise.tests != nil {
                say("Building the tests once, so that check runs them in seconds (minutes the first time)…")
                if let errors = package.buildTests() {
                    throw CourseError("the tests do not build:\n\(errors)")
                }
            }
            if case .write(let blanks) = exercise.kind {
                try blank(blanks, of: exercise, in: stepFolder)
                for file in files {
                    let kept = progress.blankedFolder(exercise.id).appendingPathComponent(file)
                    try FileManager.default.createDirectory(
                        at: kept.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try? FileManager.default.removeItem(at: kept)
                    try FileManager.default.copyItem(
                        at: package.folder.appendingPathComponent(file), to: kept)
                }
            }
            let wasDone = progress.state(exercise.id) == .done
            progress.set(exercise.id, .started)
            if wasDone { say("(You passed this exercise before: the ✓ comes back with the next pass.)") }
            try progress.save()
        }
        say("Exercise \(exercise.id) · \(texts[exercise].title) (\(kindWord(exercise)))\n")
        say(texts[exercise].taskLines(width: 100).joined(separator: "\n"))
        if !files.isEmpty {
            say("\nFile\(files.count > 1 ? "s" : "") to edit: " + files.joined(separator: ", "))
        }
        say("\nTry:")
        for command in texts[exercise].commands { say("  " + command) }
        say(
            "\nWhen you are done: swift run Course check \(exercise.id)   (stuck? swift run Course hint \(exercise.id))"
        )
    }

    func save(_ runs: [String: RunReport], to file: URL) throws {
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONEncoder().encode(runs).write(to: file)
    }

    /// Takes away the code a write exercise asks for, leaving `// TODO` lines with the task.
    func blank(_ blanks: [Blank], of exercise: Exercise, in stepFolder: String) throws {
        let check = "swift run Course check \(exercise.id)"
        let task = texts[exercise].taskLines(width: 90)
        let todo =
            ["TODO(exercise \(exercise.id)): \(texts[exercise].title)."] + task
            + (texts[exercise].commands.contains(check) ? [] : ["Check with: \(check)"])
        for (index, blank) in blanks.enumerated() {
            let url = package.folder.appendingPathComponent("Sources/\(stepFolder)/\(blank.file)")
            let text = try String(contentsOf: url, encoding: .utf8)
            let note =
                index == 0
                ? todo
                : [
                    "TODO(exercise \(exercise.id)): see above, or the task in `swift run Course start \(exercise.id)`."
                ]
            let changed: String?
            if let statement = blank.statement {
                changed = SwiftSource.blankingStatement(
                    statement, inside: blank.declaration, in: text, todo: note)
            } else {
                changed = SwiftSource.blankingBody(
                    of: blank.declaration, in: text, todo: note, placeholder: blank.placeholder)
            }
            guard let changed else {
                throw CourseError("cannot find `\(blank.statement ?? blank.declaration)` in \(url.path)")
            }
            try changed.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    // MARK: check

    /// Judges an exercise; true when it passes (and records it as done).
    @discardableResult
    mutating func check(_ exercise: Exercise, runTests: Bool = true) throws -> Bool {
        guard let stepFolder = package.stepName(exercise.step) else {
            throw CourseError("there is no Sources/Step\(exercise.step)… folder for exercise \(exercise.id)")
        }
        if case .run = exercise.kind {
            if exercise.studentFiles.isEmpty, !judgesPredictions {
                say(
                    "\(exercise.id) \(texts[exercise].title): nothing to check: compare your prediction with the "
                        + "run (\(texts[exercise].commands.joined(separator: "; ")))."
                )
                if !texts[exercise].outcome.isEmpty {
                    say(
                        ExerciseText.wrapped("The walkthrough: " + texts[exercise].outcome, width: 100)
                            .joined(separator: "\n"))
                }
                progress.set(exercise.id, .done)
                try progress.save()
                return true
            }
            let missing = exercise.studentFiles.filter {
                !FileManager.default.fileExists(atPath: package.folder.appendingPathComponent($0).path)
            }
            if !missing.isEmpty {
                return fail(
                    exercise,
                    "\(missing.joined(separator: " and ")) \(missing.count == 1 ? "is" : "are") not there yet: the "
                        + "exercise asks you to write \(missing.count == 1 ? "it" : "them") (swift run Course start "
                        + "\(exercise.id) says how)")
            }
        } else if progress.state(exercise.id) == .notStarted {
            throw CourseError("start it first: swift run Course start \(exercise.id)")
        }
        if case .change = exercise.kind {
            let files = exercise.files(stepFolder: stepFolder)
            let unchanged = files.allSatisfy { file in
                progress.original(exercise.id, file: file)
                    == (try? String(contentsOf: package.folder.appendingPathComponent(file), encoding: .utf8))
            }
            if unchanged {
                return fail(exercise, "you have not changed \(files.joined(separator: ", ")) yet")
            }
        }
        if case .write = exercise.kind {
            let files = exercise.files(stepFolder: stepFolder)
            let untouched = files.filter { file in
                let blanked = try? String(
                    contentsOf: progress.blankedFolder(exercise.id).appendingPathComponent(file),
                    encoding: .utf8)
                return blanked != nil
                    && blanked
                        == (try? String(
                            contentsOf: package.folder.appendingPathComponent(file), encoding: .utf8))
            }
            if untouched.count == files.count {
                return fail(
                    exercise,
                    "nothing written yet: \(files.joined(separator: ", ")) still hold\(files.count == 1 ? "s" : "") "
                        + "the // TODO that start left")
            }
        }
        var baselines: [String: RunReport] = [:]
        if exercise.needsBaseline {
            guard let data = try? Data(contentsOf: progress.baselineFile(exercise.id)) else {
                throw CourseError(
                    "the runs recorded at start are missing: swift run Course reset \(exercise.id), then start it"
                )
            }
            baselines = try JSONDecoder().decode([String: RunReport].self, from: data)
        }
        var runs: [String: RunReport]
        do {
            // The previous step's code is untouched: its runs recorded at start stand (run now if missing).
            if case .run = exercise.kind {
                runs = try runAll(exercise)
            } else {
                runs = try runAll(exercise, only: .this)
                let recorded = (try? Data(contentsOf: progress.previousFile(exercise.id))).flatMap {
                    try? JSONDecoder().decode([String: RunReport].self, from: $0)
                }
                let previous = exercise.runs.filter { $0.step == .previous }
                if let recorded, previous.allSatisfy({ recorded[$0.label] != nil }) {
                    runs.merge(recorded) { mine, _ in mine }
                } else if !previous.isEmpty {
                    runs.merge(try runAll(exercise, only: .previous)) { mine, _ in mine }
                }
            }
        } catch let error as CourseError {
            return fail(exercise, error.description)
        }
        if let failure = Judge.firstFailure(of: exercise, runs: runs, baselines: baselines)
            ?? ReferenceComparison.firstDifference(of: exercise, runs: runs, baselines: baselines)
        {
            return fail(exercise, failure)
        }
        if runTests, let filter = exercise.tests {
            say("Running the step's tests (swift test --filter \"\(filter)\")…")
            if let errors = package.buildTests() {
                return fail(exercise, "the tests do not build:\n\(errors)")
            }
            let outcome = package.execute(
                "swift", ["test", "--skip-build", "--filter", filter], limits: .tests)
            if outcome.status != 0 {
                return fail(exercise, Self.testFailure(outcome.output, limits: .tests))
            }
        }
        progress.set(exercise.id, .done)
        try progress.save()
        let done = Exercises.all.filter { progress.state($0.id) == .done }.count
        say("✓ \(exercise.id) \(texts[exercise].title): passed. \(done) of \(Exercises.all.count) done.")
        if let next = Exercises.all.first(where: { progress.state($0.id) != .done }) {
            say("Next: swift run Course start \(next.id)")
        }
        return true
    }

    /// Why a `swift test` run failed, the failing expectation first: the issues the tests recorded (with
    /// their messages), a crash's fatal error, or the time limit, then the other lines that say so.
    static func testFailure(_ output: String, limits: Limits) -> String {
        let lines = output.split(separator: "\n").map(String.init)
        // An issue's comment (`#expect(…, "comment")`) is on the lines after it, each starting with ↳.
        var issues: [String] = []
        for (index, line) in lines.enumerated()
        where line.contains("recorded an issue") || line.contains("Fatal error") {
            let comments = lines[(index + 1)...].prefix { $0.hasPrefix("↳ ") }.map { String($0.dropFirst(2)) }
            issues.append(([line] + comments).joined(separator: " "))
        }
        let errors = lines.filter {
            $0.contains("error:") && !$0.contains("recorded an issue") && !$0.contains("Fatal error")
        }
        let stopped = lines.filter { $0.contains("did not finish within") }
        var shown = (stopped + issues + errors).prefix(4).map { line in
            line.count > 400 ? line.prefix(400) + "…" : Substring(line)
        }
        if shown.isEmpty { shown = lines.suffix(4).map { Substring($0) } }
        if !stopped.isEmpty {
            return "the tests did not finish within \(Int(limits.seconds ?? 0)) s (stopped): does a loop in "
                + "your code never end?\n" + shown.dropFirst().joined(separator: "\n")
        }
        return "the tests failed: " + shown.joined(separator: "\n")
    }

    mutating func fail(_ exercise: Exercise, _ reason: String) -> Bool {
        lastFailure = reason
        say("✗ \(exercise.id) \(texts[exercise].title): \(reason)")
        say("  Stuck? swift run Course hint \(exercise.id)")
        return false
    }

    // MARK: hint, reset

    mutating func hint(_ exercise: Exercise) throws {
        progress.countHint(exercise.id)
        try progress.save()
        let given = min(progress.hints(exercise.id), exercise.hints.count)
        for (index, hint) in exercise.hints.prefix(given).enumerated() {
            say("Hint \(index + 1) of \(exercise.hints.count): \(hint)")
        }
        if progress.hints(exercise.id) > exercise.hints.count, case .write = exercise.kind {
            say(
                "No more hints. The code as shipped is kept in \(progress.originalsFolder(exercise.id).path)."
            )
        }
    }

    /// Puts the exercise's files back as they were before `start` and forgets what `start` recorded; a
    /// passed exercise keeps its ✓, one not passed yet goes back to not started.
    mutating func reset(_ exercise: Exercise) throws {
        let stepFolder = package.stepName(exercise.step) ?? ""
        let restored = try progress.restoreOriginals(
            exercise.id, files: exercise.files(stepFolder: stepFolder), package: package.folder)
        progress.forgetRecords(exercise.id)
        let passed = progress.state(exercise.id) == .done || progress.hasPassed(exercise.id)
        progress.set(exercise.id, passed ? .done : .notStarted)
        try progress.save()
        say(
            "Reset \(exercise.id): \(restored) file(s) restored"
                + (passed ? "; you passed it before, so it stays ✓ done." : "."))
    }

    /// Resets every exercise with files kept by `start`: the whole package back to the code as shipped.
    mutating func resetAll() throws {
        let ids = Set(progress.exercisesWithOriginals).union(
            Exercises.all.filter { progress.state($0.id) == .started }.map(\.id))
        if ids.isEmpty { say("Nothing to reset: no exercise has changed a file.") }
        for exercise in Exercises.all where ids.contains(exercise.id) { try reset(exercise) }
    }

    // MARK: watch

    /// Checks the exercise again whenever one of its files (or a scenario file under `out/`) changes.
    mutating func watch(_ exercise: Exercise) throws {
        let stepFolder = package.stepName(exercise.step) ?? ""
        var files = exercise.files(stepFolder: stepFolder).map { package.folder.appendingPathComponent($0) }
        for spec in exercise.runs {
            if case .file(let path, _) = spec.scenario {
                files.append(package.folder.appendingPathComponent(path))
            }
        }
        func stamps() -> [Date?] {
            files.map {
                (try? FileManager.default.attributesOfItem(atPath: $0.path))?[.modificationDate] as? Date
            }
        }
        say("Watching \(exercise.id): saving a file checks it again, passed or not. Ctrl-C stops.")
        var last = stamps()
        try check(exercise)
        say("(still watching \(exercise.id); Ctrl-C stops)")
        while true {
            Thread.sleep(forTimeInterval: 1)
            let now = stamps()
            if now != last {
                last = now
                try check(exercise)
                say("(still watching \(exercise.id); Ctrl-C stops)")
            }
        }
    }
}
