/// The `--json` report of a live run: the simulator's object (`step`, `scenario`, `seed`, `metrics`
/// under the same keys, `final_screen`), with null for every figure not measured live and for what only
/// the simulator computes (`virtual_ms`, `oracle`, `limit`), and a `live` object: wall-clock seconds,
/// frames, the server's log count, the relaunches, the requests started and the posters downloaded after
/// the last of them, and
/// whether every visible row showed its final content on the last frame. A
/// row's title is its movie's name, as the simulator's is, whatever the cell's label says.
extension LiveReport {
    var json: String {
        let metrics = Self.object(metrics.map { ($0.key, $0.value ?? "null") })
        let live = Self.object([
            ("wall_seconds", String(format: "%.1f", Double(wallMicroseconds) / 1e6)),
            ("frames", String(frames)), ("server_requests_logged", String(serverLog.count)),
            ("relaunches", String(judged.requestsStartedAtRelaunches.count)),
            ("requests_started_after_last_relaunch", String(requestsAfterLastRelaunch)),
            ("posters_downloaded_after_last_relaunch", String(postersDownloadedAfterLastRelaunch)),
            ("visible_rows_final_at_end", judged.finalAtEnd ? "true" : "false"),
        ])
        let movies = Phone.current.movies
        let rows = screen.map { row in
            Self.object([
                ("row", String(row.row)),
                ("title", Self.string(row.row < movies.count ? movies[row.row].name : row.title)),
                ("shows", Self.string(row.shows)),
                ("image_hash", row.imageHash.map(Self.string) ?? "null"),
                ("url", row.row < movies.count ? Self.string(movies[row.row].urlString) : "null"),
            ])
        }
        var text = "{\n"
        text += "  \"step\": \(Self.string(step)),\n"
        text += "  \"scenario\": \(Self.string(scenario)),\n"
        text += "  \"seed\": \(seed),\n"
        text += "  \"virtual_ms\": null,\n"
        text += "  \"live\": \(live),\n"
        text += "  \"metrics\": \(metrics),\n"
        text += "  \"oracle\": null,\n"
        text += "  \"limit\": null,\n"
        text +=
            "  \"final_screen\": ["
            + (rows.isEmpty ? "" : "\n    " + rows.joined(separator: ",\n    ") + "\n  ") + "]"
        if faultsIgnored {
            text += ",\n  \"notices\": [\(Self.string(Self.faultsNotice))]"
        }
        return text + "\n}\n"
    }

    /// One JSON object from (key, already-encoded value) pairs, in order, on one line.
    private static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// A JSON string literal, escaped per RFC 8259.
    private static func string(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
