import Foundation
import Shared
import TestSupport
import Testing

/// The step executables as a user runs them: exit codes, messages, pipes, and two at once on one cache.
@Suite("Step executables, Compare and Course, run as processes")
struct ProcessTests {
    /// The folder holding the built step executables, if they were built next to the tests.
    static let binaries: URL? = {
        var candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        for bundle in Bundle.allBundles { candidates.append(bundle.bundleURL.deletingLastPathComponent()) }
        candidates.append(
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
                ".build/debug"))
        return candidates.first {
            FileManager.default.isExecutableFile(
                atPath: $0.appendingPathComponent("Step4CacheAndPrefetch").path)
        }
    }()

    /// What a finished process left.
    struct Outcome {
        let status: Int32
        let output: String
        let errors: String
    }

    /// Runs a step executable to the end.
    static func run(_ step: Step, _ arguments: [String]) throws -> Outcome {
        let process = try start(step, arguments)
        let output = process.output.fileHandleForReading.readDataToEndOfFile()
        let errors = process.errors.fileHandleForReading.readDataToEndOfFile()
        process.process.waitUntilExit()
        return Outcome(
            status: process.process.terminationStatus, output: String(decoding: output, as: UTF8.self),
            errors: String(decoding: errors, as: UTF8.self))
    }

    /// Starts a step executable with pipes for its output.
    static func start(_ step: Step, _ arguments: [String]) throws -> (
        process: Process, output: Pipe, errors: Pipe
    ) {
        let binaries = try #require(binaries)
        let process = Process()
        process.executableURL = binaries.appendingPathComponent(step.rawValue)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return (process, output, errors)
    }

    @Test(
        "Bad arguments end with exit code 2 and a message naming the option or file",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func badArguments() throws {
        let cases = [
            (["--sead", "7"], "“--sead”"),
            (["--seed", "-1"], "“--seed”"),
            (["--concurrency", "0"], "“--concurrency”"),
            (["--trace"], "“--trace”"),
            (["course"], "“course”"),
            (["--scenario", "/nonexistent/x.scenario"], "/nonexistent/x.scenario"),
            (["--scenario", "/"], "is a directory"),
            (["--scenario", "/dev/zero"], "is a character device"),
            (["--cache-dir", "/proc"], "--cache-dir"),
            (["--posters", "/nonexistent-posters"], "--posters"),
            (["--cache-dir", "/proc/version"], "--cache-dir"),
            (["--trace", "/nonexistent/folder/trace.jsonl"], "--trace"),
        ]
        for (arguments, mentions) in cases {
            let outcome = try Self.run(.cacheAndPrefetch, arguments)
            let context = "\(arguments): \(outcome.errors)"
            #expect(outcome.status == 2, "\(context)")
            #expect(outcome.errors.hasPrefix("Step4CacheAndPrefetch: "), "\(context)")
            #expect(outcome.errors.contains(mentions), "\(context)")
            #expect(!outcome.errors.contains("Error Domain"), "no raw NSError: \(context)")
            #expect(outcome.output.isEmpty, "\(context)")
        }
    }

    @Test(
        "A FIFO, a NUL byte and a file where the disk's folder belongs each get one clear line",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func oddFiles() throws {
        let folder = try StepFixtures.folder("odd")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A FIFO nobody writes to: reading it would hang the run.
        let fifo = folder.appendingPathComponent("pipe.scenario")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let piped = try Self.run(.cacheAndPrefetch, ["--scenario", fifo.path])
        #expect(piped.status == 2)
        #expect(piped.errors.contains("is a FIFO (named pipe), not a scenario file"), "\(piped.errors)")
        // A NUL byte and a carriage return in a scenario line come out escaped, on one line.
        let binary = try StepFixtures.scenario("wait 1s\nwa\u{0}it\r 1s\n", named: "binary", in: folder)
        let escaped = try Self.run(.cacheAndPrefetch, ["--scenario", binary])
        #expect(escaped.status == 2)
        #expect(escaped.errors.contains("binary.scenario:2: "), "\(escaped.errors)")
        #expect(escaped.errors.contains("wa\\u{0}it"), "\(escaped.errors)")
        #expect(escaped.errors.split(separator: "\n").count == 1, "\(escaped.errors)")
        // --cache-dir D where D/Caches is a file.
        let cache = folder.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try Data().write(to: cache.appendingPathComponent("Caches"))
        let blocked = try Self.run(.cacheAndPrefetch, ["--cache-dir", cache.path])
        #expect(blocked.status == 2)
        #expect(
            blocked.errors.hasPrefix(
                "Step4CacheAndPrefetch: --cache-dir: \(cache.path)/Caches is a file, not a folder"),
            "\(blocked.errors)")
        #expect(blocked.errors.split(separator: "\n").count == 1, "\(blocked.errors)")
    }

    @Test(
        "A report that cannot be written (standard output on /dev/full) ends with exit code 1",
        .enabled(
            if: binaries != nil && FileManager.default.fileExists(atPath: "/dev/full"),
            "the step executables are not built next to the tests, or there is no /dev/full"))
    func fullDevice() throws {
        let binaries = try #require(Self.binaries)
        let process = Process()
        process.executableURL = binaries.appendingPathComponent(Step.naive.rawValue)
        process.arguments = ["--scenario", "reading"]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(
            String(decoding: message, as: UTF8.self).contains("cannot write the report to standard output"))
    }

    @Test(
        "SIGTERM and SIGINT mid-run remove the run's temporary disk and leave no temporary files",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func interrupted() throws {
        for number in [SIGTERM, SIGINT] {
            let binaries = try #require(Self.binaries, "\(number)")
            let folder = try StepFixtures.folder("signal")
            defer { try? FileManager.default.removeItem(at: folder) }
            let temporary = folder.appendingPathComponent("tmp", isDirectory: true)
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let process = Process()
            process.executableURL = binaries.appendingPathComponent(Step.cacheAndPrefetch.rawValue)
            process.arguments = ["--scenario", "long-fling"]
            process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) {
                $1
            }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait until the run has made its temporary disk, then interrupt it.
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline,
                ((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []).isEmpty
            {
                usleep(20_000)
            }
            #expect(
                !((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []).isEmpty,
                "\(number)")
            usleep(200_000)
            kill(process.processIdentifier, number)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "\(number)")
            let left = (try? FileManager.default.subpathsOfDirectory(atPath: temporary.path)) ?? []
            #expect(left.isEmpty, "\(number): left behind: \(left.prefix(5))")
        }
    }

    @Test(
        "--trace into an unwritable place fails before the run starts",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func unwritableTraceFailsEarly() throws {
        let folder = try StepFixtures.folder("trace")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A folder where the trace file belongs, and a path under a regular file: neither can be written.
        let file = folder.appendingPathComponent("plain")
        try Data().write(to: file)
        for (index, path) in [folder.path, file.path + "/trace.jsonl"].enumerated() {
            let cache = folder.appendingPathComponent("cache-\(index)")
            let outcome = try Self.run(
                .cacheAndPrefetch, ["--trace", path, "--scenario", "long-fling", "--cache-dir", cache.path])
            #expect(outcome.status == 2)
            #expect(outcome.errors.contains("--trace"), "\(outcome.errors)")
            #expect(outcome.output.isEmpty, "nothing ran")
            // Had the run started, step 4 would have written posters into its disk cache.
            let written = (try? FileManager.default.subpathsOfDirectory(atPath: cache.path)) ?? []
            #expect(!written.contains { $0.hasSuffix(".poster") }, "the run started: \(written)")
        }
    }

    @Test(
        "Writing the report into a closed pipe ends quietly",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func closedPipe() throws {
        let process = try Self.start(.naive, ["--scenario", "reading", "--screens"])
        // The reader goes away at once, as `| head -0` would.
        try process.output.fileHandleForReading.close()
        let errors = process.errors.fileHandleForReading.readDataToEndOfFile()
        process.process.waitUntilExit()
        // `Workbook.write` catches the write error on EPIPE (SIGPIPE is ignored) and exits quietly.
        #expect(process.process.terminationReason == .exit, "no signal, no crash")
        #expect(process.process.terminationStatus == 0)
        #expect(!String(decoding: errors, as: UTF8.self).contains("Crash"), "no crash report")
    }

    @Test(
        "Two step-4 processes on one cache folder at once leave only whole files behind",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func concurrentCache() throws {
        let folder = try StepFixtures.folder("concurrent")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try StepFixtures.scenario(
            "rows 60\nwait 2s\nfling to row 40\nwait 3s\nfling to row 0\nwait 2s\n", named: "shared",
            in: folder)
        let cache = folder.appendingPathComponent("cache").path
        let arguments = ["--scenario", scenario, "--cache-dir", cache, "--json"]
        let first = try Self.start(.cacheAndPrefetch, arguments)
        let second = try Self.start(.cacheAndPrefetch, arguments + ["--seed", "99"])
        for process in [first, second] {
            _ = process.output.fileHandleForReading.readDataToEndOfFile()
            process.process.waitUntilExit()
            #expect(process.process.terminationStatus == 0)
        }
        let files = StepFixtures.cachedPosters(in: URL(fileURLWithPath: cache))
        #expect(files.count > 10)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            let newline = try #require(bytes.firstIndex(of: 10))
            let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
            let body = Array(bytes[(newline + 1)...])
            #expect(header.count >= 4 && header[0] == "poster-cache-v2")
            #expect(
                header.count >= 2 && header[1] == Substring(String(body.count)),
                "\(file.lastPathComponent) is whole")
            #expect(throws: Never.self) { try PNGDecoder.decode(body) }
        }
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: URL(fileURLWithPath: cache).appendingPathComponent("Caches/Posters").path
        ).filter { !$0.hasSuffix(".poster") }
        #expect(leftovers.isEmpty, "no temporary files left: \(leftovers)")
        let third = try Self.run(.cacheAndPrefetch, arguments)
        #expect(third.status == 0)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(third.output.utf8)) as? [String: Any])
        let metrics = try #require(report["metrics"] as? [String: Any])
        #expect(metrics["wrong_image_events"] as? Int == 0)
        #expect((metrics["disk_cache_hits"] as? Int ?? 0) > 10)
    }
}
