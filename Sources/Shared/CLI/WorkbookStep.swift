import UI
import World

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
    /// The techniques `--without` may turn off in this step (none, unless the step says).
    static var techniques: [Technique] { get }
}

extension WorkbookStep {
    public static var techniques: [Technique] { [] }
}
