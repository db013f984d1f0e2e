import Foundation

/// Scratch folders, paths and scenario files for the tests that need real files, shared by every test
/// target: each name is fresh (a label and a UUID under the temporary directory) and the caller removes
/// what it made.
package enum StepFixtures {
    /// A fresh folder under the temporary directory; the caller removes it.
    package static func folder(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A fresh path under the temporary directory, with nothing there yet.
    package static func path(_ label: String, suffix: String = "") -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(label)-\(UUID().uuidString)\(suffix)")
    }

    /// Writes a scenario file into `folder` and returns its path.
    package static func scenario(_ text: String, named name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent("\(name).scenario")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Writes an executable script (mode 0755) through a descriptor closed on exec: a child another test
    /// spawns meanwhile must not hold it open for writing, or starting the script fails with "Text file
    /// busy".
    package static func executableScript(_ text: String, at url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    /// The poster files of a step's disk cache (steps 4 and 5 name them alike) under a `--cache-dir` folder,
    /// sorted by name.
    package static func cachedPosters(in cacheDirectory: URL) -> [URL] {
        let posters = cacheDirectory.appendingPathComponent("Caches/Posters", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: posters.path)) ?? []
        return names.filter { $0.hasSuffix(".poster") }.sorted().map { posters.appendingPathComponent($0) }
    }
}
