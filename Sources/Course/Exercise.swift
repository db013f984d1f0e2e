/// One exercise of the course, as `Course` runs it and as the tests and CI check it: what must be code.
/// Its words (title, task, commands) are its item in Walkthrough.md, read at run time.
///
/// An exercise names what the student does (`kind`), the runs that judge it, and what must hold of those
/// runs. Every figure is a relation between runs (this run against the previous step's, the student's code
/// against the code as shipped, a run against its oracle) or an invariant, never a number copied from
/// today's output, so the exercises keep judging correctly as the simulator's numbers move.
struct Exercise: Sendable {
    /// What the student does.
    enum Kind: Sendable {
        /// Predict, then run a command: nothing to edit.
        case run
        /// Make a small change to the step's code (the walkthrough says which), predict, then run.
        case change([Edit])
        /// Write code that `start` removed: the function bodies or statements listed.
        case write([Blank])
    }

    /// `chapter.number`, as in the walkthrough: `2.4`, item 4 of chapter 2's "Exercises" list, which
    /// gives the exercise's title, its task and the commands to try (`ExerciseText`).
    let id: String
    /// The step number the exercise is about; its folder is found by that number.
    let step: Int
    let kind: Kind
    /// Graded hints, the most general first; `hint` gives one more per call.
    let hints: [String]
    /// The runs that judge the exercise, in order (a later run may reuse an earlier one's cache folder).
    let runs: [RunSpec]
    /// What must hold; the first that does not is the one-line reason `check` gives.
    let expectations: [Expectation]
    /// Quick tests (a `swift test --filter` pattern) that must pass too, for mistakes no run shows: a unit
    /// test of the step's own type, not one that plays the built-in scenarios (a check stays under
    /// `Verify.checkTimeLimit`). Nil for none.
    var tests: String? = nil
    /// Wrong solutions `verify` makes from the code as shipped and `check` must fail: proof that the
    /// exercise catches the mistakes students make (for a change exercise, wrong edits). Every write
    /// exercise has at least five, every change exercise at least two.
    var mutants: [Mutant] = []

    /// The files the exercise edits, relative to the package.
    func files(stepFolder: String) -> [String] {
        switch kind {
        case .run: return []
        case .change(let edits): return Array(Set(edits.map { "Sources/\(stepFolder)/\($0.file)" })).sorted()
        case .write(let blanks): return Array(Set(blanks.map { "Sources/\(stepFolder)/\($0.file)" })).sorted()
        }
    }

    /// The files a run exercise asks the student to write (its runs' scenario files, under `out/`); a run
    /// exercise without any asks only for a prediction.
    var studentFiles: [String] {
        guard case .run = kind else { return [] }
        return Array(Set(runs.compactMap(\.scenario.file))).sorted()
    }

    /// Whether `check` needs a run of the code as shipped, recorded by `start`, to compare against (a write
    /// exercise always does: `ReferenceComparison` compares every run with it).
    var needsBaseline: Bool {
        if case .write = kind { return true }
        return expectations.contains { expectation in
            if case .finalScreenAsShipped? = expectation.invariant?.0 { return true }
            return expectation.left.isBaseline || expectation.right.isBaseline
        }
    }
}

/// A change the walkthrough asks for, as a machine can make it: inside a declaration, replace a piece of
/// text (its `occurrence`-th appearance there) with another. `Course verify` makes it to prove the
/// exercise's promise holds; a student makes it by hand.
struct Edit: Sendable {
    /// The file, inside the step folder.
    let file: String
    /// The declaration to look in, as `SwiftSource.locate` takes it: `func main`, `class ImageCache`.
    let inside: String
    let old: String
    let new: String
    var occurrence = 1
}

/// A wrong solution of an exercise, made from the code as shipped: a mistake a student makes.
struct Mutant: Sendable {
    /// The mistake, as `verify` names it: "a failure recorded as .downloaded".
    let mistake: String
    let edits: [Edit]
    /// Whether only the exercise's tests catch it, not its runs: `verify` then runs them too.
    var byTests = false
    /// Words the check's failure must show (any case), so that it names this mistake: `verify` fails a
    /// mutant caught with a message that does not.
    var shows: [String] = []

    init(_ mistake: String, _ edits: [Edit], byTests: Bool = false, shows: [String] = []) {
        self.mistake = mistake
        self.edits = edits
        self.byTests = byTests
        self.shows = shows
    }

    /// The mistake of replacing `old` by `new` once, inside a declaration of a file.
    init(
        _ mistake: String, file: String, inside: String, _ old: String, _ new: String, byTests: Bool = false,
        shows: [String] = []
    ) {
        self.init(
            mistake, [Edit(file: file, inside: inside, old: old, new: new)], byTests: byTests, shows: shows)
    }

    /// The words of `shows` a failure message lacks (compared in lower case).
    func missingWords(in message: String) -> [String] {
        shows.filter { !message.lowercased().contains($0.lowercased()) }
    }
}

/// Code `start` takes away for the student to write: a declaration's body, or one statement (from the
/// line holding `statement` to the end of its braces) inside a declaration.
struct Blank: Sendable {
    let file: String
    /// The declaration: `func loadImagesForOnscreenCells`, `override func prepareForReuse`.
    let declaration: String
    /// A statement inside it to take away instead of the whole body: the text its first line holds.
    var statement: String? = nil
    /// What the body must do when it is empty, so the step still compiles: for a function that returns a
    /// value, `fatalError("…")`.
    var placeholder: String? = nil
}

/// One run of a step that judges an exercise.
struct RunSpec: Sendable {
    /// A name the expectations use for this run.
    let label: String
    /// Which step: a number, or relative to the exercise's step.
    let step: StepChoice
    let scenario: ScenarioChoice
    /// More options, such as `--concurrency 4`; `{cache}` stands for a fresh folder shared by the exercise's
    /// runs.
    var options: [String] = []
    /// Whether the run's trace is needed (for invariants on events).
    var traced = false

    enum StepChoice: Sendable, Equatable {
        /// The exercise's own step: the student's code.
        case this
        /// The step before the exercise's (as shipped, untouched).
        case previous
    }
}

/// The scenario a run plays.
enum ScenarioChoice: Sendable {
    /// A built-in scenario.
    case builtIn(String)
    /// A file the walkthrough has the student write (`path`, under `out/`): `Course` uses the student's file
    /// when it exists and makes it from `make` otherwise.
    case file(path: String, make: ScenarioRecipe)
}

extension ScenarioChoice {
    /// The path of a scenario file, nil for a built-in.
    var file: String? {
        if case .file(let path, _) = self { return path }
        return nil
    }
}

/// How a scenario file an exercise uses is made.
enum ScenarioRecipe: Sendable {
    /// This text.
    case text(String)
    /// A built-in scenario with some lines replaced: each line starting with a key becomes its value.
    case builtIn(String, replacing: [(String, String)])
}

/// A number in an expectation.
enum Quantity: Sendable {
    /// A metric of a run.
    case metric(String, of: String)
    /// A metric of a run of the code as shipped, recorded when the exercise was started.
    case baseline(String, of: String)
    /// The oracle's requests or bytes of a run.
    case oracle(String, of: String)
    case number(Double)

    var isBaseline: Bool {
        if case .baseline = self { return true }
        return false
    }
}

/// Something that must hold of an exercise's runs.
struct Expectation: Sendable {
    enum Relation: String, Sendable {
        case above = ">"
        case below = "<"
        case atLeast = ">="
        case atMost = "<="
        case equal = "=="
    }

    /// A property of a run's events or final screen.
    enum Invariant: Sendable {
        /// Every row on the final screen shows its poster or the failure image, none a placeholder.
        case screenFilled
        /// No request started while the table was dragging or decelerating.
        case noRequestWhileScrolling
        /// No operation of the app's queues started while the table was dragging or decelerating (the run
        /// must be traced): both queues are suspended, the filtrations' too.
        case noOperationStartWhileScrolling
        /// No operation cancelled by the thread that handed it to a worker, in the same turn (the run must
        /// be traced): on real threads the worker may already run it, so a stop cancels the rows that left
        /// before it resumes the queues.
        case noCancelAsHandedOut
        /// No request started on the main thread.
        case noRequestOnMainThread
        /// No poster decoded on the main thread (the run must be traced).
        case noDecodeOnMainThread
        /// An `ImageDownloader` cancelled during its download never decodes what it downloaded (and the run
        /// cancels at least one during its download, so the check is not vacuous).
        case noDecodeAfterCancel
        /// No cell showed another row's poster.
        case noWrongImage
        /// The final screen shows the same pictures (kinds and pixel hashes) as the same run of the code
        /// as shipped, recorded at start.
        case finalScreenAsShipped
    }

    let left: Quantity
    let relation: Relation
    let right: Quantity
    /// `right` is multiplied by this before comparing.
    var factor: Double = 1
    /// An invariant on a run instead of a comparison.
    var invariant: (Invariant, run: String)? = nil
    /// What the student should have seen, said when it does not hold.
    let says: String

    init(_ left: Quantity, _ relation: Relation, _ right: Quantity, times factor: Double = 1, says: String) {
        self.left = left
        self.relation = relation
        self.right = right
        self.factor = factor
        self.says = says
    }

    init(_ invariant: Invariant, on run: String, says: String) {
        left = .number(0)
        relation = .equal
        right = .number(0)
        self.invariant = (invariant, run)
        self.says = says
    }
}
