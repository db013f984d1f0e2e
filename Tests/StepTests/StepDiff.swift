import Foundation

/// How many lines change from one step's folder to the next, file by file, as `diff -ruN --minimal`
/// counts its `+` and `-` lines: a file only one side has is all added or all removed, and a file both
/// have costs the lines outside their longest common subsequence of lines. (Without `--minimal`, diff
/// may print a few more: it stops looking for the smallest diff early.)
enum StepDiff {
    /// One file's count: lines the later step removes and adds.
    struct FileCount: Equatable {
        let name: String
        let removed: Int
        let added: Int
    }

    /// Every `.swift` file in either folder, by name, with its count; files that do not change left out.
    static func counts(from earlier: URL, to later: URL) throws -> [FileCount] {
        let names = Set(try swiftFiles(in: earlier)).union(try swiftFiles(in: later)).sorted()
        return try names.compactMap { name in
            let old = try lines(of: earlier.appendingPathComponent(name))
            let new = try lines(of: later.appendingPathComponent(name))
            let common = longestCommonSubsequence(old, new)
            let count = FileCount(name: name, removed: old.count - common, added: new.count - common)
            return count.removed + count.added == 0 ? nil : count
        }
    }

    /// The `diffstat` block's body: a row per changed file and the total, in a text fence.
    static func table(from earlier: String, to later: String, root: URL) throws -> String {
        let counts = try counts(
            from: root.appendingPathComponent(earlier), to: root.appendingPathComponent(later))
        let width = max(24, (counts.map(\.name.count).max() ?? 0) + 2)
        func row(_ name: String, _ removed: Int, _ added: Int) -> String {
            let cells = [String(removed), String(added), String(removed + added)].map { cell in
                String(repeating: " ", count: max(0, 8 - cell.count)) + cell
            }
            return name + String(repeating: " ", count: max(0, width - name.count)) + cells.joined()
        }
        let header = "file" + String(repeating: " ", count: width - 4) + "       -       +   lines"
        var lines = ["$ diff -ruN --minimal \(earlier) \(later)", header]
        lines += counts.map { row($0.name, $0.removed, $0.added) }
        lines.append(
            row("total", counts.reduce(0) { $0 + $1.removed }, counts.reduce(0) { $0 + $1.added }))
        return "```text\n" + lines.joined(separator: "\n") + "\n```"
    }

    private static func swiftFiles(in folder: URL) throws -> [String] {
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".swift")
        }
    }

    private static func lines(of file: URL) throws -> [String] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The length of the longest common subsequence of two line lists.
    static func longestCommonSubsequence(_ first: [String], _ second: [String]) -> Int {
        guard !first.isEmpty, !second.isEmpty else { return 0 }
        var previous = [Int](repeating: 0, count: second.count + 1)
        var current = previous
        for line in first {
            for (index, other) in second.enumerated() {
                current[index + 1] =
                    line == other ? previous[index] + 1 : max(previous[index + 1], current[index])
            }
            swap(&previous, &current)
        }
        return previous[second.count]
    }
}
