import Shared
import Synchronization

/// The disk cache: downloaded poster bytes in the caches folder, which survives a relaunch.
///
/// Files are named after a hash of the whole URL, so two URLs ending in the same file name never share
/// one, and start with a header of the byte count, the disk's keyed seal of the bytes and the URL: a
/// damaged, foreign or forged file is a miss (another URL's, said once), never a wrong picture. A failed
/// write turns the cache off for the launch, said once; the app carries on with the network alone.
/// Download threads share it, so that flag is atomic: a plain `Bool` would be a data race.
final class DiskCache: Sendable {
    let directory: URL
    /// Set by the first failed write.
    private let off = Atomic(false)

    /// Whether a write failed: from then on the cache neither reads nor writes.
    var isOff: Bool { off.load(ordering: .relaxed) }

    init(directory: URL) {
        self.directory = directory
        Disk.shared.createDirectory(at: directory)
    }

    /// Where a URL's poster is kept.
    func fileURL(for url: URL) -> URL {
        directory.appendingPathComponent(FNV1a64.hexDigest(of: url.absoluteString) + ".poster")
    }

    /// The cached bytes for a URL, or nil when missing, damaged or not this URL's.
    func data(for url: URL) -> Data? {
        guard !isOff, Disk.shared.fileExists(at: fileURL(for: url)),
            let file = Disk.shared.contents(of: fileURL(for: url))
        else {
            return nil
        }
        let bytes = [UInt8](file)
        guard let newline = bytes.firstIndex(of: 10) else { return nil }
        let header = String(decoding: bytes[..<newline], as: UTF8.self)
        let body = Array(bytes[(newline + 1)...])
        let storedURL = header.split(separator: " ", maxSplits: 3).dropFirst(3).first.map(String.init)
        if let storedURL, storedURL != url.absoluteString {
            Instruments.diskCacheMismatch(
                file: fileURL(for: url).lastPathComponent, requested: url.absoluteString, found: storedURL)
            return nil
        }
        guard header == Self.header(for: url, body: body) else { return nil }
        return Data(body)
    }

    /// Keeps a URL's downloaded bytes, atomically.
    func store(_ data: Data, for url: URL) {
        guard !isOff, !Disk.shared.isFolder(at: fileURL(for: url)) else { return }
        let body = [UInt8](data)
        let file = Array((Self.header(for: url, body: body) + "\n").utf8) + body
        if !Disk.shared.write(Data(file), to: fileURL(for: url), atomically: true) {
            off.store(true, ordering: .relaxed)
            Instruments.diskCacheOff(reason: "a write to \(directory.lastPathComponent) failed")
        }
    }

    private static func header(for url: URL, body: [UInt8]) -> String {
        "poster-cache-v2 \(body.count) \(Disk.shared.seal(body, name: url.absoluteString)) \(url.absoluteString)"
    }
}
