import Foundation
import Shared
import TestSupport
import Testing

@testable import CLI
@testable import Catalog
@testable import Files
@testable import Imaging
@testable import Scenarios
@testable import World

/// What a teacher's own files can do wrong beyond the grammar: size, bytes, folders. Each is refused with
/// a message naming the file (or the option) and what is expected, and nothing traps.
extension InputTests {
    /// A sparse file of `bytes` bytes (instant to make, whatever its size).
    func sparseFile(_ url: URL, bytes: UInt64, startingWith prefix: String) throws {
        try Data(prefix.utf8).write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: bytes)
        try handle.close()
    }

    @Test("A 50 MB scenario file is refused from its size, quickly, naming the file and the limit")
    func hugeScenarioFileRefused() throws {
        let folder = try StepFixtures.folder("hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("huge.scenario")
        try sparseFile(file, bytes: 50_000_000, startingWith: "wait 1s\n")
        let start = ContinuousClock.now
        let error = #expect(throws: ScenarioError.self) { try ScenarioParser.load(file.path) }
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(error?.source == file.path)
        #expect(error?.line == nil)
        #expect(error?.description.contains("50000000 bytes") == true)
        #expect(
            error?.description.contains("at most \(ScenarioParser.maximumFileBytes) bytes") == true)
    }

    @Test("A 50 MB catalog is refused from its size, naming the file")
    func hugeCatalogRefused() throws {
        let folder = try StepFixtures.folder("hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("movies.plist")
        try sparseFile(file, bytes: 50_000_000, startingWith: "<?xml version=\"1.0\"?>")
        let error = #expect(throws: CatalogError.self) { try MovieCatalog.load(from: file) }
        #expect(error?.description.hasPrefix(file.path) == true)
        #expect(error?.description.contains("at most \(MovieCatalog.maximumFileBytes)") == true)
    }

    @Test("A scenario file just under the limit is still read (and judged on its lines)")
    func fileJustUnderLimitIsRead() throws {
        let folder = try StepFixtures.folder("hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("long.scenario")
        let line = "# a comment to pad the file out, line after line, up to its size limit\n"
        let text =
            "wait 1ms\n"
            + String(repeating: line, count: (ScenarioParser.maximumFileBytes - 9) / line.utf8.count)
        #expect(text.utf8.count > ScenarioParser.maximumFileBytes - line.utf8.count)
        try Data(text.utf8).write(to: file)
        let scenario = try ScenarioParser.load(file.path)
        #expect(scenario.actions.count == 1)
    }

    @Test("A FIFO, a device and a directory are named as such and never read; a sparse file by its size")
    func specialFilesNeverRead() throws {
        let folder = try StepFixtures.folder("hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let cases: [(String, BoundedFile.Failure)] = [
            (fifo.path, .notAFile(what: "a FIFO (named pipe)")),
            ("/dev/zero", .notAFile(what: "a character device")),
            (folder.path, .notAFile(what: "a directory")),
            (folder.appendingPathComponent("absent").path, .missing),
        ]
        for kind in BoundedFile.Kind.allCases {
            for (path, failure) in cases {
                #expect(throws: failure) { try BoundedFile.read(path, as: kind) }
            }
            let sparse = folder.appendingPathComponent("sparse")
            try sparseFile(sparse, bytes: 3 << 30, startingWith: "x")
            let start = ContinuousClock.now
            #expect(
                throws: BoundedFile.Failure.tooLarge(
                    bytes: 3 << 30, limit: kind.maximumBytes, kind: kind.noun)
            ) {
                try BoundedFile.read(sparse.path, as: kind)
            }
            #expect(ContinuousClock.now - start < .seconds(1))
            // At the limit it is read whole; one byte more is refused.
            try sparseFile(sparse, bytes: UInt64(kind.maximumBytes), startingWith: "x")
            #expect(try BoundedFile.read(sparse.path, as: kind).count == kind.maximumBytes)
            try sparseFile(sparse, bytes: UInt64(kind.maximumBytes + 1), startingWith: "x")
            #expect(throws: BoundedFile.Failure.self) { try BoundedFile.read(sparse.path, as: kind) }
        }
        // A scenario named by a FIFO, or by /dev/stdin, gets its kind in the message, not a permission error.
        let error = #expect(throws: ScenarioError.self) { try ScenarioParser.load(fifo.path) }
        #expect(error?.message.hasPrefix("is a FIFO (named pipe), not a scenario file") == true)
    }

    @Test("A --posters folder that is missing, a file, or holds no PNG files is refused, naming --posters")
    func unusablePostersFolderRefused() throws {
        let folder = try StepFixtures.folder("hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("absent")
        let file = folder.appendingPathComponent("poster.png")
        try Data([1, 2, 3]).write(to: file)
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try Data("not a poster".utf8).write(to: empty.appendingPathComponent("notes.txt"))
        for (url, says) in [
            (missing, "no such folder"), (file, "is a file"), (empty, "no .png files"),
        ] {
            let error = #expect(throws: WorkbookError.self) {
                try PosterServer(postersDirectory: url)
            }
            #expect(error?.description.hasPrefix("--posters: ") == true)
            #expect(error?.description.contains(says) == true, "\(String(describing: error))")
            #expect(error?.description.contains(url.path) == true)
        }
    }

    @Test("An unreadable --posters folder is refused, naming --posters")
    func unreadablePostersFolderRefused() throws {
        let folder = try StepFixtures.folder("hostile")
        defer {
            try? FileManager.default.setAttributes(
                [.posixPermissions: 0o755], ofItemAtPath: folder.path)
            try? FileManager.default.removeItem(at: folder)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: folder.path)
        // The superuser reads every folder whatever its permissions: nothing to check then.
        guard (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) == nil else {
            return
        }
        let error = #expect(throws: WorkbookError.self) { try PosterServer(postersDirectory: folder) }
        #expect(error == .badInput("--posters: cannot read the folder \(folder.path)"))
    }

    @Test("Thousands of mutated catalogs each load or are refused naming the file, and never trap")
    func mutatedCatalogsNeverTrap() throws {
        // The first 40 bundled movies, written back as an XML property list.
        let entries = try MovieCatalog.bundled().movies.prefix(40).map {
            ["name": $0.name, "url": $0.urlString]
        }
        let original = [UInt8](
            try PropertyListSerialization.data(fromPropertyList: entries, format: .xml, options: 0))
        var random = SeededGenerator(seed: 0xCA7A_1065)
        var loaded = 0
        var kinds: Set<String> = []
        for _ in 0..<1500 {
            var bytes = original
            for _ in 0...random.below(4) {
                let position = random.below(bytes.count)
                switch random.below(4) {
                case 0: bytes[position] = UInt8(random.below(256))
                case 1: bytes.removeSubrange(position..<min(bytes.count, position + random.below(200)))
                case 2: bytes.insert(contentsOf: Array("<dict/><integer>9</integer>".utf8), at: position)
                default: bytes = Array(bytes.prefix(position))
                }
            }
            do {
                let catalog = try MovieCatalog.parse(Data(bytes), path: "fuzz.plist")
                #expect(!catalog.movies.isEmpty)
                loaded += 1
            } catch {
                #expect(error.description.hasPrefix("fuzz.plist: "))
                kinds.insert(Mirror(reflecting: error).children.first?.label ?? "\(error)")
            }
        }
        #expect(loaded > 0)
        #expect(kinds.count >= 3, "\(kinds.sorted())")
    }

    @Test("Random command lines each parse or are refused naming the option or word at fault")
    func randomCommandLines() throws {
        let words = [
            "--scenario", "--seed", "--json", "--trace", "--cache-dir", "--concurrency", "--posters",
            "--timeline", "--screens", "--export", "--color", "--help", "-h", "--seed=-1", "--seed=7",
            "--concurrency=0", "--concurrency=65", "--color=purple", "--json=yes", "--sead", "-x", "-",
            "--",
            "flaky", "0", "18446744073709551616", "", "é", "--trace=", "1e3", " 7", "never",
        ]
        var random = SeededGenerator(seed: 0x0B7_1065)
        var parsed = 0
        var refused = 0
        for _ in 0..<4000 {
            let arguments = (0..<random.below(6)).map { _ in words[random.below(words.count)] }
            do {
                _ = try OptionsParser.parse(arguments)
                parsed += 1
            } catch {
                refused += 1
                let culprit: String
                switch error {
                case .unknownOption(let option, _): culprit = option
                case .missingValue(let option): culprit = option
                case .badValue(let option, _, _): culprit = option
                case .duplicateOption(let option): culprit = option
                case .unexpectedArgument(let word): culprit = word
                }
                #expect(error.description.contains("“\(culprit)”"), "\(arguments) → \(error)")
                #expect(
                    arguments.contains {
                        $0 == culprit || $0.hasPrefix(culprit + "=") || culprit == "--help"
                    }
                )
            }
        }
        #expect(parsed > 100)
        #expect(refused > 100)
    }

}
