import Foundation
import Shared

/// The disk cache: downloaded poster bytes in the caches folder, which survives a relaunch, kept within
/// a size limit by removing the least recently used files first (as Nuke's `DataCache` sweeps).
///
/// Files are named and checked as in step 4: a header line with the byte count, the disk's seal of the
/// bytes (keyed, over where the posters came from) and the URL, so a file left by a run on other posters,
/// damaged, forged, or holding another URL's header (said once) is a miss, never a wrong picture; a
/// folder where a file belongs is skipped. An actor: reads, writes and trimming happen one at a time,
/// off the main thread. Files from earlier launches are found by listing the folder once, oldest name
/// first; from then on every read or write marks use.
actor DiskCache {
    let directory: URL
    /// The most bytes of files the cache keeps.
    let sizeLimit: Int
    /// Whether a write failed: from then on the cache neither reads nor writes.
    private(set) var isOff = false
    /// Each file's size and when it was last used (a counter), by file name.
    private var index: [String: (size: Int, lastUse: Int)]?
    /// The sizes in `index` added up.
    private var indexedBytes = 0
    private var clock = 0

    init(directory: URL, sizeLimit: Int) {
        self.directory = directory
        self.sizeLimit = sizeLimit
    }

    /// The cached bytes for a URL, or nil when missing, damaged or not this URL's.
    ///
    /// Nonisolated: the file is read on the calling task's thread, so several reads go on at once (as
    /// step 4's download operations each read their own); only marking the file used comes to the actor.
    nonisolated func data(for url: URL) async -> Data? {
        let file = fileURL(for: url)
        guard Disk.shared.fileExists(at: file), let contents = Disk.shared.contents(of: file) else {
            return nil
        }
        let bytes = [UInt8](contents)
        guard let newline = bytes.firstIndex(of: 10) else { return nil }
        let header = String(decoding: bytes[..<newline], as: UTF8.self)
        let body = Array(bytes[(newline + 1)...])
        let storedURL = header.split(separator: " ", maxSplits: 3).dropFirst(3).first.map(String.init)
        if let storedURL, storedURL != url.absoluteString {
            Instruments.diskCacheMismatch(
                file: file.lastPathComponent, requested: url.absoluteString, found: storedURL)
            return nil
        }
        guard header == Self.header(for: url, body: body),
            await markRead(file.lastPathComponent, size: bytes.count)
        else { return nil }
        return Data(body)
    }

    /// Whether a URL has a file (free: no read), so a row scrolling by can be filled from disk.
    nonisolated func containsData(for url: URL) -> Bool {
        Disk.shared.fileExists(at: fileURL(for: url))
    }

    /// Marks a file read as used; false when the cache is off (its files are not to be trusted).
    private func markRead(_ name: String, size: Int) -> Bool {
        guard !isOff else { return false }
        markUsed(name, size: size)
        return true
    }

    /// Keeps a URL's downloaded bytes, atomically, then trims the folder to the size limit.
    func store(_ data: Data, for url: URL) {
        guard !isOff, !Disk.shared.isFolder(at: fileURL(for: url)) else { return }
        _ = loadedIndex()  // makes the folder on first use
        let body = [UInt8](data)
        let file = Array((Self.header(for: url, body: body) + "\n").utf8) + body
        if !Disk.shared.write(Data(file), to: fileURL(for: url), atomically: true) {
            isOff = true
            Instruments.diskCacheOff(reason: "a write to \(directory.lastPathComponent) failed")
            return
        }
        markUsed(fileURL(for: url).lastPathComponent, size: file.count)
        trim()
    }

    /// Forgets a URL's file.
    func removeData(for url: URL) {
        Disk.shared.removeItem(at: fileURL(for: url))
        indexedBytes -= index?.removeValue(forKey: fileURL(for: url).lastPathComponent)?.size ?? 0
    }

    /// The bytes the cache's files hold now.
    var totalSize: Int {
        _ = loadedIndex()
        return indexedBytes
    }

    private nonisolated func fileURL(for url: URL) -> URL {
        directory.appendingPathComponent(FNV1a64.hexDigest(of: url.absoluteString) + ".poster")
    }

    /// Marks a file used now, in place: the index is not copied, so a use costs the same however many
    /// files the folder holds.
    private func markUsed(_ name: String, size: Int) {
        _ = loadedIndex()
        clock += 1
        indexedBytes += size - (index?.updateValue((size, clock), forKey: name)?.size ?? 0)
    }

    /// Removes least recently used files until the folder fits the limit; within it, does nothing.
    private func trim() {
        guard totalSize > sizeLimit, var entries = index else { return }
        var total = indexedBytes
        // Ties (files found at launch) go by name, so every run removes the same files.
        let oldestFirst = entries.sorted { ($0.value.lastUse, $0.key) < ($1.value.lastUse, $1.key) }
        for (name, entry) in oldestFirst where total > sizeLimit {
            Disk.shared.removeItem(at: directory.appendingPathComponent(name))
            entries[name] = nil
            total -= entry.size
        }
        index = entries
        indexedBytes = total
    }

    /// The index, listing the folder the first time (files from earlier launches count as oldest).
    private func loadedIndex() -> [String: (size: Int, lastUse: Int)] {
        if let index { return index }
        Disk.shared.createDirectory(at: directory)
        var found: [String: (size: Int, lastUse: Int)] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names.sorted() where name.hasSuffix(".poster") {
            let size = Disk.shared.fileSize(at: directory.appendingPathComponent(name)) ?? 0
            found[name] = (size, 0)
        }
        index = found
        indexedBytes = found.values.reduce(0) { $0 + $1.size }
        return found
    }

    private static func header(for url: URL, body: [UInt8]) -> String {
        "poster-cache-v2 \(body.count) \(Disk.shared.seal(body, name: url.absoluteString)) \(url.absoluteString)"
    }
}
