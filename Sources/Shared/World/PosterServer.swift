import Foundation

/// The simulated HTTP server's content: what each poster URL answers.
///
/// A URL whose path contains `/removed/` answers 404 with a short page. Any other http(s) URL answers
/// 200 with a PNG: the `PosterGenerator`'s poster for that URL, or, when a posters folder is given, one of
/// its PNG files chosen by a hash of the URL (files sorted by name, so the choice is stable). A folder file
/// that is not a valid PNG (or cannot be read) is served as it is (or empty): only the rows it lands on
/// fail to decode.
final class PosterServer {
    /// What the server answers for one URL.
    struct Response {
        /// The HTTP status.
        let status: Int
        /// The body.
        let body: [UInt8]
    }

    /// The body of every 404 answer.
    static let notFoundBody = Array(
        "<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The poster was removed.</p></body></html>"
            .utf8)

    private let folderFiles: [URL]
    private var folderCache: [String: [UInt8]] = [:]

    /// A server of generated posters, or of the PNG files in `postersDirectory`.
    init(postersDirectory: URL?) throws {
        guard let postersDirectory else {
            folderFiles = []
            return
        }
        let path = postersDirectory.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw WorkbookError.badInput("--posters: no such folder \(path)")
        }
        guard isDirectory.boolValue else {
            throw WorkbookError.badInput("--posters: \(path) is a file, not a folder of PNG files")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw WorkbookError.badInput("--posters: cannot read the folder \(path)")
        }
        folderFiles = names.filter { $0.lowercased().hasSuffix(".png") }.sorted().map {
            postersDirectory.appendingPathComponent($0)
        }
        if folderFiles.isEmpty {
            throw WorkbookError.badInput("--posters: no .png files in \(postersDirectory.path)")
        }
    }

    /// Whether the host answers a range request with the range (206); `img2.posters.test` is an older
    /// server that ignores `Range` and sends the whole body.
    func servesRanges(for url: URL) -> Bool {
        url.host != "img2.posters.test"
    }

    /// The answer for a URL.
    func response(for url: URL) -> Response {
        if url.path.contains("/removed/") {
            return Response(status: 404, body: Self.notFoundBody)
        }
        let key = url.absoluteString
        if folderFiles.isEmpty {
            return Response(status: 200, body: PosterMemo.shared.png(for: key))
        }
        if let cached = folderCache[key] { return Response(status: 200, body: cached) }
        let file = folderFiles[Int(FNV1a64.hash(key) % UInt64(folderFiles.count))]
        let bytes = (try? Data(contentsOf: file)).map { [UInt8]($0) } ?? []
        folderCache[key] = bytes
        return Response(status: 200, body: bytes)
    }
}
