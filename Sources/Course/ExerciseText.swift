import Files
import Foundation

/// An exercise's words, as its item in a chapter's "### Exercises" list of Walkthrough.md says them
/// (`2. **A faster network.** Copy the course …`): the one place an exercise's title and task are written.
/// Its id is the chapter's number and the item's.
struct ExerciseText: Sendable, Equatable {
    /// A paragraph of the item, or a fenced code block in it.
    enum Block: Sendable, Equatable {
        /// Prose on one line: the markdown's lines joined, bold marks and link targets taken out, code spans
        /// kept in backticks.
        case prose(String)
        case code([String])
    }

    let id: String
    /// The item's bold lead, without its full stop.
    let title: String
    /// What `start` prints and a write exercise's `// TODO` says: the item after its title, without a
    /// leading "Run `swift run Course start ID`" (just done), up to the sentence that begins "You should
    /// see" (what the student predicts).
    let task: [Block]
    /// The item from "You should see" on, in prose: what a prediction is compared with. Empty when the item
    /// says nothing of the kind.
    let outcome: String

    /// The commands to try: the task's code spans that run a step, copy a file, make a folder, or check the
    /// exercise, in the order the task gives them.
    var commands: [String] {
        var found: [String] = []
        for case .prose(let text) in task {
            for span in Self.codeSpans(in: text)
            where ["swift run Step", "swift run Course check", "mkdir ", "cp "].contains(
                where: span.hasPrefix)
                && !found.contains(span)
            {
                found.append(span)
            }
        }
        return found
    }

    /// The task wrapped at `width` columns, for a terminal or a comment: prose reflowed (a code span is never
    /// broken), code blocks indented by two spaces, a blank line between blocks.
    func taskLines(width: Int) -> [String] {
        var lines: [String] = []
        for block in task {
            if !lines.isEmpty { lines.append("") }
            switch block {
            case .prose(let text): lines += Self.wrapped(text, width: width)
            case .code(let code): lines += code.map { "  " + $0 }
            }
        }
        return lines
    }

    /// Prose wrapped at `width` columns, breaking only at spaces outside code spans; a word longer than the
    /// width gets a line of its own.
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in words(of: text) {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The words of prose, a code span with the punctuation around it counting as one.
    static func words(of text: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inCode = false
        for character in text {
            if character == "`" { inCode.toggle() }
            if character == " " && !inCode {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// The contents of the code spans of prose, in order.
    static func codeSpans(in text: String) -> [String] {
        text.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }
}

/// The exercises Walkthrough.md lists: in each `## Chapter N` section, the numbered items `N. **Title.** …`
/// of its `### Exercises` subsection (an item goes on while its lines are indented or blank).
enum WalkthroughExercises {
    static func parse(_ markdown: String) -> [ExerciseText] {
        var found: [ExerciseText] = []
        var chapter: Int?
        var inExercises = false
        var item: (id: String, title: String, indent: Int, lines: [String])?
        func finish() {
            if let open = item {
                found.append(text(of: open.id, title: open.title, open.lines, indent: open.indent))
            }
            item = nil
        }
        for line in markdown.components(separatedBy: "\n") {
            if line.hasPrefix("## ") {
                finish()
                inExercises = false
                chapter =
                    line.hasPrefix("## Chapter ")
                    ? Int(line.dropFirst("## Chapter ".count).prefix { $0.isNumber }) : nil
                continue
            }
            if line.hasPrefix("### ") {
                finish()
                inExercises = line.hasPrefix("### Exercises")
                continue
            }
            guard inExercises, let chapter else { continue }
            let number = line.prefix { $0.isNumber }
            if !number.isEmpty, line.dropFirst(number.count).hasPrefix(". **") {
                let rest = line.dropFirst(number.count + 4)
                guard let end = rest.range(of: "**") else { continue }
                finish()
                var title = String(rest[..<end.lowerBound])
                while let last = title.last, last == "." || last == " " { title.removeLast() }
                item = (
                    "\(chapter).\(number)", title, number.count + 2,
                    [String(rest[end.upperBound...]).trimmingCharacters(in: .whitespaces)]
                )
            } else if item != nil, line.isEmpty || line.hasPrefix(" ") {
                item?.lines.append(line)
            } else {
                finish()
            }
        }
        finish()
        return found
    }

    /// An item's words from its lines (the first without the number and title, the others indented).
    static func text(of id: String, title: String, _ lines: [String], indent: Int) -> ExerciseText {
        var blocks: [ExerciseText.Block] = []
        var paragraph: [String] = []
        var code: [String]?
        func endParagraph() {
            if !paragraph.isEmpty { blocks.append(.prose(inline(paragraph.joined(separator: " ")))) }
            paragraph = []
        }
        for line in lines {
            let unindented =
                line.hasPrefix(String(repeating: " ", count: indent)) ? String(line.dropFirst(indent)) : line
            let trimmed = unindented.trimmingCharacters(in: .whitespaces)
            if code != nil {
                if trimmed.hasPrefix("```") {
                    blocks.append(.code(code ?? []))
                    code = nil
                } else {
                    code?.append(unindented)
                }
            } else if trimmed.hasPrefix("```") {
                endParagraph()
                code = []
            } else if trimmed.isEmpty {
                endParagraph()
            } else {
                paragraph.append(trimmed)
            }
        }
        endParagraph()
        if let code { blocks.append(.code(code)) }
        // Without the start just done: "Run `swift run Course start 2.4`, then in …" reads "In …".
        let start = "Run `swift run Course start \(id)`"
        if case .prose(let first)? = blocks.first, first.hasPrefix(start) {
            var rest = first.dropFirst(start.count)
            for joiner in [", then ", "; ", " and ", ", ", ". "] where rest.hasPrefix(joiner) {
                rest = rest.dropFirst(joiner.count)
                blocks[0] = .prose(rest.prefix(1).uppercased() + rest.dropFirst())
                break
            }
        }
        // The outcome: from the sentence that begins "You should see" to the end of the item.
        var task: [ExerciseText.Block] = []
        var outcome: [String] = []
        for block in blocks {
            if !outcome.isEmpty {
                if case .prose(let text) = block { outcome.append(text) }
            } else if case .prose(let text) = block, let cut = text.range(of: "You should see") {
                let before = text[..<cut.lowerBound].trimmingCharacters(in: .whitespaces)
                if !before.isEmpty { task.append(.prose(before)) }
                outcome.append(String(text[cut.lowerBound...]))
            } else {
                task.append(block)
            }
        }
        return ExerciseText(id: id, title: title, task: task, outcome: outcome.joined(separator: " "))
    }

    /// Inline markdown as plain text: no bold marks, a link's words without its target; code spans kept.
    static func inline(_ text: String) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "[", let close = text[index...].firstIndex(of: "]"),
                text[text.index(after: close)...].hasPrefix("("),
                let end = text[close...].firstIndex(of: ")")
            {
                result += text[text.index(after: index)..<close]
                index = text.index(after: end)
                continue
            }
            result.append(character)
            index = text.index(after: index)
        }
        return result.replacingOccurrences(of: "**", with: "")
    }
}

/// The words of every exercise the walkthrough lists, read from the package's Walkthrough.md.
struct ExerciseTexts: Sendable {
    /// The items in the walkthrough's order.
    let items: [ExerciseText]

    static func file(of package: WorkbookPackage) -> URL {
        package.folder.appendingPathComponent("Walkthrough.md")
    }

    static func read(package: WorkbookPackage) throws -> ExerciseTexts {
        let path = file(of: package).path
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, as: .walkthrough)
        } catch {
            throw CourseError(
                "cannot read \(path) (\(error)), where the exercises' titles and tasks are written "
                    + "(git checkout Walkthrough.md puts it back)")
        }
        guard let markdown = String(validating: bytes, as: UTF8.self) else {
            throw CourseError(
                "\(path) is not UTF-8 text, where the exercises' titles and tasks are written "
                    + "(git checkout Walkthrough.md puts it back)")
        }
        return ExerciseTexts(items: WalkthroughExercises.parse(markdown))
    }

    /// The words of an exercise; one without an item gets a title that says so and no task (`Course` refuses
    /// a student's command then, and `verify` fails).
    subscript(exercise: Exercise) -> ExerciseText {
        items.first { $0.id == exercise.id }
            ?? ExerciseText(id: exercise.id, title: "(no item in Walkthrough.md)", task: [], outcome: "")
    }

    /// The first exercise of the table without an item, said in one line.
    func missingItem(among exercises: [Exercise]) -> String? {
        guard let missing = exercises.first(where: { exercise in !items.contains { $0.id == exercise.id } })
        else { return nil }
        let parts = missing.id.split(separator: ".")
        return "exercise \(missing.id) has no item in Walkthrough.md, where its title and task are written "
            + "(item \(parts.last ?? "") of chapter \(parts.first ?? "")'s “### Exercises” list)"
    }
}
