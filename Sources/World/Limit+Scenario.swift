import Catalog
import Foundation
import Report
import Scenarios

extension Limit {
    /// The limit of a scenario, from its timeline, link, faults and the posters `server` sends; Belady's
    /// MIN is filled in from the step's lookups once the run is over.
    ///
    /// The link carries at most `bandwidth` bytes a second in all, and no answer arrives sooner than its
    /// host's round trip (jitter only adds), so by time `t` at most `bandwidth · (t − round trip)` bytes
    /// have crossed it since the launch at 0: a stop cannot fill before its posters' bytes could all have
    /// crossed, and at any moment of a rest no more rows can show a poster than the posters that fit in
    /// the bytes crossed so far. A disk cache can spare a later launch the network, never the first
    /// crossing, so the bounds hold across relaunches.
    init(
        timeline: GestureTimeline, movies: [Movie], screen: ScreenSettings, network: NetworkSettings,
        faults: FaultSettings, server: PosterServer
    ) {
        self.init()
        var wastedURLs: Set<String> = []
        var shownURLs: Set<String> = []
        let link = LinkModel(network: network, faults: faults)
        for stop in Self.stopNeeds(
            timeline: timeline, movies: movies, screen: screen, link: link, server: server)
        {
            for (poster, _) in stop.posters where shownURLs.insert(poster.url).inserted {
                requestsStarted += 1
                bytesDownloaded += poster.bytes + poster.pageBytes
            }
            for (poster, _) in stop.posters where poster.pageBytes > 0 && faults.alwaysSendsWholePages {
                if wastedURLs.insert(poster.url).inserted { bytesWasted += poster.pageBytes }
            }
            let wait = max(0, stop.fill - stop.rest.start)
            if let leave = stop.rest.leave {
                timesToVisibleMicroseconds.append(min(wait, leave - stop.rest.start))
                if !stop.isFillable { stopsUnfilled += 1 }
            } else {
                timesToVisibleMicroseconds.append(wait)
            }
            placeholderRowMicroseconds += link.placeholderRowMicroseconds(
                posters: stop.posters, from: stop.rest.start, to: stop.rest.leave ?? Int64.max)
        }
    }

    /// One stop with the posters its rows show (each with how many rows show it) and the earliest time
    /// they could all have arrived.
    struct StopNeed {
        let rest: Rest
        let posters: [(PosterNeed, Int)]
        let fill: Int64
        /// Whether some client could fill the stop before the user leaves it.
        var isFillable: Bool { rest.leave.map { fill <= $0 } ?? true }
    }

    /// The timeline's stops with what their rows need of the link.
    static func stopNeeds(
        timeline: GestureTimeline, movies: [Movie], screen: ScreenSettings, link: LinkModel,
        server: PosterServer
    ) -> [StopNeed] {
        var needs: [String: PosterNeed] = [:]
        func need(_ row: Int) -> PosterNeed? {
            guard movies[row].url != nil, let url = URL(string: movies[row].urlString) else { return nil }
            if let known = needs[movies[row].urlString] { return known }
            let removed = url.path.contains("/removed/")
            let made = PosterNeed(
                url: movies[row].urlString, bytes: removed ? 0 : server.sentByteCount(for: url),
                latency: link.shortestLatency(host: url.host ?? ""),
                pageBytes: removed ? server.sentByteCount(for: url) : 0)
            needs[made.url] = made
            return made
        }
        var result: [StopNeed] = []
        for stop in stops(of: timeline) {
            guard
                let visible = GestureTimeline.visibleRows(
                    at: stop.offset, rowHeight: Double(screen.rowHeight), viewport: Double(screen.height),
                    rowCount: movies.count)
            else { continue }
            let rows = visible.compactMap(need)
            let posters = Dictionary(grouping: rows, by: \.url).values.map { ($0[0], $0.count) }
                .sorted { $0.0.url < $1.0.url }
            result.append(
                StopNeed(rest: stop, posters: posters, fill: link.earliestArrival(of: posters.map(\.0))))
        }
        return result
    }

    /// A stretch of the timeline with the table at rest: from a launch or a gesture's end until the next
    /// touch-down or relaunch (nil: the run's end), at a content offset.
    struct Rest {
        let start: Int64
        let leave: Int64?
        let offset: Double
    }

    /// The timeline's stops, in order, as the phone opens them: at each launch and at each gesture's end,
    /// unless a touch-down comes at that very moment.
    static func stops(of timeline: GestureTimeline) -> [Rest] {
        // Launches come after gesture ends at the same moment: a relaunch leaves such a stop at once.
        var opens: [(time: Int64, isLaunch: Bool, offset: Double)] = [(0, true, 0)]
        let touchDowns = timeline.gestures.map(\.start)
        var relaunches: [Int64] = []
        for gesture in timeline.gestures {
            opens.append((gesture.end, false, gesture.restOffset))
        }
        for (time, event) in timeline.systemEvents where event == .relaunch {
            relaunches.append(time)
            opens.append((time, true, 0))
        }
        opens.sort { ($0.time, $0.isLaunch ? 1 : 0) < ($1.time, $1.isLaunch ? 1 : 0) }
        var rests: [Rest] = []
        for (index, open) in opens.enumerated() {
            if index + 1 < opens.count, opens[index + 1].time == open.time { continue }
            let touchDown = touchDowns.first { $0 >= open.time }
            if touchDown == open.time { continue }
            let relaunch = relaunches.first { $0 > open.time }
            let leave = [touchDown, relaunch].compactMap { $0 }.min()
            rests.append(Rest(start: open.time, leave: leave, offset: open.offset))
        }
        return rests
    }
}

/// What showing one URL's row needs of the link.
struct PosterNeed {
    let url: String
    /// The poster's bytes as sent (0 for a removed poster, whose page shows only as the failure).
    let bytes: Int
    /// The shortest time before its first byte can arrive.
    let latency: Int64
    /// A removed poster's page: bytes moved that no cell can show.
    let pageBytes: Int
}

/// The simulator's link, as the limit sees it: a round trip (longer for a slow host) before any answer,
/// and one shared bottleneck.
struct LinkModel {
    let network: NetworkSettings
    let faults: FaultSettings

    /// The round trip of `host`, without jitter.
    func shortestLatency(host: String) -> Int64 {
        var latency = network.rttMicroseconds
        if let slow = faults.slowHost, slow.host == host { latency *= Int64(max(1, slow.factor)) }
        return latency
    }

    /// Microseconds for `bytes` to cross the whole link.
    func transferMicroseconds(_ bytes: Int) -> Int64 {
        let perSecond = max(1, network.bandwidthBytesPerSecond)
        return (Int64(bytes) * 1_000_000 + perSecond - 1) / perSecond
    }

    /// The earliest time (from the launch at 0) by which every one of `posters` could have arrived:
    /// each after its own round trip and body, and all their bytes after the first round trip.
    func earliestArrival(of posters: [PosterNeed]) -> Int64 {
        guard let first = posters.map(\.latency).min() else { return 0 }
        var earliest = first + transferMicroseconds(posters.reduce(0) { $0 + $1.bytes })
        for poster in posters {
            earliest = max(earliest, poster.latency + transferMicroseconds(poster.bytes))
        }
        return earliest
    }

    /// The fewest visible-row microseconds on the placeholder during a rest from `start` to `end` on
    /// `posters` (each with the rows showing it), counted in short steps: in each step no more rows show
    /// a poster than those whose posters had wholly arrived by its end and fit, all
    /// together, in the bytes the link could have carried by then (a row at a time, smallest poster per
    /// row first, the last one in part).
    func placeholderRowMicroseconds(posters: [(PosterNeed, Int)], from start: Int64, to end: Int64) -> Int64 {
        let rows = posters.reduce(0) { $0 + $1.1 }
        guard rows > 0, end > start else { return 0 }
        let byCostPerRow = posters.sorted {
            $0.0.bytes * $1.1 != $1.0.bytes * $0.1
                ? $0.0.bytes * $1.1 < $1.0.bytes * $0.1 : $0.0.url < $1.0.url
        }
        let firstByte = posters.map(\.0.latency).min() ?? 0
        let span = min(end, earliestArrival(of: posters.map(\.0))) - start
        // A millisecond at a time, or coarser on a long wait: a coarser step only lowers the count.
        let step = max(1000, span / 10_000)
        var total: Int64 = 0
        var time = start
        while time < end {
            let until = min(end, time + step)
            let budget =
                Double(network.bandwidthBytesPerSecond) * Double(max(0, until - firstByte)) / 1_000_000
            var left = budget
            var shown = 0.0
            for (poster, count) in byCostPerRow
            where poster.latency + transferMicroseconds(poster.bytes) <= until {
                if Double(poster.bytes) <= left {
                    left -= Double(poster.bytes)
                    shown += Double(count)
                } else {
                    shown += Double(count) * left / Double(poster.bytes)
                    break
                }
            }
            let grey = Double(rows) - shown
            if grey <= 0 && shown >= Double(rows) { break }
            total += Int64((grey * Double(until - time)).rounded(.down))
            time = until
        }
        return total
    }
}

extension FaultSettings {
    /// Whether every answer brings its whole page: with timeouts, refused connections, server errors or
    /// cut bodies, a client could show a removed poster's failure after moving less than its page.
    var alwaysSendsWholePages: Bool {
        timeoutPerMille == 0 && refusedPerMille == 0 && serverErrorPerMille == 0 && truncatedPerMille == 0
    }
}
