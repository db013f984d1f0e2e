import Catalog
import Foundation
import Report
import Scenarios

extension Oracle {
    /// Counts the distinct posters of the rows on screen at each of the timeline's rests, as `server`
    /// sends them.
    init(
        timeline: GestureTimeline, movies: [Movie], rowHeight: Double, viewport: Double, server: PosterServer
    ) {
        var urls: Set<String> = []
        for offset in timeline.restOffsets {
            guard
                let visible = GestureTimeline.visibleRows(
                    at: offset, rowHeight: rowHeight, viewport: viewport, rowCount: movies.count)
            else { continue }
            for row in visible {
                if movies[row].url != nil { urls.insert(movies[row].urlString) }
            }
        }
        var bytes = 0
        for url in urls.sorted() {
            guard let parsed = URL(string: url) else { continue }
            bytes += server.sentByteCount(for: parsed)
        }
        self.init(requests: urls.count, bytes: bytes)
    }
}
