import Foundation
import Shared
import TestSupport
import Testing

/// Output paths as hostile users give them: full disks, loops, inputs named as outputs (FIFOs are in
/// FIFOOutputTests.swift).
/// Each runs a step as a child process, bounded in time, and checks one line on standard error, the exit
/// code, and that nothing that was there before was lost.
extension ProcessTests {
    /// Runs a step binary as a child with at most `deadline` seconds.
    static func runChild(
        _ step: Step, _ arguments: [String], environment: [String: String] = [:], deadline: Double = 60
    ) throws -> ChildProcess.Outcome {
        let binaries = try #require(binaries)
        return try ChildProcess.run(
            binaries.appendingPathComponent(step.rawValue), arguments, environment: environment,
            deadline: deadline)
    }

    /// Runs step 1 as a child with at most `deadline` seconds.
    static func runChild(_ arguments: [String], environment: [String: String] = [:], deadline: Double = 60)
        throws
        -> ChildProcess.Outcome
    {
        try runChild(.naive, arguments, environment: environment, deadline: deadline)
    }

    /// Whether this test process may mount a tiny tmpfs (root, and the kernel allows it), for a real full
    /// disk.
    static let canMountTmpfs: Bool = {
        guard geteuid() == 0, let folder = try? StepFixtures.folder("tmpfs-probe") else { return false }
        defer { try? FileManager.default.removeItem(at: folder) }
        guard TinyDisk.mount(at: folder.path) else { return false }
        TinyDisk.unmount(folder.path)
        return true
    }()

    /// The lines of a message.
    static func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n")
    }

    @Test(
        "A path that cannot hold an output is refused before the run in one line naming it, with no raw error",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func pathThatCannotHoldOutput() throws {
        for name in ["loop", "/proc/version", "folder", "missing/trace.jsonl", "plain/trace.jsonl"] {
            let folder = try StepFixtures.folder("paths")
            defer { try? FileManager.default.removeItem(at: folder) }
            let loop = folder.appendingPathComponent("loop").path
            #expect(symlink(loop, loop) == 0, "\(name)")
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("folder"), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: folder.appendingPathComponent("plain"))
            let path = name.hasPrefix("/") ? name : folder.appendingPathComponent(name).path
            let outcome = try Self.runChild(["--trace", path], deadline: 20)
            #expect(outcome.status == 2, "\(name)")
            #expect(Self.lines(outcome.errors).count == 1, "\(name): \(outcome.errors)")
            #expect(
                outcome.errors.contains("--trace") && outcome.errors.contains(path),
                "\(name): \(outcome.errors)")
            #expect(
                !outcome.errors.contains("Error Domain") && !outcome.errors.contains("NSCocoa"), "\(name)"
            )
            #expect(outcome.output.isEmpty, "\(name): refused before the run")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(!left.contains { $0.hasPrefix(".tmp-") }, "\(name): \(left)")
        }
    }

    @Test(
        "An output that is the scenario file, or the other output, is refused and nothing is overwritten",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func outputThatIsAnInput() throws {
        let folder = try StepFixtures.folder("same")
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = "rows 20\nwait 1s\n"
        let scenario = try StepFixtures.scenario(text, named: "mine.scenario", in: folder)
        let overwrite = try Self.runChild(["--scenario", scenario, "--trace", scenario])
        #expect(overwrite.status == 2)
        #expect(overwrite.errors.contains("--scenario file"), "\(overwrite.errors)")
        #expect(try String(contentsOfFile: scenario, encoding: .utf8) == text)
        let same = folder.appendingPathComponent("out").path
        let twice = try Self.runChild([
            "--scenario", scenario, "--trace", same, "--timeline", "\(folder.path)/./out",
        ])
        #expect(twice.status == 2)
        #expect(Self.lines(twice.errors).count == 1 && twice.errors.contains("also the --trace file"))
        #expect(!FileManager.default.fileExists(atPath: same))
    }

    @Test(
        "A path argument that is not UTF-8 is refused showing its bytes, and no other file is written",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func nonUTF8PathRefused() throws {
        let folder = try StepFixtures.folder("utf8")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Swift strings cannot hold the byte 0xFF, so the child is started through the shell's printf.
        let binaries = try #require(Self.binaries)
        let step = binaries.appendingPathComponent(Step.naive.rawValue).path
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "cd \"$1\" && exec \"$0\" --trace \"$(printf 't\\377.jsonl')\"", step, folder.path],
            deadline: 20)
        #expect(outcome.status == 2)
        #expect(
            outcome.errors.contains("t\\xFF.jsonl") && outcome.errors.contains("UTF-8"),
            "\(outcome.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test(
        "A TMPDIR that is missing or a file is refused in one line and never created",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func badTMPDIRRefused() throws {
        let folder = try StepFixtures.folder("tmpdir")
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("nonexistent").path
        let file = folder.appendingPathComponent("file").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        for path in [missing, file] {
            let outcome = try Self.runChild(
                .cacheAndPrefetch, [], environment: ["TMPDIR": path], deadline: 20)
            #expect(outcome.status == 2)
            #expect(
                Self.lines(outcome.errors).count == 1 && outcome.errors.contains("TMPDIR"),
                "\(outcome.errors)")
            #expect(!outcome.errors.contains("Error Domain"))
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test(
        "--trace /dev/stdout into a file gets the trace and then the report, neither replacing the other",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func traceToStandardOutputFile() throws {
        let outcome = try Self.runChild(["--scenario", "reading", "--trace", "/dev/stdout"], deadline: 30)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.hasPrefix("{\"t_us\": "))
        #expect(outcome.output.contains("\nstep       Step1Naive\n"))
    }

    @Test(
        "On /dev/full the trace says the disk is full in one line, and the report is still printed",
        .enabled(if: binaries != nil && FileManager.default.fileExists(atPath: "/dev/full")))
    func devFull() throws {
        let outcome = try Self.runChild(["--trace", "/dev/full"], deadline: 30)
        #expect(outcome.status == 1)
        #expect(Self.lines(outcome.errors).count == 1 && outcome.errors.contains("the disk is full"))
        #expect(outcome.output.hasPrefix("step       Step1Naive"), "the report is printed")
    }

    @Test(
        "On a full disk the earlier trace and export are kept whole, with no partial file, and the report printed",
        .enabled(if: binaries != nil && canMountTmpfs, "needs root and tmpfs for a real full disk"))
    func fullDiskKeepsEarlierFiles() throws {
        let folder = try StepFixtures.folder("full")
        defer { try? FileManager.default.removeItem(at: folder) }
        // An earlier export made on a roomy disk, then copied onto a tiny one with the trace.
        let earlier = folder.appendingPathComponent("earlier").path
        #expect(try Self.runChild(["--scenario", "reading", "--export", earlier]).status == 0)
        let exported = try FileManager.default.contentsOfDirectory(atPath: earlier).sorted()
        let disk = folder.appendingPathComponent("disk").path
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        #expect(TinyDisk.mount(at: disk, kilobytes: 256))
        defer { TinyDisk.unmount(disk) }
        let trace = "\(disk)/trace.jsonl"
        try Data("{\"earlier\":true}\n".utf8).write(to: URL(fileURLWithPath: trace))
        let shots = "\(disk)/shots"
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let picture = try Data(contentsOf: URL(fileURLWithPath: "\(earlier)/screen-end.png"))
        try picture.write(to: URL(fileURLWithPath: "\(shots)/screen-end.png"))
        // Fill what is left.
        let filler = open("\(disk)/filler", O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 1, count: 4096)
        while write(filler, block, block.count) > 0 {}
        close(filler)

        let traced = try Self.runChild(["--trace", trace], deadline: 30)
        #expect(traced.status == 1)
        #expect(Self.lines(traced.errors).count == 1 && traced.errors.contains("the disk is full"))
        #expect(traced.output.hasPrefix("step       Step1Naive"), "the report is printed")
        #expect(try String(contentsOfFile: trace, encoding: .utf8) == "{\"earlier\":true}\n")

        let export = try Self.runChild(["--export", shots], deadline: 30)
        #expect(export.status == 1)
        #expect(export.errors.contains("--export") && export.errors.contains("the disk is full"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: shots) == ["screen-end.png"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(shots)/screen-end.png")) == picture)
        let left = try FileManager.default.contentsOfDirectory(atPath: disk).sorted()
        #expect(left == ["filler", "shots", "trace.jsonl"], "no temporary file left: \(left)")
        #expect(exported.count > 3)
    }

    @Test(
        "An export into a folder holding an earlier one replaces the earlier pictures and keeps other files",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func exportReplacesItsOwnFiles() throws {
        let folder = try StepFixtures.folder("export")
        defer { try? FileManager.default.removeItem(at: folder) }
        let shots = folder.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        for name in ["screen-99-stop-99s.png", "poster-row-999.png", "notes.txt"] {
            try Data("stale".utf8).write(to: shots.appendingPathComponent(name))
        }
        let outcome = try Self.runChild(["--scenario", "reading", "--export", shots.path])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: shots.path)
        #expect(names.contains("notes.txt") && names.contains("screen-end.png"))
        #expect(!names.contains("screen-99-stop-99s.png") && !names.contains("poster-row-999.png"))
        #expect(!names.contains { $0.hasPrefix(".tmp-") })
    }

    @Test(
        "SIGHUP, SIGUSR1 and SIGALRM mid-run remove the run's temporary disk",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func otherInterrupts() throws {
        for number in [SIGHUP, SIGUSR1, SIGALRM] {
            let binaries = try #require(Self.binaries, "\(number)")
            let folder = try StepFixtures.folder("signal")
            defer { try? FileManager.default.removeItem(at: folder) }
            let process = Process()
            process.executableURL = binaries.appendingPathComponent(Step.cacheAndPrefetch.rawValue)
            process.arguments = ["--scenario", "long-fling"]
            process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": folder.path]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline,
                ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).isEmpty
            {
                usleep(20_000)
            }
            usleep(200_000)
            kill(process.processIdentifier, number)
            process.waitUntilExit()
            #expect(
                process.terminationReason == .uncaughtSignal && process.terminationStatus == number,
                "\(number)")
            let left = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
            #expect(left.isEmpty, "\(number): left behind: \(left.prefix(5))")
        }
    }

    @Test(
        "A disk cache the app turned off is said on standard error and in the report",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func diskCacheOffIsSaid() throws {
        let folder = try StepFixtures.folder("cache-off")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try StepFixtures.scenario(
            "rows 30\ndisk full-after=0\nwait 2s\nrelaunch\nwait 2s\n", named: "full.scenario", in: folder
        )
        let outcome = try Self.runChild(.cacheAndPrefetch, ["--scenario", scenario])
        #expect(outcome.status == 0)
        #expect(Self.lines(outcome.errors).count == 1, "said once: \(outcome.errors)")
        #expect(
            outcome.errors.contains("turned its disk cache off") && outcome.errors.contains("disk full"))
        #expect(outcome.output.contains("warning: the app turned its disk cache off"))
        let json = try Self.runChild(.cacheAndPrefetch, ["--scenario", scenario, "--json"])
        #expect(json.output.contains("\"notices\": [\"warning: the app turned its disk cache off"))
    }

    @Test(
        "--cache-dir without a usable private folder or key says its entries cannot be trusted across runs",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func cacheDirWithoutKeySaysSo() throws {
        let folder = try StepFixtures.folder("trust")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache").path
        let noHome = try Self.runChild(
            .cacheAndPrefetch, ["--scenario", "reading", "--cache-dir", cache],
            environment: ["HOME": "", "XDG_CACHE_HOME": ""])
        #expect(noHome.status == 0)
        #expect(noHome.errors.contains("cannot be trusted across runs"), "\(noHome.errors)")
        #expect(noHome.errors.contains("HOME"))
        // A key that is a directory.
        let xdg = folder.appendingPathComponent("xdg")
        try FileManager.default.createDirectory(
            at: xdg.appendingPathComponent("image-workbook/key"), withIntermediateDirectories: true)
        let badKey = try Self.runChild(
            .cacheAndPrefetch, ["--scenario", "reading", "--cache-dir", cache],
            environment: ["XDG_CACHE_HOME": xdg.path])
        #expect(badKey.status == 0)
        #expect(
            badKey.errors.contains("cannot be trusted across runs") && badKey.errors.contains("directory")
        )
        // Steps without a disk cache seal nothing, so they have nothing to warn about.
        for step in [Step.naive, .background, .idleOnly] {
            let plain = try Self.runChild(
                step, ["--scenario", "reading", "--cache-dir", cache],
                environment: ["HOME": "", "XDG_CACHE_HOME": ""])
            #expect(plain.status == 0)
            #expect(!plain.errors.contains("cannot be trusted"), "\(step.rawValue): \(plain.errors)")
        }
        // With a good private folder nothing is said.
        let good = try Self.runChild(
            .cacheAndPrefetch, ["--scenario", "reading", "--cache-dir", cache],
            environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("fresh").path])
        #expect(good.errors.isEmpty, "\(good.errors)")
    }

    @Test(
        "Option errors take one line; step 5's --without typo lists only step 5's techniques",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func optionErrorsTakeOneLine() throws {
        let typo = try Self.runChild(.concurrency, ["--without", "prefetchh"], deadline: 20)
        #expect(typo.status == 2)
        #expect(Self.lines(typo.errors).count == 1, "\(typo.errors)")
        // Step 5's, which are step 4's, and none of another step's.
        #expect(typo.errors.contains("one-load-per-url") && typo.errors.contains("extra-concurrency"))
        #expect(!typo.errors.contains("decode-at-display-size"))
        let unknown = try Self.runChild(["--sead", "7"], deadline: 20)
        #expect(unknown.status == 2 && Self.lines(unknown.errors).count == 1, "\(unknown.errors)")
    }

    @Test(
        "Seeded random output options over hostile paths each end within 10 s, in one line a failure",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func randomOutputPaths() throws {
        let folder = try StepFixtures.folder("fuzz-outputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = "rows 12\nwait 500ms\ndrag to row 3 over 300ms\nwait 1s\n"
        let scenario = try StepFixtures.scenario(text, named: "tiny", in: folder)
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let loop = folder.appendingPathComponent("loop").path
        #expect(symlink(loop, loop) == 0)
        let earlier = folder.appendingPathComponent("earlier").path
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("folder"), withIntermediateDirectories: true)
        let targets = [
            fifo, "/dev/full", "/dev/null", loop, folder.appendingPathComponent("folder").path,
            "/proc/version",
            folder.appendingPathComponent("missing/out").path, earlier, scenario,
            folder.appendingPathComponent("fresh").path,
        ]
        var random = SeededGenerator(seed: 0x0_0B7_2029)
        for round in 0..<14 {
            try Data("earlier\n".utf8).write(to: URL(fileURLWithPath: earlier))
            var arguments = ["--scenario", scenario]
            for option in ["--trace", "--timeline"] where random.below(3) > 0 {
                arguments += [option, targets[random.below(targets.count)]]
            }
            if random.below(4) == 0 {
                arguments += ["--export", folder.appendingPathComponent("shots").path]
            }
            let outcome = try Self.runChild(arguments, deadline: 20)
            let context = "round \(round): \(arguments.dropFirst(2)) → \(outcome.status): \(outcome.errors)"
            #expect(outcome.seconds < 10, "\(context)")
            #expect([0, 1, 2].contains(outcome.status), "\(context)")
            #expect(outcome.status == 0 || !outcome.errors.isEmpty, "\(context)")
            #expect(outcome.status != 2 || Self.lines(outcome.errors).count == 1, "\(context)")
            #expect(Self.lines(outcome.errors).count <= 3, "\(context)")
            #expect(!outcome.errors.contains("Error Domain"), "\(context)")
            #expect(try String(contentsOfFile: scenario, encoding: .utf8) == text, "\(context)")
            let kept = try String(contentsOfFile: earlier, encoding: .utf8)
            #expect(kept == "earlier\n" || kept.hasSuffix("}\n") || kept.hasSuffix("</svg>\n"), "\(context)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(!left.contains { $0.hasPrefix(".tmp-") }, "\(context)")
        }
    }
}

/// A tmpfs of a few kilobytes mounted for one test: a real full disk without touching any other.
enum TinyDisk {
    /// Mounts a tmpfs of `kilobytes` at a folder; whether it worked.
    static func mount(at path: String, kilobytes: Int = 64) -> Bool {
        succeeds("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path])
    }

    /// Unmounts it (lazily, so a file still open cannot keep it).
    static func unmount(_ path: String) {
        _ = succeeds("/bin/umount", ["-l", path])
    }

    private static func succeeds(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
