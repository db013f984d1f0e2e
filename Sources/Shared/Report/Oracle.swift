import Foundation

/// The least network work any strategy needs for a scenario: each distinct poster of the rows visible
/// while the table is at rest, fetched once per disk lifetime (the whole run).
public struct Oracle: Sendable, Equatable {
    /// Distinct URLs to request (invalid URLs need none).
    public let requests: Int
    /// Their body bytes, as the server sends them.
    public let bytes: Int

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
            let response = server.response(for: parsed, memoising: false)
            bytes +=
                response.status == 200
                ? PosterStamp.stamp(response.body, url: url).count : response.body.count
        }
        requests = urls.count
        self.bytes = bytes
    }
}
