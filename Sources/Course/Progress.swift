import Foundation

/// The student's progress: one small text file, `.course/progress`, ignored by git, with a line per
/// exercise touched: `2.4 started 1` (the id, `started` or `done`, and how many hints were given), with
/// `passed` after it when an exercise started again had passed before.
///
/// Beside it, in the same `.course` folder, `originals/<id>/` keeps the files an exercise changed as they
/// were before `start` (so `reset` needs no git) and `baselines/<id>.json` the runs of that code.
struct Progress {
    enum State: String {
        case notStarted = "not started"
        case started
        case done
    }

    struct Entry {
        var state: State
        var hints: Int
        var passed = false
    }

    /// The progress folder, `.course` in the package.
    let folder: URL
    private(set) var entries: [String: Entry] = [:]
    /// The exercise started last, the one `check`, `hint` and `watch` take without an id.
    private(set) var current: String?

    var file: URL { folder.appendingPathComponent("progress") }

    /// The changes made since the file was read, applied again to what the file holds when saving.
    private var changes: [Change] = []

    private enum Change {
        case set(String, State)
        case hint(String)
    }

    init(package: URL) {
        folder = package.appendingPathComponent(".course", isDirectory: true)
        read()
    }

    /// Reads the progress file (nothing for a missing or oversized one).
    private mutating func read() {
        entries = [:]
        current = nil
        guard let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber,
            size.intValue <= 1_000_000,
            let text = try? String(contentsOf: file, encoding: .utf8)
        else { return }
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if words.count == 2, words[0] == "current" {
                current = words[1]
                continue
            }
            guard words.count == 3 || words.count == 4, let state = State(rawValue: words[1]),
                let hints = Int(words[2])
            else {
                continue
            }
            entries[words[0]] = Entry(
                state: state, hints: hints, passed: state == .done || words.last == "passed")
        }
    }

    func state(_ id: String) -> State { entries[id]?.state ?? .notStarted }
    func hints(_ id: String) -> Int { entries[id]?.hints ?? 0 }
    /// Whether the exercise passed a check once, even if started again since.
    func hasPassed(_ id: String) -> Bool { entries[id]?.passed ?? false }

    mutating func set(_ id: String, _ state: State) {
        changes.append(.set(id, state))
        apply(.set(id, state))
    }

    mutating func countHint(_ id: String) {
        changes.append(.hint(id))
        apply(.hint(id))
    }

    private mutating func apply(_ change: Change) {
        switch change {
        case .set(let id, let state):
            entries[id, default: Entry(state: .notStarted, hints: 0)].state = state
            if state == .done { entries[id]?.passed = true }
            if state == .started { current = id }
        case .hint(let id):
            entries[id, default: Entry(state: .notStarted, hints: 0)].hints += 1
        }
    }

    /// The lock file beside the progress file: held (`flock`) while the file is read, changed and written.
    var lockFile: URL { folder.appendingPathComponent("progress.lock") }

    /// Writes the progress file (sorted, so it reads the same every time): under the lock, it reads the
    /// file again and makes this run's changes on what it holds, so a check finishing meanwhile in
    /// another process keeps its mark.
    mutating func save() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lock = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else {
            throw CourseError("cannot open \(lockFile.path): \(String(cString: strerror(errno)))")
        }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw CourseError("cannot lock \(lockFile.path): \(String(cString: strerror(errno)))")
            }
        }
        defer { flock(lock, LOCK_UN) }
        read()
        for change in changes { apply(change) }
        changes = []
        var lines = entries.keys.sorted(by: Self.courseOrder).map { id in
            let entry = entries[id]!
            return "\(id) \(entry.state == .started ? "started" : entry.state.rawValue) \(entry.hints)"
                + (entry.passed && entry.state != .done ? " passed" : "")
        }
        if let current { lines.insert("current \(current)", at: 0) }
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    }

    /// `2.10` after `2.9`: ids compared number by number.
    static func courseOrder(_ left: String, _ right: String) -> Bool {
        let a = left.split(separator: ".").map { Int($0) ?? 0 }
        let b = right.split(separator: ".").map { Int($0) ?? 0 }
        return a.lexicographicallyPrecedes(b)
    }

    // MARK: Originals and baselines

    func originalsFolder(_ id: String) -> URL {
        folder.appendingPathComponent("originals/\(id)", isDirectory: true)
    }

    func baselineFile(_ id: String) -> URL {
        folder.appendingPathComponent("baselines/\(id).json")
    }

    /// The runs of the step before the exercise's (code the student does not touch), recorded by `start`.
    func previousFile(_ id: String) -> URL {
        folder.appendingPathComponent("baselines/\(id)-previous.json")
    }

    /// The files of a write exercise as `start` left them, with the `// TODO`s, to tell untouched ones.
    func blankedFolder(_ id: String) -> URL {
        folder.appendingPathComponent("blanked/\(id)", isDirectory: true)
    }

    /// Forgets what `start` recorded for an exercise: its runs and its blanked files.
    func forgetRecords(_ id: String) {
        for item in [baselineFile(id), previousFile(id), blankedFolder(id)] {
            try? FileManager.default.removeItem(at: item)
        }
    }

    /// The exercises with kept originals: the ones `reset --all` puts back.
    var exercisesWithOriginals: [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent("originals").path)) ?? []
        return names.sorted(by: Self.courseOrder)
    }

    /// Copies the files an exercise will change, unless copies are already kept.
    func keepOriginals(_ id: String, files: [String], package: URL) throws {
        for file in files {
            let kept = originalsFolder(id).appendingPathComponent(file)
            guard !FileManager.default.fileExists(atPath: kept.path) else { continue }
            try FileManager.default.createDirectory(
                at: kept.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: package.appendingPathComponent(file), to: kept)
        }
    }

    /// The kept original of a file, if any.
    func original(_ id: String, file: String) -> String? {
        try? String(contentsOf: originalsFolder(id).appendingPathComponent(file), encoding: .utf8)
    }

    /// Puts the kept originals back (a fresh write, so the next build sees the change) and forgets them.
    func restoreOriginals(_ id: String, files: [String], package: URL) throws -> Int {
        var restored = 0
        for file in files {
            guard let text = original(id, file: file) else { continue }
            try text.write(to: package.appendingPathComponent(file), atomically: true, encoding: .utf8)
            restored += 1
        }
        try? FileManager.default.removeItem(at: originalsFolder(id))
        return restored
    }
}
