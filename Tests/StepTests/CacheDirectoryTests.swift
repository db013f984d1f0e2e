import Foundation
import Shared
import TestSupport
import Testing

/// A cache folder the run cannot use is refused before the run, with the option named.
extension ProcessTests {
    /// Runs step 4 with `cacheDirectory` and expects an error for which `matches` holds, raised before the
    /// app is made.
    static func expectRefusedBeforeAnythingRuns(
        cacheDirectory: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ matches: (any Error) -> Bool
    ) {
        var options = RunOptions()
        options.cacheDirectory = cacheDirectory
        var ran = false
        #expect(sourceLocation: sourceLocation) {
            _ = try Workbook.run(step: Step.cacheAndPrefetch.rawValue, options: options) { options in
                ran = true
                return Step.cacheAndPrefetch.makeApp(options)
            }
        } throws: { error in
            matches(error)
        }
        #expect(!ran, "the app was launched", sourceLocation: sourceLocation)
    }

    @Test("A file where the cache folder belongs is refused before anything runs")
    func cacheFolderIsAFile() throws {
        let file = StepFixtures.path("cache-file")
        try Data("not a folder".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        Self.expectRefusedBeforeAnythingRuns(cacheDirectory: file.path) { error in
            "\(error)".contains("--cache-dir") && "\(error)".contains(file.path)
        }
    }

    @Test("A cache folder under a file cannot be made and is refused before anything runs")
    func cacheFolderUnderAFile() throws {
        let file = StepFixtures.path("cache-parent")
        try Data().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        Self.expectRefusedBeforeAnythingRuns(cacheDirectory: file.appendingPathComponent("posters").path) {
            error in
            "\(error)".contains("--cache-dir")
        }
    }
}
