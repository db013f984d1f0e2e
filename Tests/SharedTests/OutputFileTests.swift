import Foundation
import Shared
import TestSupport
import Testing

@testable import CLI
@testable import Files
@testable import Scenarios
@testable import World

/// The parts that open outputs, word file errors and name inputs, in this process.
extension InputTests {
    @Test("A FIFO without a reader is refused at once, naming the option, the path and why")
    func fifoWithoutReaderRefused() throws {
        let folder = try StepFixtures.folder("fifo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let start = ContinuousClock.now
        let error = #expect(throws: OutputFile.Failure.self) {
            try OutputFile(path: fifo, option: "--trace")
        }
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(
            error?.description == "--trace: cannot write \(fifo): no process is reading the FIFO (named "
                + "pipe); start its reader first")
    }

    @Test("A regular file is replaced whole: nothing changes before commit, and a discarded one leaves it")
    func regularFileReplacedWhole() throws {
        let folder = try StepFixtures.folder("replace")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.txt").path
        try Data("earlier".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o640)
        let discarded = try OutputFile(path: path, option: "--trace")
        discarded.discard()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "earlier")
        let output = try OutputFile(path: path, option: "--trace")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "earlier", "unchanged until commit")
        try output.commit(Array("later".utf8))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "later")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o640, "the replaced file's mode is kept")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.txt"])
    }

    @Test("A symbolic link to a file keeps its link: the file it names is replaced")
    func symbolicLinkKept() throws {
        let folder = try StepFixtures.folder("link")
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("target").path
        try Data("earlier".utf8).write(to: URL(fileURLWithPath: target))
        let link = folder.appendingPathComponent("link").path
        #expect(symlink(target, link) == 0)
        try OutputFile(path: link, option: "--trace").commit(Array("later".utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "later")
    }

    @Test("Two spellings of one path are one destination; two files are two")
    func twoSpellingsOneDestination() throws {
        let folder = try StepFixtures.folder("same")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a").path
        #expect(OutputFile.sameDestination(path, folder.path + "/./a"))
        #expect(!OutputFile.sameDestination(path, folder.appendingPathComponent("b").path))
        try Data().write(to: URL(fileURLWithPath: path))
        let link = folder.appendingPathComponent("link").path
        #expect(symlink(path, link) == 0)
        #expect(OutputFile.sameDestination(path, link))
    }

    @Test(
        "A write that fails with ENOSPC says the disk is full",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func fullDevice() throws {
        let output = try OutputFile(path: "/dev/full", option: "--timeline")
        let error = #expect(throws: OutputFile.Failure.self) {
            try output.commit([UInt8](repeating: 1, count: 10))
        }
        #expect(error?.reason.hasPrefix("the disk is full") == true, "\(String(describing: error))")
    }

    @Test("File errors are worded: the reason in words with the system's message beside")
    func fileErrorsWorded() throws {
        #expect(SystemError.words(ENOSPC) == "the disk is full (No space left on device)")
        #expect(SystemError.words(ELOOP).hasPrefix("the path has a symbolic link loop"))
        #expect(SystemError.words(ETXTBSY).hasPrefix("a running program is that file"))
        #expect(SystemError.reason(CocoaError(.fileWriteOutOfSpace)).hasPrefix("the disk is full"))
    }

    @Test("Arguments that are not UTF-8 are shown with their bad bytes escaped")
    func nonUTF8ArgumentsEscaped() throws {
        #expect(CommandLineBytes.shown(Array("t".utf8) + [0xFF] + Array(".jsonl".utf8)) == "t\\xFF.jsonl")
        #expect(CommandLineBytes.shown(Array("é\u{1b}".utf8)) == "é\\u{1b}")
        #expect(CommandLineBytes.shown([0xC3]) == "\\xC3")
    }

    @Test("A scenario file's name reaches the reports with its control characters escaped")
    func scenarioNameEscaped() throws {
        let folder = try StepFixtures.folder("names")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try StepFixtures.scenario(
            "rows 5\nwait 1s\n", named: "red\u{1b}[31m\u{7}", in: folder)
        let scenario = try ScenarioParser.load(path)
        #expect(scenario.name == "red\\u{1b}[31m\\u{7}")
        #expect(!scenario.name.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test("A --posters folder maps rows to files by the names' bytes, so NFC and NFD names keep one order")
    func postersFolderOrderByBytes() throws {
        let fixtures = try StepFixtures.folder("posters-order")
        defer { try? FileManager.default.removeItem(at: fixtures) }
        let composed = "\u{E9}.png"
        let decomposed = "e\u{301}.png"
        let first = PNGEncoder.encode(Bitmap(width: 1, height: 1, rgba: [255, 0, 0, 255]))
        let second = PNGEncoder.encode(Bitmap(width: 1, height: 1, rgba: [0, 0, 255, 255]))
        // The same two files made in both orders, so the directory's own order differs.
        var servers: [PosterServer] = []
        for (index, names) in [[composed, decomposed], [decomposed, composed]].enumerated() {
            let folder = fixtures.appendingPathComponent("\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in names {
                // Compared by bytes: `==` on strings holds the two names equal.
                let isComposed = name.utf8.elementsEqual(composed.utf8)
                try Data(isComposed ? first : second).write(to: folder.appendingPathComponent(name))
            }
            servers.append(try PosterServer(postersDirectory: folder))
        }
        #expect(servers[0].fingerprint == servers[1].fingerprint)
        // NFD "e" (0x65) sorts before NFC "é" (0xC3 0xA9).
        #expect(servers[0].folderFiles.map { $0 == second } == [true, false])
    }

}
