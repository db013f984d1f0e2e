import Foundation
import Shared
import TestSupport
import Testing

@testable import CLI
@testable import Report
@testable import World

/// The disk cache of every step that has one (steps 4 and 5) against damaged files, a full disk and a
/// folder deleted under it.
@Suite("Disk cache under damage")
struct DiskCacheDamageTests {
    /// Launch, look, and a fling that brings new rows: enough to write and then read a dozen posters.
    static let browse = "rows 40\nwait 3s\nfling to row 20\nwait 3s\n"

    /// Runs a step on a scenario file with a kept cache folder.
    func run(_ step: Step, _ scenario: String, cache: URL?) throws -> RunResult {
        var options = RunOptions()
        options.scenario = scenario
        options.cacheDirectory = cache?.path
        return try Workbook.run(step: step.rawValue, options: options, keepTrace: true, makeApp: step.makeApp)
    }

    @Test("Steps 4 and 5 have a disk cache and steps 1 to 3 none, so these tests run for both")
    func onlyStepsFourAndFiveHaveADiskCache() {
        // A teacher's step copied from step 4 or 5 has one too, and these tests run for it as well.
        #expect(Step.withDiskCache.contains(.cacheAndPrefetch))
        #expect(Step.withDiskCache.contains(.concurrency))
        #expect(!Step.withDiskCache.contains { $0.number <= 3 })
    }

    @Test(
        "Truncated, zeroed and swapped cache files cost one download each and never a wrong picture",
        arguments: Step.withDiskCache)
    func damagedFilesCostOneDownload(step: Step) throws {
        let folder = try StepFixtures.folder("damage")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try StepFixtures.scenario(Self.browse, named: "browse", in: folder)
        let cache = folder.appendingPathComponent("cache", isDirectory: true)
        let first = try run(step, scenario, cache: cache)
        #expect(first.metric("disk_writes") > 4, "\(step)")
        // Undamaged, the second launch reads every poster from disk: only failed rows ask the network again.
        let intact = try run(step, scenario, cache: cache)
        #expect(intact.metric("disk_cache_hits") > 4, "\(step)")
        let files = StepFixtures.cachedPosters(in: cache)
        // The damage below reads four of them.
        try #require(files.count > 4, "\(step): fewer than five poster files in the disk cache")
        // Cut one in half, zero another, and copy a third poster's file over a fourth.
        let truncated = try Data(contentsOf: files[0])
        try truncated.prefix(truncated.count / 2).write(to: files[0])
        let zeroed = try Data(contentsOf: files[1])
        try Data(count: zeroed.count).write(to: files[1])
        try Data(contentsOf: files[2]).write(to: files[3])
        let damaged = try run(step, scenario, cache: cache)
        #expect(damaged.metric("wrong_image_events") == 0, "\(step)")
        #expect(
            damaged.metric("requests_started") == intact.metric("requests_started") + 3, "\(step)")
        #expect(damaged.metric("disk_cache_hits") == intact.metric("disk_cache_hits") - 3, "\(step)")
        #expect(damaged.finalHashes == intact.finalHashes, "\(step)")
        // The downloads rewrote the damaged files: a fourth launch is as good as the second.
        let repaired = try run(step, scenario, cache: cache)
        #expect(repaired.metric("requests_started") == intact.metric("requests_started"), "\(step)")
    }

    @Test(
        "A full disk turns the disk cache off once and the run ends on the same pictures",
        arguments: Step.withDiskCache)
    func fullDiskTurnsCacheOff(step: Step) throws {
        let folder = try StepFixtures.folder("full")
        defer { try? FileManager.default.removeItem(at: folder) }
        let normal = try run(
            step, try StepFixtures.scenario(Self.browse, named: "normal", in: folder), cache: nil)
        let full = try run(
            step,
            try StepFixtures.scenario("disk full-after=3\n" + Self.browse, named: "full", in: folder),
            cache: nil)
        #expect(normal.metric("disk_writes") > 3, "\(step)")
        #expect(full.metric("disk_writes") == 3, "\(step)")
        #expect(full.events("disk_cache_off").count == 1, "\(step)")
        #expect(
            full.events("disk_write_failed").count == 1,
            "\(step): no write is tried once the cache is off")
        #expect(full.metric("wrong_image_events") == 0, "\(step)")
        #expect(full.finalHashes == normal.finalHashes, "\(step)")
    }

    @Test(
        "The cache folder deleted mid-run turns the disk cache off once; the run goes on",
        arguments: Step.withDiskCache)
    func deletedFolderTurnsCacheOff(step: Step) throws {
        let folder = try StepFixtures.folder("deleted")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try StepFixtures.scenario(Self.browse, named: "browse", in: folder)
        let normal = try run(step, scenario, cache: nil)
        var options = RunOptions()
        options.scenario = scenario
        let run = try Workbook.run(step: step.rawValue, options: options, keepTrace: true) {
            options in
            // At 2 s, while the first screen is long done and before the fling, the folder goes away.
            if let phone = Phone.current {
                let caches = phone.disk.cachesDirectory
                phone.scheduler.schedule(at: 2_000_000) {
                    try? FileManager.default.removeItem(at: caches)
                }
            }
            return step.makeApp(options)
        }
        #expect(run.events("disk_cache_off").count == 1, "\(step)")
        #expect(run.metric("wrong_image_events") == 0, "\(step)")
        #expect(run.finalHashes == normal.finalHashes, "\(step)")
        #expect(run.metric("disk_writes") < normal.metric("disk_writes"), "\(step)")
    }

}

extension Step {
    /// The steps with a disk cache: those whose `--without` can turn one off.
    static let withDiskCache = allCases.filter { $0.info.techniques.contains("disk-cache") }
}
