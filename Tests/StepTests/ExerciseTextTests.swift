import Foundation
import TestSupport
import Testing

@testable import Course

/// The exercises' words, read from their items in Walkthrough.md: the parser, and the rule that each entry
/// of `Exercises` has exactly one item and each item an entry.
@Suite("An exercise's words come from its walkthrough item")
struct ExerciseTextTests {
    static let package = WorkbookPackage(folder: Step.sourcesFolder.deletingLastPathComponent())

    /// A chapter a teacher adds, with the shapes an item takes: a start to leave out, bold and a link in
    /// the text, a code span over two lines, a code block, and lists and paragraphs that are not items.
    static let teachersChapter = """
        ## Chapter 99 — Step99Mine: a teacher's step

        1. **Not an exercise.** A numbered list before the exercises.

        ### Exercises

        Exercise 1 has you write code: a paragraph, not an item.

        1. **Relaunch from disk.** Run `swift run Course start 99.1`, then in
           `Sources/Step99Mine/DiskCache.swift` write **all** of `load()` (see
           [the chapter](#chapter-99)). Run `swift run Step99Mine --scenario
           relaunch`. You should see `disk_cache_hits` above zero. A relaunch
           reads the disk.
        2. **A scenario.** Save this as `out/a.scenario`:

           ```text
           rows 20
             wait 1s
           ```

           Then run `mkdir -p out` and `swift run Step99Mine --scenario out/a.scenario`.

        **Surprise: not an item.** The list has ended.

        3. **After the list.** Still in the section: an item.

        ### Notes

        1. **Not an exercise either.** Another section.

        ## How it works

        1. **Nor this.** Not a chapter.
        """

    @Test(
        "A chapter's exercise items give each its title, its task without the start just run, what to see, and the commands to try"
    )
    func parsesItems() throws {
        let items = WalkthroughExercises.parse(Self.teachersChapter)
        #expect(items.map(\.id) == ["99.1", "99.2", "99.3"])
        #expect(items.map(\.title) == ["Relaunch from disk", "A scenario", "After the list"])
        let first = try #require(items.first)
        #expect(
            first.task == [
                .prose(
                    "In `Sources/Step99Mine/DiskCache.swift` write all of `load()` (see the chapter). Run "
                        + "`swift run Step99Mine --scenario relaunch`.")
            ])
        #expect(first.outcome == "You should see `disk_cache_hits` above zero. A relaunch reads the disk.")
        #expect(first.commands == ["swift run Step99Mine --scenario relaunch"])
        let second = items[1]
        #expect(
            second.task == [
                .prose("Save this as `out/a.scenario`:"), .code(["rows 20", "  wait 1s"]),
                .prose("Then run `mkdir -p out` and `swift run Step99Mine --scenario out/a.scenario`."),
            ])
        #expect(second.outcome.isEmpty)
        #expect(second.commands == ["mkdir -p out", "swift run Step99Mine --scenario out/a.scenario"])
    }

    @Test("A task is wrapped for a terminal without breaking a code span, its code block kept line by line")
    func wrapsTasks() throws {
        let second = try #require(WalkthroughExercises.parse(Self.teachersChapter).dropFirst().first)
        let lines = second.taskLines(width: 30)
        #expect(
            lines == [
                "Save this as `out/a.scenario`:", "", "  rows 20", "    wait 1s", "",
                "Then run `mkdir -p out` and", "`swift run Step99Mine --scenario out/a.scenario`.",
            ])
    }

    @Test(
        "Every entry of the table has one walkthrough item, which names a command and holds no hint word for word"
    )
    func oneSource() throws {
        let texts = try ExerciseTexts.read(package: Self.package)
        #expect(texts.items.count >= 20)
        #expect(Verify.mismatches(walkthrough: texts.items, table: Exercises.all) == [])
        #expect(texts.missingItem(among: Exercises.all) == nil)
        func plain(_ text: String) -> String {
            text.lowercased().replacingOccurrences(of: "`", with: "").split(separator: " ").joined(
                separator: " ")
        }
        for exercise in Exercises.all {
            let item = texts[exercise]
            let prose = item.task.compactMap { block -> String? in
                if case .prose(let text) = block { return text }
                return nil
            }
            #expect(
                !prose.joined(separator: " ").contains("Course start \(exercise.id)"),
                "exercise \(exercise.id)'s task asks to run its own start: begin with “Run `swift run Course start …`, then”"
            )
            let words = plain((prose + [item.outcome]).joined(separator: " "))
            for hint in exercise.hints {
                #expect(
                    !words.contains(plain(hint)),
                    "exercise \(exercise.id)'s hint is its item's words: \(hint)")
            }
        }
    }

    @Test(
        "The one-source rule fails an entry without an item, an item without an entry, an item given twice, and an item without a command",
        arguments: [
            "an entry without an item", "an item without an entry", "an item given twice", "no command",
        ]
    )
    func oneSourceFails(_ mistake: String) throws {
        var items = try ExerciseTexts.read(package: Self.package).items
        let expected: String
        switch mistake {
        case "an entry without an item":
            items.removeAll { $0.id == "2.4" }
            expected = "exercise 2.4 has no item in Walkthrough.md"
            #expect(
                ExerciseTexts(items: items).missingItem(among: Exercises.all)?.hasPrefix(expected) == true)
        case "an item without an entry":
            items += WalkthroughExercises.parse(Self.teachersChapter)
            expected = "exercise 99.1 (“Relaunch from disk”) of Walkthrough.md is not in Course's table"
        case "an item given twice":
            items += items.filter { $0.id == "3.4" }
            expected = "exercise 3.4 has 2 items in Walkthrough.md"
        default:
            let index = try #require(items.firstIndex { $0.id == "1.1" })
            items[index] = ExerciseText(
                id: "1.1", title: items[index].title, task: [.prose("Predict.")], outcome: "")
            expected = "exercise 1.1's item in Walkthrough.md names no command"
        }
        let problems = Verify.mismatches(walkthrough: items, table: Exercises.all)
        #expect(problems.contains { $0.hasPrefix(expected) }, "\(problems)")
    }

    /// What stands where the walkthrough belongs.
    enum HostileWalkthrough: String, CaseIterable, Sendable {
        case missing = "nothing"
        case fifo = "a FIFO nobody writes to"
        case huge = "a sparse file of 5 GB"
        case notUTF8 = "bytes that are not UTF-8"
    }

    @Test(
        "A package whose walkthrough is missing, a FIFO, too big or not text is refused in one line naming it",
        arguments: HostileWalkthrough.allCases)
    func hostileWalkthrough(_ kind: HostileWalkthrough) throws {
        let folder = try StepFixtures.folder("hostile-walkthrough")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Walkthrough.md").path
        switch kind {
        case .missing: break
        case .fifo: #expect(mkfifo(path, 0o600) == 0)
        case .huge:
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            #expect(truncate(path, 5_000_000_000) == 0)
        case .notUTF8: try Data([0xff, 0xfe, 0x23, 0x0a]).write(to: URL(fileURLWithPath: path))
        }
        let error = try #require(throws: CourseError.self, "\(kind.rawValue)") {
            try ExerciseTexts.read(package: WorkbookPackage(folder: folder))
        }
        #expect(error.description.contains("Walkthrough.md") && !error.description.contains("\n"), "\(error)")
    }
}
