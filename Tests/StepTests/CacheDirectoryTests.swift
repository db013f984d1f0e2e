import Foundation
import Shared
import TestSupport
import Testing

/// A cache folder the run cannot use is refused before the run, with the option named.
extension ProcessTests {
    @Test(
        "A file where the cache folder belongs, or a cache folder under a file, is refused before anything runs"
    )
    func cacheFolderRefused() throws {
        // A file where the cache folder belongs is refused before anything runs.
        do {
            let file = StepFixtures.path("cache-file")
            try Data("not a folder".utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            var options = RunOptions()
            options.cacheDirectory = file.path
            var ran = false
            #expect {
                _ = try Workbook.run(step: Step.cacheAndPrefetch.rawValue, options: options) { options in
                    ran = true
                    return Step.cacheAndPrefetch.makeApp(options)
                }
            } throws: { error in
                "\(error)".contains("--cache-dir") && "\(error)".contains(file.path)
            }
            #expect(!ran, "the app was launched")
        }
        // A cache folder under a file cannot be made and is refused before anything runs.
        do {
            let file = StepFixtures.path("cache-parent")
            try Data().write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            var options = RunOptions()
            options.cacheDirectory = file.appendingPathComponent("posters").path
            var ran = false
            #expect {
                _ = try Workbook.run(step: Step.cacheAndPrefetch.rawValue, options: options) { options in
                    ran = true
                    return Step.cacheAndPrefetch.makeApp(options)
                }
            } throws: { error in
                "\(error)".contains("--cache-dir")
            }
            #expect(!ran, "the app was launched")
        }
    }

}
