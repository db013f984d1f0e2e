import Foundation
import Posters
import Shared
import TestSupport
import Testing

/// A wrong picture is judged by its pixels, not by the URL stamped in its bytes: a row that shows
/// another poster's pixels under its own URL is a wrong image.
extension StepPartsTests {
    /// Step 1's app, except that each row downloads the next row's poster and stamps its own URL over it,
    /// as a forged or foreign cache entry would: the bytes name the row, the pixels are another poster's.
    final class RestampingController: TableViewController {
        /// Whether the app puts the next row's pixels under each row's URL (false: the row's own bytes,
        /// stamped again, which changes no pixel).
        let swapsPixels: Bool

        init(swapsPixels: Bool) {
            self.swapsPixels = swapsPixels
            super.init()
        }

        override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
            phone.movies.count
        }

        override func tableView(_ tableView: TableView, cellForRowAt indexPath: Shared.IndexPath)
            -> TableViewCell
        {
            let cell = tableView.dequeueReusableCell(withIdentifier: "CellIdentifier", for: indexPath)
            let movies = phone.movies
            cell.textLabel.text = movies[indexPath.row].name
            cell.imageView.image = Image.failed
            guard let own = movies[indexPath.row].url else { return cell }
            let donor =
                swapsPixels
                ? movies[(indexPath.row + 1)...].lazy.compactMap(\.url).first {
                    $0 != own && !$0.path.contains("/removed/")
                }
                : own
            guard let donor, let bytes = Network.shared.data(contentsOf: donor) else { return cell }
            let restamped = Data(PosterStamp.stamp([UInt8](bytes), url: own.absoluteString))
            if let image = Image(data: restamped) {
                cell.imageView.image = image.applyingSepia(intensity: 0.8)
            }
            return cell
        }
    }

    func run(swapsPixels: Bool) throws -> RunResult {
        let folder = try StepFixtures.folder("wrong-pixels")
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = RunOptions()
        options.scenario = try StepFixtures.scenario("rows 12\nwait 2s\n", named: "look", in: folder)
        return try Workbook.run(step: "Restamping", options: options, keepTrace: true) { _ in
            RestampingController(swapsPixels: swapsPixels)
        }
    }

    @Test("Another poster's pixels under the row's own URL count as wrong images, and the screen marks them")
    func anotherPostersPixelsAreWrong() throws {
        let run = try run(swapsPixels: true)
        let posters = run.events("cell_image").filter { $0.text("shows") == "image" }
        let movies = try MovieCatalog.bundled().rows(12)
        #expect(!posters.isEmpty)
        // Every poster shown carries its own row's URL: a check of the stamp alone sees nothing wrong.
        for event in posters {
            #expect(event.text("url") == movies[try #require(event.number("row"))].urlString)
        }
        #expect(run.metric("wrong_image_events") == Double(posters.count))
        let marked = run.finalScreen.rows.filter { $0.wrongPosterOf != nil }
        #expect(marked.count == run.finalScreen.rows.filter { $0.shows == "image" }.count)
        #expect(marked.allSatisfy { $0.wrongPosterOf == "\($0.title) (other pixels)" })
    }

    @Test("The row's own bytes stamped again show its own pixels: no wrong image")
    func restampedOwnBytesAreRight() throws {
        let run = try run(swapsPixels: false)
        #expect(run.events("cell_image").contains { $0.text("shows") == "image" })
        #expect(run.metric("wrong_image_events") == 0)
        #expect(run.finalScreen.rows.allSatisfy { $0.wrongPosterOf == nil })
    }

}
