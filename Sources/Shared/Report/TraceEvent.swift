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
