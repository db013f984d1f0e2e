import Foundation

/// Generated posters kept on disk between processes, so a student's second run does not generate and
/// compress the same posters again (a debug build spends most of a run there).
///
/// The folder is in the system's temporary directory and its name carries a fingerprint of the generator
/// and encoder (the bytes of one reference poster): change either and a new folder is used. Each file
/// holds an FNV-1a checksum before the PNG bytes; a file that does not match is ignored and rewritten.
/// Set `WORKBOOK_POSTER_CACHE=off` to turn it off.
final class PosterFileCache: @unchecked Sendable {
    private let folder: URL?

    init() {
        guard ProcessInfo.processInfo.environment["WORKBOOK_POSTER_CACHE"] != "off" else {
            folder = nil
            return
        }
        var reference = FNV1a64()
        reference.combine(PosterGenerator.pngData(for: "fingerprint"))
        let fingerprint = reference.hexDigest
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "image-workbook-posters-\(fingerprint)", isDirectory: true)
        self.folder =
            (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil
            ? folder : nil
    }

    private func file(for url: String) -> URL? {
        folder?.appendingPathComponent(FNV1a64.hexDigest(of: url) + ".png")
    }

    /// The stored poster for a URL, if a whole, matching file is there.
    func png(for url: String) -> [UInt8]? {
        guard let file = file(for: url), let data = FileManager.default.contents(atPath: file.path),
            data.count > 16
        else { return nil }
        let bytes = [UInt8](data)
        let checksum = String(decoding: bytes[0..<16], as: UTF8.self)
        let png = Array(bytes[16...])
        var hash = FNV1a64()
        hash.combine(url)
        hash.combine(png)
        return hash.hexDigest == checksum ? png : nil
    }

    /// Keeps a poster for later processes (atomically; failures are ignored: it is only a cache).
    func store(_ png: [UInt8], for url: String) {
        guard let file = file(for: url), !FileManager.default.fileExists(atPath: file.path) else { return }
        var hash = FNV1a64()
        hash.combine(url)
        hash.combine(png)
        try? Data(Array(hash.hexDigest.utf8) + png).write(to: file, options: .atomic)
    }
}
