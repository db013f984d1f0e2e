import Catalog
import Foundation
import Imaging
import Report
import Runtime
import Scenarios
import UI
import Values

/// A client that knows the future: the limit's plan, replayed on the phone as any step is.
///
/// Its plan is an explicit schedule read off the scenario: each poster that some stop will show, once,
/// in the order the stops first need them (row order within a stop), `inFlight` downloads at a time, each
/// decoded and filtered as soon as it arrives and kept, in memory for the launch and on disk for the next
/// ones. It never asks for a poster no stop shows, never cancels, and never looks at the screen to
/// decide: what it does is fixed before the run begins. After a relaunch it takes up the plan from the
/// first stop still to come, reading from disk what an earlier launch fetched. Its figures show how
/// close to the limit's bounds a client can come; memory is no concern of its (it keeps every poster).
/// `@unchecked Sendable` as the steps' controllers are: only the main thread uses it.
package final class ClairvoyantClient: TableViewController, @unchecked Sendable {
    /// Downloads at once: enough to hide a round trip behind another's body, few enough that the poster
    /// needed first is not slowed by many sharing the link.
    package static let inFlight = 4

    private let downloads = OperationQueue()
    private var images: [String: Image] = [:]
    private var failed: Set<String> = []

    override package init() {
        super.init()
        downloads.maxConcurrentOperationCount = Self.inFlight
    }

    override package func viewDidLoad() {
        super.viewDidLoad()
        tableView.reloadData()
        let folder = Disk.shared.cachesDirectory.appendingPathComponent("Plan")
        _ = Disk.shared.createDirectory(at: folder)
        for url in Self.plan(for: phone, from: SimulatedThread.current?.now ?? 0) {
            load(url, folder: folder)
        }
    }

    /// The posters of the stops that open at or after `time` and that some client could fill, each
    /// once, in the order the stops first need them (a stop left before its posters could arrive needs
    /// none: whatever came for it would come too late).
    static func plan(for phone: Phone, from time: Int64) -> [URL] {
        var seen: Set<String> = []
        var order: [URL] = []
        let stops = Limit.stopNeeds(
            timeline: phone.timeline, movies: phone.movies, screen: phone.scenario.screen,
            link: LinkModel(network: phone.scenario.network, faults: phone.scenario.faults),
            server: phone.server)
        for stop in stops where stop.rest.start >= time && stop.isFillable {
            guard
                let rows = GestureTimeline.visibleRows(
                    at: stop.rest.offset, rowHeight: phone.rowHeight, viewport: phone.screenHeight,
                    rowCount: phone.movies.count)
            else { continue }
            for row in rows {
                guard let url = phone.movies[row].url, seen.insert(url.absoluteString).inserted else {
                    continue
                }
                order.append(url)
            }
        }
        return order
    }

    private func load(_ url: URL, folder: URL) {
        let file = folder.appendingPathComponent(FNV1a64.hexDigest(of: url.absoluteString) + ".png")
        let download = PlannedDownload(url: url, file: file)
        download.completionBlock = {
            OperationQueue.main.addOperation {
                self.show(download.image, for: url.absoluteString)
            }
        }
        downloads.addOperation(download)
    }

    /// One planned poster: from disk if an earlier launch kept it, else from the network (kept on disk
    /// for the next launch), decoded and filtered.
    private final class PlannedDownload: Runtime.Operation, @unchecked Sendable {
        let url: URL
        let file: URL
        private(set) var image: Image?

        init(url: URL, file: URL) {
            self.url = url
            self.file = file
        }

        override func main() {
            // An empty file: the poster was removed (404), which no later launch need ask again.
            if let stored = Disk.shared.contents(of: file) {
                image = stored.isEmpty ? nil : Image(data: stored)?.applyingSepia(intensity: 0.8)
                return
            }
            do {
                let data = try Network.shared.data(from: url, cancellingWith: self)
                image = Image(data: data)?.applyingSepia(intensity: 0.8)
                if image != nil { _ = Disk.shared.write(data, to: file, atomically: true) }
            } catch .status(404) {
                _ = Disk.shared.write(Data(), to: file, atomically: true)
            } catch {}
        }
    }

    private func show(_ image: Image?, for url: String) {
        if let image { images[url] = image } else { failed.insert(url) }
        let rows = (tableView.indexPathsForVisibleRows ?? []).filter { phone.movies[$0.row].urlString == url }
        if !rows.isEmpty { tableView.reloadRows(at: rows, with: .none) }
    }

    override package func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        phone.movies.count
    }

    override package func tableView(_ tableView: TableView, cellForRowAt indexPath: Values.IndexPath)
        -> TableViewCell
    {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Plan", for: indexPath)
        let movie = phone.movies[indexPath.row]
        cell.textLabel.text = movie.name
        if movie.url == nil || failed.contains(movie.urlString) {
            cell.imageView.image = Image.failed
        } else {
            cell.imageView.image = images[movie.urlString] ?? Image.placeholder
        }
        return cell
    }
}
