import Foundation
import Shared
import TestSupport
import Testing

@testable import Files
@testable import Posters
@testable import World

/// The poster file cache kept between processes: private, keyed, and bounded.
extension ImagingTests {
    static let key = [UInt8](repeating: 0x42, count: 32)
    static let cacheURL = "https://img1.posters.test/a.png"

    @Test("A stored poster comes back; one rewritten without the key, with an unkeyed SHA-256, does not")
    func storedPosterComesBack() throws {
        let folder = try StepFixtures.folder("pcache")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = PosterFileCache(folder: folder, key: Self.key, capacity: 1 << 20)
        let poster = PosterGenerator.pngData(for: Self.cacheURL)
        cache.store(poster, for: Self.cacheURL)
        #expect(cache.png(for: Self.cacheURL) == poster)
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).first {
                $0.hasSuffix(".png")
            })
        let other = PosterGenerator.pngData(for: "https://img1.posters.test/b.png")
        var hash = SHA256()
        hash.combine(Array(Self.cacheURL.utf8) + [0] + other)
        try Data(Array(hash.hexDigest.utf8) + other).write(to: folder.appendingPathComponent(file))
        #expect(cache.png(for: Self.cacheURL) == nil)
        // The same bytes under another key are not accepted either.
        let otherKey = PosterFileCache(
            folder: folder, key: [UInt8](repeating: 7, count: 32), capacity: 1 << 20)
        cache.store(poster, for: "https://img1.posters.test/c.png")
        #expect(otherKey.png(for: "https://img1.posters.test/c.png") == nil)
    }

    @Test("The folder stays under its capacity, dropping the least recently used posters")
    func folderStaysUnderCapacity() throws {
        let folder = try StepFixtures.folder("pcache")
        defer { try? FileManager.default.removeItem(at: folder) }
        let posters = (0..<12).map { "https://img1.posters.test/\($0).png" }
        let sizes = posters.map { PosterGenerator.pngData(for: $0).count + 64 }
        let capacity = sizes.reduce(0, +) / 2
        let cache = PosterFileCache(folder: folder, key: Self.key, capacity: capacity)
        let old = Date().addingTimeInterval(-3600)
        for (index, url) in posters.enumerated() {
            cache.store(PosterGenerator.pngData(for: url), for: url)
            // Each new file a second older than real time would make it, in order; the first poster is read
            // again halfway, which makes it the most recently used.
            var name = SHA256()
            name.combine(url)
            let path = folder.appendingPathComponent(String(name.hexDigest.prefix(40)) + ".png").path
            if FileManager.default.fileExists(atPath: path) {
                try FileManager.default.setAttributes(
                    [.modificationDate: old.addingTimeInterval(Double(index))], ofItemAtPath: path)
            }
            if index == 5 { #expect(cache.png(for: posters[0]) != nil) }
        }
        let total = try FileManager.default.contentsOfDirectory(atPath: folder.path).reduce(0) {
            $0 + Int(BoundedFile.size(atPath: folder.appendingPathComponent($1).path) ?? 0)
        }
        #expect(total <= capacity)
        #expect(cache.png(for: posters[0]) != nil, "read recently, kept")
        #expect(cache.png(for: posters[1]) == nil, "the least recently used went first")
        #expect(cache.png(for: posters[11]) != nil, "the newest is kept")
    }

    @Test("The private folder is made 0700 under XDG_CACHE_HOME, and loose permissions are tightened")
    func privateFolderIs0700() throws {
        let folder = try StepFixtures.folder("pcache")
        defer { try? FileManager.default.removeItem(at: folder) }
        let location = try #require(
            PrivateFolder.location(environment: ["XDG_CACHE_HOME": folder.path, "HOME": "/nonexistent"]))
        #expect(location.path == folder.path + "/image-workbook")
        #expect(
            PrivateFolder.location(environment: ["HOME": "/home/someone"])?.path
                == "/home/someone/.cache/image-workbook")
        #expect(
            PrivateFolder.location(environment: ["XDG_CACHE_HOME": "relative", "HOME": "also"]) == nil)
        #expect((try? PrivateFolder.makePrivate(location).get()) != nil)
        let mode = {
            (try FileManager.default.attributesOfItem(atPath: location.path))[.posixPermissions] as? Int
        }
        #expect(try mode() == 0o700)
        chmod(location.path, 0o777)
        #expect((try? PrivateFolder.makePrivate(location).get()) != nil)
        #expect(try mode() == 0o700)
    }

    @Test("A folder that belongs to another user, or a link in its place, is refused")
    func foreignFolderRefused() throws {
        let folder = try StepFixtures.folder("pcache")
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: folder.path)
        #expect(throws: PrivateFolder.Refusal.self) { try PrivateFolder.makePrivate(link).get() }
        // Only the superuser can give a folder away; elsewhere the ownership check cannot be staged.
        guard geteuid() == 0 else { return }
        let foreign = folder.appendingPathComponent("foreign")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: false)
        #expect(chown(foreign.path, 65534, 65534) == 0)
        let refusal = #expect(throws: PrivateFolder.Refusal.self) {
            try PrivateFolder.makePrivate(foreign).get()
        }
        #expect(refusal?.reason == "it belongs to another user")
    }

}
