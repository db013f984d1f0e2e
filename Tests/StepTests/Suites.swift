import Testing

// Suites of this target that several files extend, one idea a file. Suites that a `swift test --filter`
// names (in `Course`'s exercise table, the walkthrough or `Scripts/`) keep a type of their own.

/// What each step teaches, measured: the progression from step to step, step 4's lessons, the invariants
/// every step keeps, the limit no client beats, network faults, lifetimes, and what each safeguard
/// protects.
@Suite("Each step's lessons and invariants") struct LessonTests {}

/// The steps' parts on their own and what a run shows: records, the wrong picture, pictures of a run, and
/// how the tests find the steps.
@Suite("The steps' parts and pictures of a run") struct StepPartsTests {}
