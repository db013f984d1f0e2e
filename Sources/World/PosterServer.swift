import Files
import Foundation
import Imaging
import Posters
import UI

/// The simulated HTTP server's content: what each poster URL answers.
///
/// A URL whose path contains `/removed/` answers 404 with a short page. Any other http(s) URL answers
/// 200 with a PNG: the `PosterGenerator`'s poster for that URL, or, when a posters folder is given, one of
/// its PNG files chosen by a hash of the URL (files sorted by name, so the choice is stable). A folder file
/// that is not a valid PNG is served as it is: only the rows it lands on fail to decode.
///
/// The folder is read once, at the start, through `BoundedFile`: each `.png` must be a regular file of at
/// most 16 MB with a header within `PosterLimits` (when it has a PNG header at all), and the folder may
/// hold at most `maximumFolderFiles` of them and `maximumFolderBytes` in all; anything else is refused
/// with one line naming the file and `--posters`. Its `fingerprint` (of
/// every file's name and bytes) tells the disk which source filled a cache.
final class PosterServer {
    /// What the server answers for one URL.
    struct Response {
        let status: Int
        let body: [UInt8]
    }

    /// The most `.png` files a posters folder may hold.
    static let maximumFolderFiles = 10_000
    /// The most bytes the `.png` files of a posters folder may hold together: 128 MB.
    static let maximumFolderBytes = 128_000_000
    /// The fingerprint of the generated posters.
    static let builtInFingerprint = "generated"

    /// The folder's files, in the order of their names' bytes, read at the start.
    let folderFiles: [[UInt8]]
    /// Which source this server is: `generated`, or `folder-` and a hash of the folder's names and bytes.
    let fingerprint: String
    /// The bytes of each generated poster answered so far, stamped as the phone receives them, by URL
    /// (`sentByteCount(for:)`): a few dozen bytes a poster.
    private var sentPosterBytes: [String: Int] = [:]

    /// A server of the generated posters.
    convenience init() {
        // Without a folder there is nothing to read, so nothing to throw.
        try! self.init(postersDirectory: nil)
    }

    /// A server of generated posters, or of the PNG files in `postersDirectory`.
    init(postersDirectory: URL?) throws {
        guard let postersDirectory else {
            folderFiles = []
            fingerprint = Self.builtInFingerprint
            return
        }
        let path = postersDirectory.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw WorkbookError.badInput("--posters: no such folder \(path)")
        }
        guard isDirectory.boolValue else {
            let kind = BoundedFile.nonFileKind(atPath: path) ?? "a file"
            throw WorkbookError.badInput("--posters: \(path) is \(kind), not a folder of PNG files")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw WorkbookError.badInput(
                "--posters: cannot read the folder \(path) (\(SystemError.reason(error)))")
        }
        // Ordered by the names' UTF-8 bytes: Swift's `<` on strings treats canonically equivalent names
        // (NFC and NFD “é.png”) as equal and would leave their order to the directory's, which another
        // file system gives differently.
        let pngNames = names.filter { $0.lowercased().hasSuffix(".png") }.sorted {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
        if pngNames.isEmpty {
            throw WorkbookError.badInput("--posters: no .png files in \(path)")
        }
        if pngNames.count > Self.maximumFolderFiles {
            throw WorkbookError.badInput(
                "--posters: \(path) holds \(pngNames.count) .png files; at most \(Self.maximumFolderFiles)")
        }
        var files: [[UInt8]] = []
        var total = 0
        var hash = FNV1a64()
        for name in pngNames {
            let file = postersDirectory.appendingPathComponent(name).path
            let bytes: [UInt8]
            do {
                bytes = try BoundedFile.read(file, as: .poster)
            } catch {
                throw WorkbookError.badInput("--posters: \(file): \(error)")
            }
            if let reason = PosterLimits.refusal(of: [UInt8](bytes.prefix(24))) {
                throw WorkbookError.badInput("--posters: \(file): \(reason)")
            }
            total += bytes.count
            guard total <= Self.maximumFolderBytes else {
                throw WorkbookError.badInput(
                    "--posters: the .png files in \(path) hold more than \(Self.maximumFolderBytes) "
                        + "bytes together; at most \(Self.maximumFolderBytes)")
            }
            hash.combine(name)
            hash.combine(bigEndian: UInt32(truncatingIfNeeded: bytes.count))
            hash.combine(bigEndian: CRC32.checksum(bytes))
            files.append(bytes)
        }
        folderFiles = files
        fingerprint = "folder-\(hash.hexDigest)"
    }

    /// Whether the host answers a range request with the range (206); `img2.posters.test` is an older
    /// server that ignores `Range` and sends the whole body.
    func servesRanges(for url: URL) -> Bool {
        url.host != "img2.posters.test"
    }

    /// The answer for a URL; `memoising: false` for a look that should not keep a generated poster in
    /// the process's memo (`PosterMemo.png(for:remembering:)`).
    func response(for url: URL, memoising: Bool = true) -> Response {
        if url.path.contains("/removed/") {
            return Response(status: 404, body: RemovedPosterPage.body)
        }
        let key = url.absoluteString
        if folderFiles.isEmpty {
            let body = PosterMemo.shared.png(for: key, remembering: memoising)
            sentPosterBytes[key] = PosterStamp.stamp(body, url: key).count
            return Response(status: 200, body: body)
        }
        return Response(status: 200, body: folderFile(for: key))
    }

    /// The PNG the phone receives for `url` when nothing goes wrong, stamped with the URL (`PosterStamp`),
    /// remembered as pictures remember their bytes; nil when the answer is not a 200 (a removed poster).
    func servedPNG(for url: URL) -> PNGBytes? {
        if url.path.contains("/removed/") { return nil }
        let key = url.absoluteString
        if folderFiles.isEmpty {
            return .servedPoster(url: key, byteCount: sentByteCount(for: url))
        }
        return .kept(Data(PosterStamp.stamp(folderFile(for: key), url: key)), source: key)
    }

    /// The folder's file a URL answers with, chosen by a hash of the URL.
    private func folderFile(for key: String) -> [UInt8] {
        folderFiles[Int(FNV1a64.hash(key) % UInt64(folderFiles.count))]
    }

    /// How many bytes the phone receives for `url` when nothing goes wrong: a 200 answer's body with the
    /// URL stamped in it (`PosterStamp`), any other answer's body as it is. A generated poster answered
    /// earlier is not made again: by the end of a long run most have left the memo and the poster file
    /// cache, and making them again for the oracle was a fifth of a 30-minute run's time.
    func sentByteCount(for url: URL) -> Int {
        let key = url.absoluteString
        if let count = sentPosterBytes[key] {
            return count
        }
        let response = response(for: url, memoising: false)
        return response.status == 200 ? PosterStamp.stamp(response.body, url: key).count : response.body.count
    }
}
