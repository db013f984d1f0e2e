/// One line of a `--trace` file: a virtual time, an event name and its fields in a fixed order.
public struct TraceEvent: Sendable, Equatable {
    /// Virtual microseconds since the phone started.
    public let time: Int64
    /// The event name (`scroll_state`, `request_start`, …).
    public let name: String
    /// The event's fields as (key, JSON-encoded value), in output order.
    public let fields: [TraceField]

    /// The JSON Lines text of this event.
    public var jsonLine: String {
        JSONText.object(
            [("t_us", String(time)), ("event", JSONText.string(name))] + fields.map { ($0.key, $0.json) })
    }
}

/// One field of a trace event.
public struct TraceField: Sendable, Equatable {
    /// The key.
    public let key: String
    /// The value, already JSON-encoded.
    public let json: String

    /// A string field.
    public static func text(_ key: String, _ value: String?) -> TraceField {
        TraceField(key: key, json: JSONText.optionalString(value))
    }

    /// A whole-number field.
    public static func number(_ key: String, _ value: Int) -> TraceField {
        TraceField(key: key, json: String(value))
    }

    /// A true/false field.
    public static func flag(_ key: String, _ value: Bool) -> TraceField {
        TraceField(key: key, json: value ? "true" : "false")
    }

    /// A milliseconds field with one decimal, from microseconds.
    public static func milliseconds(_ key: String, _ micros: Int64) -> TraceField {
        TraceField(key: key, json: MetricValue.milliseconds(micros).formatted)
    }
}
