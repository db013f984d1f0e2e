import Foundation
import Shared
import TestSupport
import Testing

/// No wrong picture from the disk cache of any step that has one: entries filled from other posters, forged, filed under another URL,
/// or blocked by a folder are misses, and the screen ends on the right pictures.
@Suite("Disk-cache entries that must not be trusted")
struct CacheTrustTests {
    static let browse = DiskCacheDamageTests.browse

    func run(_ step: Step, _ scenario: String, cache: URL, posters: URL? = nil) throws -> RunResult {
        var options = RunOptions()
        options.scenario = scenario
        options.cacheDirectory = cache.path
        options.postersDirectory = posters?.path
        return try Workbook.run(step: step.rawValue, options: options, keepTrace: true, makeApp: step.makeApp)
    }

    /// The browse scenario written into `folder` and a cache there that two launches of `step` filled (the
    /// first writes it, the second reads it: `intact`), with the cache's poster files, more than four.
    func primed(_ step: Step, in folder: URL) throws -> (
        scenario: String, cache: URL, intact: RunResult, files: [URL]
    ) {
        let scenario = try StepFixtures.scenario(Self.browse, named: "browse", in: folder)
        let cache = folder.appendingPathComponent("cache")
        _ = try run(step, scenario, cache: cache)
        let intact = try run(step, scenario, cache: cache)
        let files = StepFixtures.cachedPosters(in: cache)
        try #require(files.count > 4)
        return (scenario, cache, intact, files)
    }

    /// A folder of three real PNGs unlike the generated posters.
    func postersFolder(in folder: URL) throws -> URL {
        let posters = folder.appendingPathComponent("posters", isDirectory: true)
        try FileManager.default.createDirectory(at: posters, withIntermediateDirectories: true)
        for (index, shade) in [UInt8(30), 120, 220].enumerated() {
            let bitmap = Bitmap(width: 8, height: 12, rgba: [UInt8](repeating: shade, count: 8 * 12 * 4))
            try Data(PNGEncoder.encode(bitmap)).write(to: posters.appendingPathComponent("p\(index).png"))
        }
        return posters
    }

    @Test(
        "A cache filled from a --posters folder is a miss for the generated posters, and the other way",
        arguments: Step.withDiskCache)
    func crossSource(step: Step) throws {
        let folder = try StepFixtures.folder("cross")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try StepFixtures.scenario(Self.browse, named: "browse", in: folder)
        let posters = try postersFolder(in: folder)
        let generated = try run(step, scenario, cache: folder.appendingPathComponent("fresh-generated"))
        let fromFolder = try run(
            step, scenario, cache: folder.appendingPathComponent("fresh-folder"), posters: posters)
        #expect(
            generated.finalHashes != fromFolder.finalHashes,
            "the two sources show different pictures")
        let shared = folder.appendingPathComponent("shared")
        _ = try run(step, scenario, cache: shared, posters: posters)
        let after = try run(step, scenario, cache: shared)
        #expect(after.metric("disk_cache_hits") == 0)
        #expect(after.finalHashes == generated.finalHashes)
        #expect(after.metric("wrong_image_events") == 0)
        let back = try run(step, scenario, cache: shared, posters: posters)
        #expect(back.metric("disk_cache_hits") == 0)
        #expect(back.finalHashes == fromFolder.finalHashes)
        // The same source again is a hit: the key tells sources apart, it does not turn the cache off.
        let again = try run(step, scenario, cache: shared, posters: posters)
        #expect(again.metric("disk_cache_hits") > 4)
    }

    @Test(
        "A forged entry (this URL's header over another poster's bytes) shows the right picture",
        arguments: Step.withDiskCache)
    func forgedEntry(step: Step) throws {
        let folder = try StepFixtures.folder("forged")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (scenario, cache, intact, files) = try primed(step, in: folder)
        // Victim 0 gets poster 1's bytes under its own URL, with a count and checksums recomputed for them:
        // the unkeyed formats a forger can compute (CRC-32 in the old `v1` header and in the sealed
        // header's place, an unkeyed SHA-256), each in its turn.
        let victim = try Self.entry(files[0])
        let donor = try Self.entry(files[1])
        let crc = String(CRC32.checksum(donor.body))
        for (format, checksum) in [("v1", crc), ("v2", crc), ("v2", SHA256.digestHex(donor.body))] {
            let header = "poster-cache-\(format) \(donor.body.count) \(checksum) \(victim.url)\n"
            try Data(Array(header.utf8) + donor.body).write(to: files[0])
            let forged = try run(step, scenario, cache: cache)
            #expect(forged.metric("wrong_image_events") == 0)
            #expect(forged.finalHashes == intact.finalHashes)
            #expect(forged.metric("disk_cache_hits") == intact.metric("disk_cache_hits") - 1)
        }
    }

    @Test(
        "Entries holding other URLs' headers are misses, said once per launch",
        arguments: Step.withDiskCache)
    func mismatchedURLs(step: Step) throws {
        let folder = try StepFixtures.folder("mismatch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (scenario, cache, intact, files) = try primed(step, in: folder)
        try Data(contentsOf: files[2]).write(to: files[0])
        try Data(contentsOf: files[3]).write(to: files[1])
        let swapped = try run(step, scenario, cache: cache)
        #expect(swapped.events("disk_cache_mismatch").count == 1)
        #expect(swapped.metric("disk_cache_hits") == intact.metric("disk_cache_hits") - 2)
        #expect(swapped.finalHashes == intact.finalHashes)
        #expect(swapped.metric("wrong_image_events") == 0)
    }

    @Test(
        "A folder in place of an entry is skipped and the cache stays on, at every launch",
        arguments: Step.withDiskCache)
    func folderInPlaceOfEntry(step: Step) throws {
        let folder = try StepFixtures.folder("entry-folder")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (scenario, cache, intact, files) = try primed(step, in: folder)
        try FileManager.default.removeItem(at: files[0])
        try FileManager.default.createDirectory(at: files[0], withIntermediateDirectories: false)
        try FileManager.default.removeItem(at: files[1])
        for _ in 0..<2 {
            let blocked = try run(step, scenario, cache: cache)
            #expect(blocked.events("disk_cache_off").isEmpty)
            #expect(blocked.finalHashes == intact.finalHashes)
            #expect(blocked.metric("disk_cache_hits") >= intact.metric("disk_cache_hits") - 2)
        }
        // The deleted entry was written again; the folder is still a folder.
        #expect(FileManager.default.fileExists(atPath: files[1].path))
        #expect(BoundedFile.nonFileKind(atPath: files[0].path) == "a directory")
    }

    @Test(
        "A run clears temporary files older than a minute in its cache folder, and keeps younger ones",
        arguments: Step.withDiskCache)
    func staleTemporaryFiles(step: Step) throws {
        let folder = try StepFixtures.folder("stale")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try StepFixtures.scenario(Self.browse, named: "browse", in: folder)
        let cache = folder.appendingPathComponent("cache")
        _ = try run(step, scenario, cache: cache)
        let posters = cache.appendingPathComponent("Caches/Posters")
        let old = posters.appendingPathComponent(".tmp-999999-dead-0123.poster")
        let young = posters.appendingPathComponent(".tmp-999998-busy-0123.poster")
        try Data("half a file".utf8).write(to: old)
        try Data("half a file".utf8).write(to: young)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-120)], ofItemAtPath: old.path)
        _ = try run(step, scenario, cache: cache)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: young.path))
    }

    /// A cache file's URL and body.
    static func entry(_ file: URL) throws -> (url: String, body: [UInt8]) {
        let bytes = [UInt8](try Data(contentsOf: file))
        let newline = try #require(bytes.firstIndex(of: 10))
        let header = String(decoding: bytes[..<newline], as: UTF8.self)
        let url = try #require(header.split(separator: " ", maxSplits: 3).last)
        return (String(url), Array(bytes[(newline + 1)...]))
    }
}

extension SHA256 {
    /// The unkeyed digest as hex, as a forger could compute it.
    static func digestHex(_ bytes: [UInt8]) -> String {
        var hash = SHA256()
        hash.combine(bytes)
        return hash.hexDigest
    }
}
