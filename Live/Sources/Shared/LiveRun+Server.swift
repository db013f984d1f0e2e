import Catalog
import Foundation
import Imaging
import LiveServer
import Posters
import Scenarios

/// The run's server side: the scenario's network line as the loopback server applies it, and what it
/// answers for each catalog URL, the simulator's bytes and faults.
extension LiveRun {
    /// How much longer than the scenario's timeout the server holds a request it leaves unanswered.
    static let heldGrace = Duration.milliseconds(500)

    /// The posters of the rows on screen at every stop of the scenario and the two rows past each screen,
    /// sorted: the ones the run surely asks for (any other is made when first asked for).
    static func postersAtStops(_ timeline: GestureTimeline, movies: [Movie], screen: LiveScreen)
        -> [String]
    {
        var urls: Set<String> = []
        for offset in timeline.restOffsets {
            guard
                let rows = GestureTimeline.visibleRows(
                    at: offset, rowHeight: screen.rowHeight, viewport: screen.height, rowCount: movies.count)
            else { continue }
            for row in rows.lowerBound...min(movies.count - 1, rows.upperBound + 2) {
                if let url = movies[row].url { urls.insert(url.absoluteString) }
            }
        }
        return urls.sorted()
    }

    /// The catalog's URLs by the plain `http` address the server sees.
    static func catalogURLs(_ movies: [Movie]) -> [String: String] {
        var urls: [String: String] = [:]
        for movie in movies {
            if let url = movie.url { urls[LiveAddress.plain(url).absoluteString] = url.absoluteString }
        }
        return urls
    }

    /// The scenario's network line as the server applies it: each request's latency is the round trip
    /// plus the jitter the simulator draws for the same URL and attempt (times the slow host's factor), and
    /// a request left unanswered is closed by the server `heldGrace` after the scenario's timeout (the
    /// app's URLSession, timed from the moment it sent the request, gives up first; `Data(contentsOf:)`,
    /// which cannot be given a timeout, sees the server close).
    static func shape(_ scenario: Scenario, seed: UInt64, catalogURLs: [String: String]) -> LinkShape {
        let network = scenario.network
        let slowHost = scenario.faults.slowHost
        var shape = LinkShape(
            latency: { plain, attempt in
                let url = catalogURLs[plain] ?? plain
                var jitter = SeededGenerator(
                    seed: seed ^ FNV1a64.hash(url) &+ UInt64(attempt), stream: "network-jitter")
                var latency = network.rttMicroseconds + jitter.below(network.jitterMicroseconds)
                if let slowHost, URL(string: url)?.host == slowHost.host {
                    latency *= Int64(max(1, slowHost.factor))
                }
                return .microseconds(latency)
            },
            bytesPerSecond: Int(network.bandwidthBytesPerSecond),
            connectionsPerHost: network.connectionsPerHost,
            timeout: .microseconds(network.timeoutMicroseconds) + heldGrace)
        shape.clientTimeout = .microseconds(network.timeoutMicroseconds)
        return shape
    }

    /// What the server answers for a catalog URL: the generated poster stamped with its URL, the bytes
    /// the simulator's server sends, or 404 for a removed poster; with the request's fault, the
    /// simulator's answer to it: a 500 with its page, the body cut at the same 3/5, the same flipped
    /// bytes (before the stamp, as there), no answer at all.
    static func answer(_ url: String, fault: Fault?, seed: UInt64) -> LiveResponse {
        let removed = url.contains("/removed/")
        var response =
            removed
            ? LiveResponse(status: 404, body: RemovedPosterPage.body, contentType: "text/html")
            : LiveResponse(status: 200, body: PosterMemo.shared.png(for: url))
        switch fault {
        case .timeout: response.unanswered = .held
        case .refused: response.unanswered = .closed
        case .serverError:
            response = LiveResponse(status: 500, body: Fault.serverErrorBody, contentType: "text/html")
        case .truncated: response.truncatedAfter = Fault.truncatedLength(of: response.body.count)
        case .corrupt:
            response.body = FaultSettings.corrupted(response.body, url: url, seed: seed)
        case nil: break
        }
        if response.status == 200 { response.body = PosterStamp.stamp(response.body, url: url) }
        return response
    }
}
