import Foundation
import Shared

/// Scratch folders and scenario files for the tests that need real files.
enum StepFixtures {
    /// A fresh folder under the temporary directory; the caller removes it.
    static func folder(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes a scenario file into `folder` and returns its path.
    static func scenario(_ text: String, named name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent("\(name).scenario")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// The poster files of step 4's disk cache under a `--cache-dir` folder, sorted by name.
    static func cachedPosters(in cacheDirectory: URL) -> [URL] {
        let posters = cacheDirectory.appendingPathComponent("Caches/Posters", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: posters.path)) ?? []
        return names.filter { $0.hasSuffix(".poster") }.sorted().map { posters.appendingPathComponent($0) }
    }
}
