import LiveServer
import Text

/// The `--json` report of a live run: the simulator's object (`step`, `scenario`, `seed`, `metrics`
/// under the same keys, `final_screen`), with null for every figure not measured live and for what only
/// the simulator computes (`virtual_ms`, `oracle`, `limit`), and a `live` object: wall-clock seconds,
/// frames, the server's log count, the relaunches, the requests started and the posters downloaded after
/// the last of them,
/// whether every visible row showed its final content on the last frame, each stop's wait in the order the
/// stops ended (`stop_waits_ms`), and how many logged requests drew
/// each of the scenario's faults (null when it has none); and `server_log`, every request the server logged
/// with its catalog URL, attempt, status, body bytes sent, how it ended, the fault it drew, and when (in
/// milliseconds of the run's clock) its head arrived and the server was done with it. A
/// row's title is its movie's name, as the simulator's is, whatever the cell's label says.
extension LiveReport {
    /// How a logged request ended, in the report.
    static func name(_ outcome: LiveRequestRecord.Outcome) -> String {
        switch outcome {
        case .completed: "completed"
        case .cancelled: "cancelled"
        case .truncated: "truncated"
        case .refused: "refused"
        case .closedUnanswered: "closed_unanswered"
        case .heldUnanswered: "held_unanswered"
        case .abandoned: "abandoned"
        }
    }

    /// Run microseconds as milliseconds with one decimal.
    private static func milliseconds(_ microseconds: Int64) -> String {
        String(format: "%.1f", Double(microseconds) / 1000)
    }

    /// A JSON array of already-encoded elements, an element a line, as a member of the report (`[]` when
    /// empty).
    private static func lines(_ elements: [String]) -> String {
        "[" + (elements.isEmpty ? "" : "\n    " + elements.joined(separator: ",\n    ") + "\n  ") + "]"
    }

    var json: String {
        let metrics = JSONText.object(metrics.map { ($0.key, $0.value ?? "null") })
        let live = JSONText.object([
            ("wall_seconds", String(format: "%.1f", Double(wallMicroseconds) / 1e6)),
            ("frames", String(frames)), ("server_requests_logged", String(serverLog.count)),
            ("relaunches", String(judged.requestsStartedAtRelaunches.count)),
            ("requests_started_after_last_relaunch", String(requestsAfterLastRelaunch)),
            ("posters_downloaded_after_last_relaunch", String(postersDownloadedAfterLastRelaunch)),
            ("visible_rows_final_at_end", judged.finalAtEnd ? "true" : "false"),
            (
                "stop_waits_ms",
                JSONText.array(judged.timesToVisible.map(Self.milliseconds))
            ),
            (
                "faults_drawn",
                faults.drawsFaults
                    ? JSONText.object(faultsDrawn.map { ($0.fault.name, String($0.count)) }) : "null"
            ),
        ])
        let log = serverLog.map { record in
            JSONText.object([
                ("sequence", String(record.sequence)), ("url", JSONText.string(catalogURL(of: record))),
                ("attempt", String(record.attempt)), ("status", String(record.status)),
                ("body_bytes", String(record.bodyBytesSent)),
                ("outcome", JSONText.string(Self.name(record.outcome))),
                ("fault", drawnFault(record).map { JSONText.string($0.name) } ?? "null"),
                ("arrived_ms", Self.milliseconds(clock.microseconds(at: record.arrived))),
                ("ended_ms", Self.milliseconds(clock.microseconds(at: record.ended))),
            ])
        }
        let movies = Phone.current.movies
        let rows = screen.map { row in
            JSONText.object([
                ("row", String(row.row)),
                ("title", JSONText.string(row.row < movies.count ? movies[row.row].name : row.title)),
                ("shows", JSONText.string(row.shows)),
                ("image_hash", row.imageHash.map(JSONText.string) ?? "null"),
                ("url", row.row < movies.count ? JSONText.string(movies[row.row].urlString) : "null"),
            ])
        }
        var fields = [
            ("step", JSONText.string(step)), ("scenario", JSONText.string(scenario)), ("seed", String(seed)),
            ("virtual_ms", "null"), ("live", live), ("metrics", metrics), ("oracle", "null"),
            ("limit", "null"),
            ("server_log", Self.lines(log)), ("final_screen", Self.lines(rows)),
        ]
        if !notices.isEmpty {
            fields.append(("notices", JSONText.array(notices.map(JSONText.string))))
        }
        return JSONText.document(fields)
    }
}
