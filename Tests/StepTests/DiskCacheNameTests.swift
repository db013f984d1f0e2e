import Foundation
import Shared
import Synchronization
import TestSupport
import Testing

@testable import Step4CacheAndPrefetch

/// Step 4's disk-cache names over the largest catalog a scenario may ask for: no run plays enough rows to
/// meet every collision a name too short to be unique makes, so the names are compared here.
@Suite("Step 4's disk cache names")
struct DiskCacheNameTests {
    /// The most rows a scenario may have (the scenario reader's limit).
    static let largestCatalog = 100_000

    /// The first two addresses found sharing a name, with the name, if any.
    final class Clash: Sendable {
        private let found = Mutex<[String]?>(nil)

        func note(_ name: String, _ first: String, _ second: String) {
            found.withLock { $0 = [name, first, second] }
        }

        var value: [String]? { found.withLock { $0 } }
    }

    /// An app that only names a file for each distinct poster address of the largest catalog, and notes the
    /// first two addresses that share a name.
    final class NamesEveryPoster: TableViewController {
        let clash: Clash

        init(clash: Clash) {
            self.clash = clash
            super.init()
        }

        override func viewDidLoad() {
            let cache = DiskCache(directory: Disk.shared.cachesDirectory.appendingPathComponent("Posters"))
            let catalog = try! MovieCatalog.bundled()
            var owners: [String: String] = [:]
            for movie in catalog.rows(DiskCacheNameTests.largestCatalog) {
                guard let url = movie.url else { continue }
                let name = cache.fileURL(for: url).lastPathComponent
                let address = url.absoluteString
                if let owner = owners[name], owner != address {
                    clash.note(name, owner, address)
                    return
                }
                owners[name] = address
            }
        }
    }

    @Test("Every distinct poster address of the largest catalog gets a file name of its own")
    func everyAddressHasItsOwnName() throws {
        let folder = try StepFixtures.folder("disk-names")
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = RunOptions()
        options.scenario = try StepFixtures.scenario("rows 3\nwait 0.1s\n", named: "disk-names", in: folder)
        let found = Clash()
        _ = try Workbook.run(step: "Step4DiskNames", options: options) { _ in NamesEveryPoster(clash: found) }
        let clash = found.value
        let everyNameIsItsOwn = clash == nil
        #expect(
            everyNameIsItsOwn,
            """
            the name is not long enough to be unique across a catalog of \(Self.largestCatalog) rows: \
            \(clash?[1] ?? "") and \(clash?[2] ?? "") share \(clash?[0] ?? "")
            """)
    }
}
