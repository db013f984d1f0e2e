import Foundation
import Shared
import TestSupport
import Testing

/// Inputs that once took gigabytes or minutes, each run as a child process whose peak memory and wall
/// time are measured. Each bomb is sized so the code without its limit would blow the bound (a 3 GB read,
/// a 256 MB decode per row, minutes of frames), while the limited code refuses it at once. The bounds have
/// wide margins for a busy machine and a debug build: 30 s and 500 MB. Each child's peak is its own, so
/// the bombs run beside the other tests.
@Suite("Resource bombs")
struct ResourceBombTests {
    static let maximumSeconds = 30.0
    static let maximumBytes = 500 << 20

    /// A short scenario: launch and look at a dozen rows.
    static let glance = "rows 12\nwait 1s\n"

    /// Runs a step (step 4 unless told) in a child process with its own temporary directory, and checks
    /// the bounds.
    func run(
        _ arguments: [String], in folder: URL, environment: [String: String] = [:],
        step: Step = .cacheAndPrefetch
    ) throws -> ChildProcess.Outcome {
        let binaries = try #require(ProcessTests.binaries)
        let temporary = folder.appendingPathComponent("tmp", isDirectory: true)
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        var variables = ["TMPDIR": temporary.path]
        for (key, value) in environment { variables[key] = value }
        let outcome = try ChildProcess.run(
            binaries.appendingPathComponent(step.rawValue), arguments, environment: variables)
        #expect(outcome.seconds < Self.maximumSeconds, "took \(outcome.seconds) s: \(outcome.errors)")
        #expect(outcome.peakBytes < Self.maximumBytes, "peaked at \(outcome.peakBytes >> 20) MB")
        #expect(!outcome.errors.contains("Fatal error"), "\(outcome.errors)")
        return outcome
    }

    /// Makes a sparse file of `bytes` bytes (instant, whatever the size).
    func sparse(_ url: URL, bytes: UInt64) throws {
        try Data().write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: bytes)
        try handle.close()
    }

    @Test(
        "A 3 GB sparse file in place of a disk-cache entry is a miss, not a 3 GB read",
        .enabled(if: ProcessTests.binaries != nil, "the step executables are not built next to the tests"))
    func sparseCacheEntryIsAMiss() throws {
        let folder = try StepFixtures.folder("bomb-entry")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try StepFixtures.scenario(Self.glance, named: "glance", in: folder)
        let cache = folder.appendingPathComponent("cache")
        let arguments = ["--scenario", scenario, "--cache-dir", cache.path, "--json"]
        #expect(try run(arguments, in: folder).status == 0)
        let intact = try run(arguments, in: folder)
        let entry = try #require(StepFixtures.cachedPosters(in: cache).first)
        try sparse(entry, bytes: 3 << 30)
        let bombed = try run(arguments, in: folder)
        #expect(bombed.status == 0)
        let metrics = try Self.metrics(bombed.output)
        #expect(metrics["wrong_image_events"] == 0)
        let before = try Self.metrics(intact.output)["requests_started"] ?? -1
        #expect(
            metrics["requests_started"] == before + 1, "the bombed entry is downloaded again, and only it"
        )
        #expect(try Self.finalHashes(bombed.output) == Self.finalHashes(intact.output))
    }

    @Test(
        "A 3 GB sparse .png in --posters is refused at the start, naming the file and the limit",
        .enabled(if: ProcessTests.binaries != nil, "the step executables are not built next to the tests"))
    func sparsePosterRefusedAtStart() throws {
        let folder = try StepFixtures.folder("bomb-poster")
        defer { try? FileManager.default.removeItem(at: folder) }
        let posters = folder.appendingPathComponent("posters", isDirectory: true)
        try FileManager.default.createDirectory(at: posters, withIntermediateDirectories: true)
        try sparse(posters.appendingPathComponent("a.png"), bytes: 3 << 30)
        let outcome = try run(["--posters", posters.path], in: folder)
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains("--posters"), "\(outcome.errors)")
        #expect(outcome.errors.contains("a.png"), "\(outcome.errors)")
        #expect(
            outcome.errors.contains("at most \(BoundedFile.Kind.poster.maximumBytes)"),
            "\(outcome.errors)")
        #expect(outcome.errors.split(separator: "\n").count == 1, "one line: \(outcome.errors)")
    }

    @Test(
        "A 1 GB sparse file in the poster file cache is ignored and replaced, not read",
        .enabled(if: ProcessTests.binaries != nil, "the step executables are not built next to the tests"))
    func sparseFileCacheEntryIgnored() throws {
        let folder = try StepFixtures.folder("bomb-pcache")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try StepFixtures.scenario(Self.glance, named: "glance", in: folder)
        let xdg = folder.appendingPathComponent("xdg", isDirectory: true)
        let environment = ["XDG_CACHE_HOME": xdg.path]
        let first = try run(["--scenario", scenario, "--json"], in: folder, environment: environment)
        #expect(first.status == 0)
        let root = xdg.appendingPathComponent("image-workbook")
        let posters = try #require(
            try FileManager.default.contentsOfDirectory(atPath: root.path).first {
                $0.hasPrefix("posters-")
            })
        let folderURL = root.appendingPathComponent(posters)
        let names = try FileManager.default.contentsOfDirectory(atPath: folderURL.path).filter {
            $0.hasSuffix(".png")
        }.sorted()
        #expect(names.count > 5)
        for name in names { try sparse(folderURL.appendingPathComponent(name), bytes: 1 << 30) }
        let second = try run(["--scenario", scenario, "--json"], in: folder, environment: environment)
        #expect(second.status == 0)
        #expect(try Self.finalHashes(second.output) == Self.finalHashes(first.output))
        // The bombs were replaced by real posters.
        for name in names {
            let size = try #require(BoundedFile.size(atPath: folderURL.appendingPathComponent(name).path))
            #expect(size < 1_000_000)
        }
    }

    @Test(
        "A --posters PNG over 1024×1024 pixels is refused at the start in one line naming the file and the cap",
        .enabled(if: ProcessTests.binaries != nil, "the step executables are not built next to the tests"))
    func posterOverTheCapRefused() throws {
        for poster in HugePoster.all {
            let folder = try StepFixtures.folder("bomb-pixels")
            defer { try? FileManager.default.removeItem(at: folder) }
            let posters = folder.appendingPathComponent("posters", isDirectory: true)
            try FileManager.default.createDirectory(at: posters, withIntermediateDirectories: true)
            let png = ZeroPNG.make(width: poster.width, height: poster.height, bitDepth: poster.bitDepth)
            #expect(png.count < 16_000_000, "\(poster): within the file limit")
            try Data(png).write(to: posters.appendingPathComponent("huge.png"))
            let scenario = try StepFixtures.scenario(Self.glance, named: "glance", in: folder)
            let outcome = try run(
                ["--scenario", scenario, "--posters", posters.path], in: folder, step: poster.step)
            #expect(outcome.status == 2, "\(poster)")
            #expect(
                outcome.errors.split(separator: "\n").count == 1, "\(poster): one line: \(outcome.errors)"
            )
            #expect(
                outcome.errors.contains("--posters") && outcome.errors.contains("huge.png"),
                "\(poster): \(outcome.errors)")
            #expect(
                outcome.errors.contains("\(poster.width)×\(poster.height) pixels"),
                "\(poster): \(outcome.errors)")
            #expect(outcome.errors.contains("at most 1024×1024"), "\(poster): \(outcome.errors)")
        }
    }

    @Test(
        "A dense screen of posters at the 1024×1024 cap runs within the bounds, every row showing its poster",
        .enabled(if: ProcessTests.binaries != nil, "the step executables are not built next to the tests"))
    func denseScreenAtTheCapRuns() throws {
        for step in [Step.naive, .cacheAndPrefetch, .concurrency] {
            let folder = try StepFixtures.folder("bomb-dense")
            defer { try? FileManager.default.removeItem(at: folder) }
            let posters = folder.appendingPathComponent("posters", isDirectory: true)
            try FileManager.default.createDirectory(at: posters, withIntermediateDirectories: true)
            // One file, so every row decodes the same pixels (as with the reproduction's one 4096² file).
            try Data(ZeroPNG.make(width: 1024, height: 1024, bitDepth: 16)).write(
                to: posters.appendingPathComponent("big.png"))
            // 8712 / 88 = 99 rows on screen.
            let dense = "screen height=8712 row=88\nrows 200\nwait 1s\n"
            let scenario = try StepFixtures.scenario(dense, named: "dense", in: folder)
            let outcome = try run(
                ["--scenario", scenario, "--posters", posters.path, "--json"], in: folder, step: step)
            #expect(outcome.status == 0, "\(step): \(outcome.errors)")
            let shown = try Self.finalHashes(outcome.output).filter { $0 != "-" }
            #expect(shown.count > 90, "\(step): rows showing a picture: \(shown.count)")
        }
    }

    @Test(
        "A dozen distinct posters at the cap, decoded five at a time, run within the bounds",
        .enabled(if: ProcessTests.binaries != nil, "the step executables are not built next to the tests"))
    func dozenPostersAtTheCapRun() throws {
        for step in [Step.naive, .cacheAndPrefetch, .concurrency] {
            let folder = try StepFixtures.folder("bomb-distinct")
            defer { try? FileManager.default.removeItem(at: folder) }
            let posters = folder.appendingPathComponent("posters", isDirectory: true)
            try FileManager.default.createDirectory(at: posters, withIntermediateDirectories: true)
            for index in 0..<12 {
                // Each a different height, so no two decode to the same pixels.
                try Data(ZeroPNG.make(width: 1024, height: 1024 - UInt32(index), bitDepth: 16)).write(
                    to: posters.appendingPathComponent("p\(index).png"))
            }
            let scenario = try StepFixtures.scenario(Self.glance, named: "glance", in: folder)
            let outcome = try run(
                ["--scenario", scenario, "--posters", posters.path, "--json"], in: folder, step: step)
            #expect(outcome.status == 0, "\(step): \(outcome.errors)")
            #expect(try Self.finalHashes(outcome.output).filter { $0 != "-" }.count >= 8, "\(step)")
        }
    }

    @Test(
        "50,000 junk one-byte .poster files in step 5's --cache-dir cost a listing, not a sort per write",
        .enabled(if: ProcessTests.binaries != nil, "the step executables are not built next to the tests"))
    func junkCacheFiles() throws {
        let folder = try StepFixtures.folder("bomb-junk")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clean = try run(["--json"], in: folder, step: .concurrency)
        let cache = folder.appendingPathComponent("cache")
        let posters = cache.appendingPathComponent("Caches/Posters", isDirectory: true)
        try FileManager.default.createDirectory(at: posters, withIntermediateDirectories: true)
        for index in 0..<50_000 {
            // Plain system calls: `FileManager.createFile` writes each file atomically, which takes minutes.
            let descriptor = open(
                posters.appendingPathComponent("junk\(index).poster").path, O_WRONLY | O_CREAT, 0o600)
            #expect(descriptor >= 0 && write(descriptor, [0x78], 1) == 1)
            close(descriptor)
        }
        let junk = try run(["--cache-dir", cache.path, "--json"], in: folder, step: .concurrency)
        #expect(junk.status == 0, "\(junk.errors)")
        // The junk is never a hit, and changes nothing the user sees.
        #expect(try Self.finalHashes(junk.output) == Self.finalHashes(clean.output))
        #expect(
            try Self.metrics(junk.output)["disk_cache_hits"] == Self.metrics(clean.output)["disk_cache_hits"])
    }

    @Test(
        "Scenarios asking for minutes of work are refused at the line that asks, naming the limit",
        .enabled(if: ProcessTests.binaries != nil, "the step executables are not built next to the tests"))
    func scenarioBombs() throws {
        for bomb in ScenarioBomb.all {
            let folder = try StepFixtures.folder("bomb-scenario")
            defer { try? FileManager.default.removeItem(at: folder) }
            let scenario = try StepFixtures.scenario(bomb.text, named: "bomb", in: folder)
            let outcome = try run(["--scenario", scenario], in: folder)
            #expect(outcome.status == 2, "\(bomb)")
            #expect(outcome.errors.contains("bomb.scenario:\(bomb.line): "), "\(bomb): \(outcome.errors)")
            #expect(outcome.errors.contains(bomb.mentions), "\(bomb): \(outcome.errors)")
            #expect(outcome.errors.split(separator: "\n").count == 1, "\(bomb): one line: \(outcome.errors)")
        }
    }

    static func metrics(_ json: String) throws -> [String: Int] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require(report["metrics"] as? [String: Any]).compactMapValues { $0 as? Int }
    }

    static func finalHashes(_ json: String) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let rows = try #require(report["final_screen"] as? [[String: Any]])
        return rows.map { ($0["image_hash"] as? String) ?? "-" }
    }
}

/// A `--posters` file over the cap on pixels, and the step that is given it; named in the test's output by
/// its size.
struct HugePoster: Sendable, CustomTestStringConvertible {
    let width: UInt32
    let height: UInt32
    let bitDepth: UInt8
    let step: Step

    var testDescription: String { "\(width)×\(height)×\(bitDepth) bits, \(step.rawValue)" }

    static let all = [
        // The reproductions: 4096² (within the old cap), 16-bit, and step 5's 1×16,777,216.
        HugePoster(width: 4096, height: 4096, bitDepth: 1, step: .naive),
        HugePoster(width: 4096, height: 4096, bitDepth: 1, step: .cacheAndPrefetch),
        HugePoster(width: 4096, height: 4096, bitDepth: 16, step: .cacheAndPrefetch),
        HugePoster(width: 1, height: 1 << 24, bitDepth: 1, step: .concurrency),
        // Just over the cap, and far over it.
        HugePoster(width: 1025, height: 1024, bitDepth: 8, step: .naive),
        HugePoster(width: 8192, height: 8192, bitDepth: 1, step: .cacheAndPrefetch),
        HugePoster(width: 1 << 26, height: 1, bitDepth: 1, step: .concurrency),
    ]
}

/// A scenario that asks for too much, the line that asks, and what the refusal must say; named in the
/// test's output by a few words, not by its text (one of them is 60,000 lines long).
struct ScenarioBomb: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    let line: Int
    let mentions: String

    var testDescription: String { name }

    static let all = [
        ScenarioBomb(
            name: "20,000 rows on a 10,000-point screen",
            text: "screen row=1 height=10000\nrows 20000\nwait 1s\n",
            line: 1, mentions: "at most 100"),
        ScenarioBomb(
            name: "hour-long drags",
            text: "rows 200\n"
                + String(repeating: "drag to row 190 over 3600s\ndrag to row 0 over 3600s\n", count: 10),
            line: 3, mentions: "at most 3600s"),
        ScenarioBomb(
            name: "60,000 flings",
            text: String(repeating: "fling to row 150\nfling to row 0\n", count: 30_000),
            line: 2001, mentions: "at most 2000 actions"),
        ScenarioBomb(
            name: "a million rows", text: "rows 1000000\nwait 1s\nfling to row 999999\nwait 2s\n", line: 1,
            mentions: "from 1 to 100000"),
        ScenarioBomb(
            name: "one fling past 100,000 rows", text: "rows 100000\nwait 1s\nfling to row 99990\nwait 2s\n",
            line: 3, mentions: "at most 20000 rows"),
        ScenarioBomb(
            name: "a dense hour",
            text: "rows 2000\nscreen height=1334 row=22\n"
                + (1...300).map { "drag to row \($0 % 50 * 30) over 2s\nwait 10s\n" }.joined(),
            line: 92, mentions: "at most 2000000"),
    ]
}
