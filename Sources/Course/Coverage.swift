import Foundation

/// `Course coverage [PREFIX]`: for teachers and CI, which code of each write and change exercise's region
/// the exercise's own runs execute, on the code in this folder (the reference solution as shipped).
///
/// The steps are built with Swift's coverage instrumentation into a build folder of their own
/// (`.build/coverage`, so the ordinary build is untouched), each exercise's runs of its own step are played
/// with `LLVM_PROFILE_FILE` set, and `llvm-profdata` and `llvm-cov` (found beside `swift`) give the count
/// of every code region. Swift's coverage has regions, not branches: an `if`'s body, an `else`, a `guard`'s
/// exit, a closure, the code after an early `return`. A region inside the exercise's code that no run
/// executed is a branch the check never plays, so a wrong solution there passes unseen.
///
/// The region of a write exercise is each blanked declaration's body (or the blanked statement); of a
/// change exercise, the declaration its edit is made in, or, for an edit in a type's own body (a stored
/// property), the lines of the edited text.
enum Coverage {
    /// The folder, inside the package, the instrumented steps are built in.
    static let buildPath = ".build/coverage"

    /// A region no scenario can make run, with the reason: the region starting on the `occurrence`-th
    /// line of the exercise's span that holds `line`. The check reports it as such instead of as a branch
    /// not played, and fails when it runs after all (the entry is then out of date).
    struct Unreachable {
        let exercise: String
        let line: String
        var occurrence = 1
        let why: String

        /// The entry's key among those an exercise's report used.
        var key: String { "\(exercise) \(line) #\(occurrence)" }
    }

    /// The regions of the exercises' code no scenario can make run, each with the reason.
    static let unreachable: [Unreachable] = [
        Unreachable(exercise: "2.2", line: "if isCancelled {", why: nothingCancelsInStep2),
        Unreachable(exercise: "2.2", line: "if isCancelled {", occurrence: 2, why: nothingCancelsInStep2),
        Unreachable(exercise: "2.4", line: "if isCancelled {", why: nothingCancelsInStep2),
        Unreachable(exercise: "2.4", line: "if isCancelled {", occurrence: 2, why: nothingCancelsInStep2),
        Unreachable(exercise: "2.5", line: "if downloader.isCancelled {", why: nothingCancelsInStep2),
        Unreachable(
            exercise: "3.1", line: "if movieOperations.downloadsInProgress[indexPath] != nil {",
            why: "in step 3 a download starts only for a row with none pending: loadImagesForOnscreenCells "
                + "skips pending rows, and a still table asks for a cell only at launch or when a finished "
                + "download, already out of downloadsInProgress, reloads its row"),
        Unreachable(
            exercise: "3.4", line: "guard let pathsArray = tableView.indexPathsForVisibleRows else {",
            why: "the table's indexPathsForVisibleRows is optional as UIKit's, but never nil"),
        Unreachable(
            exercise: "3.6", line: "if isCancelled {",
            why: "Operation.start() runs main() only when not cancelled, and a simulated thread gives way "
                + "only at a blocking call, so nothing cancels between the two"),
    ]

    private static let nothingCancelsInStep2 =
        "nothing in step 2 cancels an operation (exercise 2.2 shows it)"

    /// The entry of `unreachable` for a region starting on line `number` of a span's file.
    static func known(exercise: String, line number: Int, of lines: [String], span: Span) -> Unreachable? {
        guard number >= span.first, number <= lines.count else { return nil }
        return unreachable.first { known in
            known.exercise == exercise && lines[number - 1].contains(known.line)
                && lines[(span.first - 1)..<number].filter { $0.contains(known.line) }.count
                    == known.occurrence
        }
    }

    /// The lines of a step's file an exercise asks about.
    struct Span: Equatable {
        let file: String
        let first: Int
        let last: Int
        /// The declaration or statement, as the exercise names it.
        let what: String
    }

    /// One code region of `llvm-cov`'s export: where it starts and ends (lines and columns from 1) and how
    /// many times it ran.
    struct CodeRegion: Hashable {
        let line: Int
        let column: Int
        let endLine: Int
        let endColumn: Int

        func contains(_ other: CodeRegion) -> Bool {
            (line, column) <= (other.line, other.column)
                && (other.endLine, other.endColumn) <= (endLine, endColumn)
        }
    }

    /// Measures the exercises whose id starts with `prefix`; true when every region is reached (or known
    /// unreachable).
    static func run(prefix: String, package: WorkbookPackage, texts: ExerciseTexts) throws -> Bool {
        let exercises = Exercises.all.filter { exercise in
            guard exercise.id.hasPrefix(prefix) else { return false }
            if case .run = exercise.kind { return false }
            return true
        }
        guard !exercises.isEmpty else {
            CourseCommand.fail("no write or change exercise's id starts with '\(prefix)'", code: 2)
        }
        // The reference solution is the code as shipped: an exercise started here holds a student's code.
        let started = Set(Progress(package: package.folder).exercisesWithOriginals)
        if let id = exercises.map(\.id).first(where: started.contains) {
            CourseCommand.fail(
                "exercise \(id) is started here, so its code is not the code as shipped: "
                    + "`swift run Course reset --all` first", code: 2)
        }
        let tools = try Tools.find()
        var built: [String: URL] = [:]
        var unreached = 0
        var stale: [String] = []
        for exercise in exercises {
            guard let step = package.stepName(exercise.step) else {
                throw CourseError(
                    "exercise \(exercise.id) is about step \(exercise.step): no such step folder")
            }
            if built[step] == nil {
                Course.say("Building \(step) with coverage into \(buildPath)…")
                built[step] = try build(step, package: package)
            }
            let spans = try self.spans(of: exercise, stepFolder: step, package: package)
            let counts = try measure(
                exercise, step: step, binary: built[step]!, spans: spans, tools: tools,
                package: package)
            let outcome = report(
                exercise, title: texts[exercise].title, step: step, spans: spans, counts: counts,
                package: package)
            unreached += outcome.unreached
            stale += outcome.stale
        }
        for line in stale { Course.say("FAIL  \(line)") }
        if unreached == 0 && stale.isEmpty {
            Course.say("\nEvery region of \(exercises.count) exercise(s) is run by its exercise's scenarios.")
        }
        if unreached > 0 {
            Course.say(
                "\n\(unreached) region(s) no scenario of its exercise runs: add a run that plays them (see "
                    + "\"Adding an exercise\" in Walkthrough.md).")
        }
        return unreached == 0 && stale.isEmpty
    }

    // MARK: The exercise's code

    /// The spans of a step's files an exercise is about, read from the code in the package.
    static func spans(of exercise: Exercise, stepFolder: String, package: WorkbookPackage) throws -> [Span] {
        func bytes(of file: String) throws -> [UInt8] {
            let url = package.folder.appendingPathComponent("Sources/\(stepFolder)/\(file)")
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw CourseError("cannot read \(url.path)")
            }
            return [UInt8](data)
        }
        func missing(_ what: String, _ file: String) -> CourseError {
            CourseError("exercise \(exercise.id): cannot find `\(what)` in Sources/\(stepFolder)/\(file)")
        }
        switch exercise.kind {
        case .run:
            return []
        case .write(let blanks):
            return try blanks.map { blank in
                let text = try bytes(of: blank.file)
                guard let outer = SwiftSource.braces(of: blank.declaration, in: text) else {
                    throw missing(blank.declaration, blank.file)
                }
                guard let statement = blank.statement else {
                    return Span(
                        file: blank.file, first: line(at: outer.open, in: text),
                        last: line(at: outer.close, in: text), what: blank.declaration)
                }
                guard
                    let found = SwiftSource.find(
                        Array(statement.utf8), in: text, from: outer.open, before: outer.close),
                    let open = SwiftSource.nextCodeByte(
                        UInt8(ascii: "{"), in: text, from: found, before: outer.close),
                    let close = SwiftSource.matchingBrace(in: text, open: open)
                else { throw missing(statement, blank.file) }
                return Span(
                    file: blank.file, first: line(at: found, in: text), last: line(at: close, in: text),
                    what: "\(statement) in \(blank.declaration)")
            }
        case .change(let edits):
            var spans: [Span] = []
            for edit in edits {
                let text = try bytes(of: edit.file)
                guard let outer = SwiftSource.braces(of: edit.inside, in: text) else {
                    throw missing(edit.inside, edit.file)
                }
                let typeWords = ["class", "struct", "enum", "actor", "extension", "protocol"]
                let span: Span
                if typeWords.contains(where: { edit.inside.hasPrefix($0 + " ") }) {
                    var from = outer.open
                    var position: Int?
                    for _ in 0..<edit.occurrence {
                        position = SwiftSource.find(
                            Array(edit.old.utf8), in: text, from: from, before: outer.close)
                        from = (position ?? outer.close) + 1
                    }
                    guard let position else { throw missing(edit.old, edit.file) }
                    span = Span(
                        file: edit.file, first: line(at: position, in: text),
                        last: line(at: position + max(edit.old.utf8.count - 1, 0), in: text),
                        what: "`\(edit.old)` in \(edit.inside)")
                } else {
                    span = Span(
                        file: edit.file, first: line(at: outer.open, in: text),
                        last: line(at: outer.close, in: text), what: edit.inside)
                }
                if !spans.contains(span) { spans.append(span) }
            }
            return spans
        }
    }

    /// The line (from 1) of a byte offset.
    static func line(at offset: Int, in bytes: [UInt8]) -> Int {
        1 + bytes[..<offset].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    // MARK: Building and running with coverage

    /// `llvm-profdata` and `llvm-cov`, from the toolchain of the `swift` in `PATH`.
    struct Tools {
        let profdata: String
        let cov: String

        static func find() throws -> Tools {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
            for folder in path.split(separator: ":").map(String.init) {
                let swift = URL(fileURLWithPath: folder).appendingPathComponent("swift")
                guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
                let bin = swift.resolvingSymlinksInPath().deletingLastPathComponent()
                let tools = Tools(
                    profdata: bin.appendingPathComponent("llvm-profdata").path,
                    cov: bin.appendingPathComponent("llvm-cov").path)
                guard FileManager.default.isExecutableFile(atPath: tools.profdata),
                    FileManager.default.isExecutableFile(atPath: tools.cov)
                else {
                    throw CourseError("llvm-profdata and llvm-cov are not beside \(bin.path)/swift")
                }
                return tools
            }
            throw CourseError("no `swift` in PATH, so no llvm-profdata and llvm-cov beside it")
        }
    }

    /// Builds a step with coverage instrumentation into `buildPath`; the executable.
    static func build(_ step: String, package: WorkbookPackage) throws -> URL {
        let flags = [
            "--build-path", buildPath, "-Xswiftc", "-profile-generate", "-Xswiftc",
            "-profile-coverage-mapping",
        ]
        let outcome = package.execute("swift", ["build"] + flags + ["--product", step])
        guard outcome.status == 0 else {
            let errors = outcome.output.split(separator: "\n").filter { $0.contains("error:") }
            throw CourseError(
                "\(step) does not build with coverage:\n"
                    + (errors.isEmpty ? outcome.output.split(separator: "\n").suffix(5) : errors.prefix(5))
                    .joined(separator: "\n"))
        }
        let bin = package.execute(
            "swift", ["build", "--build-path", buildPath, "--show-bin-path"], errors: false)
        return URL(fileURLWithPath: bin.output.trimmingCharacters(in: .whitespacesAndNewlines))
            .appendingPathComponent(step)
    }

    /// Plays an exercise's runs of its own step (a scenario file made from its recipe, as `check` makes
    /// it when the student has not written one) and reads the count of every code region in the spans'
    /// files; a region compiled more than once counts the runs of every copy.
    static func measure(
        _ exercise: Exercise, step: String, binary: URL, spans: [Span], tools: Tools, package: WorkbookPackage
    ) throws -> [String: [CodeRegion: Int]] {
        let scratch = try makeScratchFolder("course-coverage")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let profiles = scratch.appendingPathComponent("profiles")
        try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
        let cache = scratch.appendingPathComponent("cache").path
        for spec in exercise.runs where spec.step == .this {
            let scenario: String
            switch spec.scenario {
            case .builtIn(let name):
                scenario = name
            case .file(let path, let recipe):
                let made = scratch.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent)
                try Course.text(of: recipe, package: package.folder).write(
                    to: made, atomically: true, encoding: .utf8)
                scenario = made.path
            }
            let options = spec.options.map { $0 == "{cache}" ? cache : $0 }
            Course.say("  \(exercise.id): \(step) --scenario \(scenario) \(options.joined(separator: " "))")
            let output = scratch.appendingPathComponent("run.out")
            let errors = scratch.appendingPathComponent("run.err")
            let child = try ChildStep.spawn(
                "env",
                [
                    "LLVM_PROFILE_FILE=\(profiles.path)/%p.profraw", binary.path, "--json", "--scenario",
                    scenario,
                ]
                    + options, in: scratch, limits: .step, output: output, errors: errors)
            if child.wait(limits: .step) != nil || child.status != 0 {
                let said = WorkbookPackage.head(of: errors).split(separator: "\n").prefix(3)
                throw CourseError(
                    "\(step) did not finish \(scenario) with coverage (status \(child.status))"
                        + (said.isEmpty ? "" : ": \(said.joined(separator: "\n"))"))
            }
        }
        let raw = try FileManager.default.contentsOfDirectory(atPath: profiles.path).sorted()
            .map { profiles.appendingPathComponent($0).path }
        guard !raw.isEmpty else { throw CourseError("exercise \(exercise.id) has no run of its own step") }
        let merged = scratch.appendingPathComponent("merged.profdata").path
        let merging = package.execute(tools.profdata, ["merge", "-sparse", "-o", merged] + raw)
        guard merging.status == 0 else { throw CourseError("llvm-profdata merge failed: \(merging.output)") }
        let sources = Set(spans.map(\.file)).sorted().map {
            package.folder.appendingPathComponent("Sources/\(step)/\($0)").path
        }
        let exported = package.execute(
            tools.cov, ["export", "-format=text", "-instr-profile", merged, binary.path] + sources,
            errors: false)
        guard exported.status == 0 else { throw CourseError("llvm-cov export failed: \(exported.output)") }
        return try regions(fromExport: Data(exported.output.utf8), files: Set(spans.map(\.file)))
    }

    /// The code regions of an `llvm-cov export -format=text` document in the files named (by their last
    /// path component), with their counts: `[line, column, end line, end column, count, file id,
    /// expanded file id, kind]`, kind 0 being a code region.
    static func regions(fromExport data: Data, files: Set<String>) throws -> [String: [CodeRegion: Int]] {
        guard let document = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let exports = document["data"] as? [[String: Any]]
        else { throw CourseError("llvm-cov printed something that is not a coverage export") }
        var counts: [String: [CodeRegion: Int]] = [:]
        for export in exports {
            for function in export["functions"] as? [[String: Any]] ?? [] {
                let names = function["filenames"] as? [String] ?? []
                for region in function["regions"] as? [[NSNumber]] ?? [] where region.count >= 8 {
                    let numbers = region.map(\.intValue)
                    guard numbers[7] == 0, numbers[5] < names.count else { continue }
                    let file = URL(fileURLWithPath: names[numbers[5]]).lastPathComponent
                    guard files.contains(file) else { continue }
                    let key = CodeRegion(
                        line: numbers[0], column: numbers[1], endLine: numbers[2], endColumn: numbers[3])
                    counts[file, default: [:]][key, default: 0] += numbers[4]
                }
            }
        }
        return counts
    }

    // MARK: Report

    /// Prints what an exercise's runs reach of its spans; the regions not run (outside those known
    /// unreachable, and not inside another region not run), and the known unreachable ones that did run.
    static func report(
        _ exercise: Exercise, title: String, step: String, spans: [Span], counts: [String: [CodeRegion: Int]],
        package: WorkbookPackage
    ) -> (unreached: Int, stale: [String]) {
        var unreached = 0
        var excused: Set<String> = []
        Course.say("\(exercise.id) \(title)")
        for span in spans {
            let path = "Sources/\(step)/\(span.file)"
            let lines =
                (try? String(contentsOf: package.folder.appendingPathComponent(path), encoding: .utf8))?
                .components(separatedBy: "\n") ?? []
            let inside = (counts[span.file] ?? [:]).filter { span.first...span.last ~= $0.key.line }
            let notRun = inside.filter { $0.value == 0 }.map(\.key)
            let outermost = notRun.filter { region in
                !notRun.contains { $0 != region && $0.contains(region) }
            }.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
            Course.say(
                "  \(path) \(span.what) (lines \(span.first)-\(span.last)): \(inside.count - notRun.count) of "
                    + "\(inside.count) regions run")
            if inside.isEmpty {
                Course.say("  NOT RUN  \(path):\(span.first): no code region compiled here")
                unreached += 1
            }
            for region in outermost {
                let text =
                    region.line <= lines.count
                    ? lines[region.line - 1].trimmingCharacters(in: .whitespaces) : ""
                let place = "\(path):\(region.line):\(region.column)"
                if let known = known(exercise: exercise.id, line: region.line, of: lines, span: span) {
                    excused.insert(known.key)
                    Course.say("  unreachable  \(place)  \(text)  (\(known.why))")
                } else {
                    unreached += 1
                    Course.say("  NOT RUN  \(place)  \(text)")
                }
            }
        }
        let stale = unreachable.filter { $0.exercise == exercise.id && !excused.contains($0.key) }.map {
            "\(exercise.id): `\($0.line)` (occurrence \($0.occurrence)) is listed as unreachable (\($0.why)) "
                + "but no region starting there is left unrun: take it out of Coverage.unreachable"
        }
        return (unreached, stale)
    }
}
