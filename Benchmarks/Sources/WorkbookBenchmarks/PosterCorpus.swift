import Foundation
import Shared

/// The poster corpus: the first posters of the bundled catalog, generated and written as PNG files, so
/// the Swift decoder and the reference decode the very same bytes.
enum PosterCorpus {
    /// Writes `count` posters as `poster-000.png`, … into `directory` and returns their paths.
    static func write(count: Int, into directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let movies = try MovieCatalog.bundled().rows(count)
        var files: [URL] = []
        for (index, movie) in movies.enumerated() {
            let name =
                "poster-" + String(repeating: "0", count: max(0, 3 - String(index).count)) + "\(index).png"
            let file = directory.appendingPathComponent(name)
            try Data(PosterGenerator.pngData(for: movie.urlString)).write(to: file)
            files.append(file)
        }
        return files
    }
}
