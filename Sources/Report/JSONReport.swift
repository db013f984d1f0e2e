import Text

/// The `--json` report: one object with the step, scenario, seed, metrics, oracle, limit and final screen.
package enum JSONReport {
    /// The JSON text of a run (one object, keys in a fixed order, then a newline).
    package static func render(_ result: RunResult) -> String {
        let metrics = JSONText.object(result.metrics.entries.map { ($0.key, $0.value.formatted) })
        let oracle = JSONText.object([
            ("requests", String(result.oracle.requests)), ("bytes", String(result.oracle.bytes)),
        ])
        let limit = JSONText.object(result.limit.entries.map { ($0.key, $0.value.formatted) })
        let rows = result.finalScreen.rows.map { row in
            JSONText.object([
                ("row", String(row.row)), ("title", JSONText.string(row.title)),
                ("shows", JSONText.string(row.shows)),
                ("image_hash", JSONText.optionalString(row.imageHash)), ("url", JSONText.string(row.url)),
            ])
        }
        var fields = [
            ("step", JSONText.string(result.step)), ("scenario", JSONText.string(result.scenario)),
            ("seed", String(result.seed)),
            ("virtual_ms", MetricValue.milliseconds(result.virtualMicroseconds).formatted),
            ("metrics", metrics), ("oracle", oracle), ("limit", limit),
            ("final_screen", "[\n    " + rows.joined(separator: ",\n    ") + "\n  ]"),
        ]
        if !result.notices.isEmpty {
            fields.append(("notices", JSONText.array(result.notices.map(JSONText.string))))
        }
        return JSONText.document(fields)
    }
}
