/// Every exercise of the course, in walkthrough order: the one list `Course`, the tests and CI share.
///
/// Each chapter's entries are in `Exercises+ChapterN.swift`, with the scenarios they play. An entry holds
/// what must be code; its title, task and commands are its item in the chapter's "Exercises" list of
/// Walkthrough.md (`ExerciseText`). To add one, see "Adding an exercise" there.
enum Exercises {
    static let all: [Exercise] = chapter1 + chapter2 + chapter3 + chapter4 + chapter5 + chapter6 + added

    /// The exercise with an id, if any.
    static func named(_ id: String) -> Exercise? {
        all.first { $0.id == id }
    }

    // MARK: Added by teachers

    /// Exercises a teacher adds go here (or into their chapter's list).
    static let added: [Exercise] = [
        // Teachers: add exercises above this line.
    ]
}
