import Files
import Foundation
import Imaging

/// Generated posters kept on disk between processes, so a student's second run does not generate and
/// compress the same posters again (a debug build spends most of a run there).
///
/// It lives in the private per-user folder (`PrivateFolder`: `~/.cache/image-workbook`, mode 0700) in a
/// subfolder named after a fingerprint of the generator and encoder (the bytes of one reference poster):
/// change either and a new subfolder is used. Each file starts with an HMAC-SHA-256 of the URL and the PNG
/// under the private key; a file that does not match (damaged, or written by anyone without the key) is
/// ignored and rewritten, so the folder cannot hand a run a wrong poster.
///
/// The folder holds at most `capacity` bytes (128 MB): past it, the least recently used files are removed
/// until three quarters remain. Reading a file marks it used. Files are written under a temporary name
/// and renamed into place, so concurrent processes only ever see whole files, and removing a file another
/// process is about to read costs that process one regeneration. Remove the folder to clear it; set
/// `WORKBOOK_POSTER_CACHE=off` to turn it off.
/// Unchecked Sendable: its one mutable count is read and written only under `lock`.
final class PosterFileCache: @unchecked Sendable {
    /// The default bound on the folder's size: 128 MB.
    static let defaultCapacity = 128 << 20

    private let folder: URL?
    private let key: [UInt8]
    private let capacity: Int
    private let lock = NSLock()
    /// The bytes of the folder's files as this process last counted them, plus what it wrote since.
    private var bytesHeld = 0

    /// The process's cache, in the private folder (nil folder when it is off or unusable).
    convenience init() {
        let on = ProcessInfo.processInfo.environment["WORKBOOK_POSTER_CACHE"] != "off"
        guard on, let root = PrivateFolder.url else {
            self.init(folder: nil, key: [], capacity: 0)
            return
        }
        var reference = FNV1a64()
        reference.combine(PosterGenerator.pngData(for: "fingerprint"))
        let folder = root.appendingPathComponent("posters-\(reference.hexDigest)", isDirectory: true)
        self.init(folder: folder, key: PrivateFolder.key, capacity: Self.defaultCapacity)
    }

    /// A cache in `folder` (made 0700 if missing), sealing entries with `key`, holding at most `capacity`
    /// bytes.
    init(folder: URL?, key: [UInt8], capacity: Int) {
        self.key = key
        self.capacity = capacity
        guard let folder, mkdir(folder.path, 0o700) == 0 || errno == EEXIST,
            BoundedFile.nonFileKind(atPath: folder.path) == "a directory"
        else {
            self.folder = nil
            return
        }
        self.folder = folder
        TemporaryFiles.removeStale(in: folder)
        bytesHeld = entries().reduce(0) { $0 + $1.bytes }
    }

    /// Where the cache keeps its files, for `--help` and the README; nil when it is off.
    var location: URL? { folder }

    private func file(for url: String) -> URL? {
        var name = SHA256()
        name.combine(url)
        return folder?.appendingPathComponent(String(name.hexDigest.prefix(40)) + ".png")
    }

    private func seal(_ png: [UInt8], for url: String) -> [UInt8] {
        Array(SHA256.hmacHex(key: key, message: Array(url.utf8) + [0] + png).utf8)
    }

    /// The stored poster for a URL, if a whole file with a valid seal is there.
    func png(for url: String) -> [UInt8]? {
        guard let file = file(for: url), let bytes = try? BoundedFile.read(file.path, as: .cacheEntry),
            bytes.count > 64
        else { return nil }
        let png = Array(bytes[64...])
        guard bytes[0..<64].elementsEqual(seal(png, for: url)) else { return nil }
        // Mark it used, for the least-recently-used trimming.
        utimes(file.path, nil)
        return png
    }

    /// Keeps a poster for later processes (written aside and renamed into place; failures are ignored: it
    /// is only a cache), then trims the folder if it grew past its capacity.
    func store(_ png: [UInt8], for url: String) {
        guard let file = file(for: url), let folder else { return }
        let contents = seal(png, for: url) + png
        guard TemporaryFiles.writeAtomically(contents, to: file) else { return }
        let overCapacity = lock.withLock {
            bytesHeld += contents.count
            return bytesHeld > capacity
        }
        if overCapacity { trim(folder) }
    }

    /// The folder's poster files with their sizes and last use.
    private func entries() -> [(url: URL, bytes: Int, used: Date)] {
        guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".png") }.compactMap { name in
            let url = folder.appendingPathComponent(name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
                let bytes = (attributes[.size] as? NSNumber)?.intValue,
                let used = attributes[.modificationDate] as? Date
            else { return nil }
            return (url, bytes, used)
        }
    }

    /// Removes the least recently used files until the folder holds three quarters of its capacity.
    private func trim(_ folder: URL) {
        let all = entries().sorted { ($0.used, $0.url.path) < ($1.used, $1.url.path) }
        var total = all.reduce(0) { $0 + $1.bytes }
        for entry in all where total > capacity / 4 * 3 {
            unlink(entry.url.path)
            total -= entry.bytes
        }
        lock.withLock { bytesHeld = total }
    }
}
