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
