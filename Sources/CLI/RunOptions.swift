import UI
import World

/// What a step's command line asked for: the scenario, the seed and which reports to write.
///
/// Every step takes the same options; `OptionsParser` reads them.
public struct RunOptions: Sendable, Equatable {
    /// A built-in scenario name or a scenario file path (`--scenario`).
    public var scenario: String = "course"
    /// A seed that overrides the scenario's (`--seed`).
    public var seed: UInt64?
    /// Print one JSON object instead of the text report (`--json`).
    package var json: Bool = false
    /// Write a JSON Lines event trace to this file (`--trace`).
    package var tracePath: String?
    /// Keep the disk cache in this directory across runs instead of a fresh temporary one (`--cache-dir`).
    package var cacheDirectory: String?
    /// Override the step's download concurrency, 1…64 (`--concurrency`).
    public var concurrency: Int?
    /// The step's techniques to turn off, to see what each buys (`--without`): names from the step's own
    /// list (`WorkbookStep.techniques`), in that list's order, each once.
    public var without: [String] = []
    /// Serve real PNG files from this folder instead of generated posters (`--posters`).
    package var postersDirectory: String?
    /// Draw the whole run as an SVG picture into this file (`--timeline`).
    package var timelinePath: String?
    /// Print the visible rows at every filled scroll stop and at the end (`--screens`).
    package var screens: Bool = false
    /// Write PNGs of each stop's screen, the end screen and the posters into this directory (`--export`).
    package var exportDirectory: String?
    /// Terminal colours for the `--screens` thumbnails (`--color`).
    package var color: ColorMode = .auto
    /// Print the help text and exit (`--help`, `-h`).
    package var help: Bool = false

    /// The defaults: the `course` scenario, its own seed, a text report, no extra files.
    public init() {}
}

/// Whether the text report uses terminal colours.
public enum ColorMode: String, Sendable, Equatable, CaseIterable {
    /// Colour when standard output is a terminal.
    case auto
    /// Always colour, even into a pipe or file.
    case always
    /// Never colour.
    case never
}

/// What a step folder tells the harness, the tests and `Compare` about itself.
///
/// Each step's `StepInfo` conforms. The tests find a step's `StepInfo` by the step's module name (the
/// folder's name), so a new step copied from another needs no test code of its own to be run.
public protocol WorkbookStep {
    /// The executable's name, which is also the step folder's name.
    static var name: String { get }
    /// One line on what the step does, for `--help`.
    static var summary: String { get }
    /// Makes the app's first screen; the harness calls it on the simulated main thread at each launch.
    static func makeApp(_ options: RunOptions) -> TableViewController
    /// The names of the techniques `--without` may turn off in this step (none, unless the step says).
    /// Each step keeps its own list: the harness only checks a name against it.
    static var techniques: [String] { get }
}

extension WorkbookStep {
    public static var techniques: [String] { [] }
}
