/// The best any client could do on a run's scenario, under the simulator's own model: bounds computed
/// from the scenario alone (its gesture timeline, link, faults and the posters' sizes), never from what a
/// step did, except Belady's MIN, which replays the step's own memory-cache lookups.
///
/// Each bound is proved in the walkthrough's section "The limit". The lower bounds hold for every client
/// whose main thread keeps presenting frames: a frozen screen shows no placeholder, so step 1 can sit
/// below the grey-rows bound by hanging. The request and byte bounds are for a client that shows
/// every stop's posters, starting with an empty disk.
package struct Limit: Sendable, Equatable {
    /// The fewest requests that show every stop's posters: one per distinct URL (the oracle's, but for the
    /// stops the user really sees).
    package var requestsStarted = 0
    /// The fewest bytes that show every stop's posters once: the oracle's, but for the stops the user
    /// really sees (a rest that a touch-down ends at once is none).
    package var bytesDownloaded = 0
    /// Bytes a client that shows every stop's posters must move without showing them: the bodies a first
    /// request gets back broken or as an error, and the pages of removed posters.
    package var bytesWasted = 0
    /// Each stop's shortest possible wait until every visible row shows its final content, capped at the
    /// stop's length, in the order the stops come.
    package var timesToVisibleMicroseconds: [Int64] = []
    /// Stops that no client can fill before the user leaves them.
    package var stopsUnfilled = 0
    /// The fewest visible-row microseconds on the placeholder while the table is at rest.
    package var placeholderRowMicroseconds: Int64 = 0
    /// The most memory-cache hits any cache of the step's size could have on the step's own sequence of
    /// lookups (Belady's MIN); nil when the step has no memory cache or never stored a poster in it.
    package var memoryCacheHits: Int?

    package init() {}

    /// The bound on each metric it bounds, by the metric's contract key, in report order: a most for
    /// `memory_cache_hits`, a least for the others.
    package var entries: [(key: String, value: MetricValue)] {
        var stops = Metrics()
        stops.timesToVisibleMicroseconds = timesToVisibleMicroseconds
        var result: [(key: String, value: MetricValue)] = [
            ("requests_started", .count(requestsStarted)),
            ("bytes_downloaded", .count(bytesDownloaded)),
            ("bytes_wasted", .count(bytesWasted)),
        ]
        if let memoryCacheHits { result.append(("memory_cache_hits", .count(memoryCacheHits))) }
        result += [
            ("time_to_visible_ms_p50", .milliseconds(stops.timeToVisible(percentile: 50))),
            ("time_to_visible_ms_p95", .milliseconds(stops.timeToVisible(percentile: 95))),
            ("time_to_visible_ms_max", .milliseconds(stops.timeToVisible(percentile: 100))),
            ("stops_unfilled", .count(stopsUnfilled)),
            ("placeholder_row_seconds", .seconds(placeholderRowMicroseconds)),
        ]
        return result
    }

    /// The bound on one metric, nil when the limit does not bound it.
    package func bound(of key: String) -> MetricValue? {
        entries.first { $0.key == key }?.value
    }
}
