import Text

/// One line of a `--trace` file: what happened, with its typed payload, at a virtual time.
///
/// `Kind` is every event the simulation reports; `fields` is the one place that names each event's keys
/// and their order in the JSON Lines contract, and `jsonLine` the one encoder.
package struct TraceEvent: Sendable, Equatable {
    /// Virtual microseconds since the phone started.
    package let time: Int64
    package let kind: Kind

    package init(time: Int64, _ kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// What happened, with its values. Durations are microseconds (written as milliseconds with one
    /// decimal); `start` is the virtual time a span began.
    package enum Kind: Sendable, Equatable {
        case requestStart(url: String, thread: String)
        /// The answer began to arrive (or failed) after its latency.
        case requestResponse(url: String, status: Int, bytes: Int)
        case requestEnd(url: String, status: Int, bytes: Int)
        case requestCancel(url: String, bytes: Int)
        /// A decode of the picture from `url` (nil: bytes with no stamp) ran on a thread.
        case decode(url: String?, thread: String, micros: Int64, succeeded: Bool)
        case filter(url: String?, thread: String, micros: Int64)
        /// The decoder refused a picture before decoding it (too large, a bomb).
        case posterRefused(url: String?, reason: String)
        case diskRead(file: String, bytes: Int, thread: String, micros: Int64)
        case diskWrite(file: String, bytes: Int, thread: String, micros: Int64)
        case diskWriteFailed(file: String, reason: String, thread: String)
        case diskCacheOff(reason: String)
        /// The app's disk cache found, in the file for `url`, another URL's picture.
        case diskCacheMismatch(file: String, url: String, found: String)
        case operationStart(operation: String, thread: String)
        case operationEnd(operation: String, thread: String, cancelled: Bool)
        /// A run cut at its time limit left an operation in an app's queue: `state` is running, waiting,
        /// or suspended (waiting on a suspended queue).
        case operationLeft(operation: String, queue: String, state: String)
        /// The thread that handed an operation to a worker cancelled it in the same turn (as when a queue
        /// is resumed before the rows that left are cancelled): on real threads the worker may have begun.
        case operationCancelledAsHandedOut(operation: String, thread: String)
        case memoryWarning
        case memoryWarningHandled(imageBytesBefore: Int, imageBytesAfter: Int)
        case relaunch
        /// Main-queue work ran for a cancelled operation.
        case lateCompletion
        /// The app called the look-alike UIKit (`method`) from a thread other than the main one.
        case mainThreadViolation(method: String, thread: String)
        /// The main thread was busy from `start` until now (`kind`: launch, frame or block).
        case mainBusy(kind: String, start: Int64)
        case hang(micros: Int64, start: Int64)
        case hitch(micros: Int64, start: Int64)
        case scrollState(ScrollState)
        case scrollInterval(micros: Int64, start: Int64)
        case stopFilled(micros: Int64, start: Int64)
        case stopUnfilled(micros: Int64, start: Int64)
        case visibleRows(first: Int, last: Int)
        /// A visible cell began to show something else: `shows` is image, placeholder or failed.
        case cellImage(row: Int, shows: String, url: String?, imageHash: String?)
        case wrongImage(row: Int, url: String?)
    }

    /// The table view's scrolling state, as `scroll_state` reports it.
    package enum ScrollState: String, Sendable {
        case dragging, decelerating, idle
    }

    /// One field's value, typed as the trace writes it.
    package enum Value: Sendable, Equatable {
        /// A string, or `null`.
        case text(String?)
        case number(Int64)
        case flag(Bool)
        /// A duration in microseconds, written as milliseconds with one decimal.
        case milliseconds(Int64)

        /// The JSON text of the value.
        package var json: String {
            switch self {
            case .text(let value): return JSONText.optionalString(value)
            case .number(let value): return String(value)
            case .flag(let value): return value ? "true" : "false"
            case .milliseconds(let micros): return MetricValue.milliseconds(micros).formatted
            }
        }
    }

    /// The event name, as the trace writes it (`scroll_state`, `request_start`, …).
    package var name: String { described.name }

    /// The fields after `t_us` and `event`, in output order.
    package var fields: [(key: String, value: Value)] { described.fields }

    /// The JSON Lines text of this event.
    package var jsonLine: String {
        JSONText.object(
            [("t_us", String(time)), ("event", JSONText.string(name))]
                + fields.map { ($0.key, $0.value.json) })
    }

    /// A whole trace as JSON Lines: one line per event, each ending in a newline.
    package static func jsonLines(_ events: [TraceEvent]) -> String {
        events.map(\.jsonLine).joined(separator: "\n") + (events.isEmpty ? "" : "\n")
    }

    /// A duration as a reader of the file sees it: rounded half away from zero to the tenth of a
    /// millisecond the trace writes (pictures drawn from a run match pictures drawn from its file).
    package static func asWritten(_ micros: Int64) -> Int64 {
        let scaled = micros * 10
        return (scaled + (scaled >= 0 ? 500 : -500)) / 1000 * 100
    }

    /// The name and fields of the contract, event by event.
    private var described: (name: String, fields: [(key: String, value: Value)]) {
        switch kind {
        case .requestStart(let url, let thread):
            return ("request_start", [("url", .text(url)), ("thread", .text(thread))])
        case .requestResponse(let url, let status, let bytes):
            return (
                "request_response", [("url", .text(url)), ("status", .int(status)), ("bytes", .int(bytes))]
            )
        case .requestEnd(let url, let status, let bytes):
            return ("request_end", [("url", .text(url)), ("status", .int(status)), ("bytes", .int(bytes))])
        case .requestCancel(let url, let bytes):
            return ("request_cancel", [("url", .text(url)), ("bytes", .int(bytes))])
        case .decode(let url, let thread, let micros, let succeeded):
            return (
                "decode",
                [
                    ("url", .text(url)), ("thread", .text(thread)), ("ms", .milliseconds(micros)),
                    ("ok", .flag(succeeded)),
                ]
            )
        case .filter(let url, let thread, let micros):
            return (
                "filter", [("url", .text(url)), ("thread", .text(thread)), ("ms", .milliseconds(micros))]
            )
        case .posterRefused(let url, let reason):
            return ("poster_refused", [("url", .text(url)), ("reason", .text(reason))])
        case .diskRead(let file, let bytes, let thread, let micros):
            return (
                "disk_read",
                [
                    ("file", .text(file)), ("bytes", .int(bytes)), ("thread", .text(thread)),
                    ("ms", .milliseconds(micros)),
                ]
            )
        case .diskWrite(let file, let bytes, let thread, let micros):
            return (
                "disk_write",
                [
                    ("file", .text(file)), ("bytes", .int(bytes)), ("thread", .text(thread)),
                    ("ms", .milliseconds(micros)),
                ]
            )
        case .diskWriteFailed(let file, let reason, let thread):
            return (
                "disk_write_failed",
                [("file", .text(file)), ("reason", .text(reason)), ("thread", .text(thread))]
            )
        case .diskCacheOff(let reason):
            return ("disk_cache_off", [("reason", .text(reason))])
        case .diskCacheMismatch(let file, let url, let found):
            return (
                "disk_cache_mismatch", [("path", .text(file)), ("url", .text(url)), ("found", .text(found))]
            )
        case .operationStart(let operation, let thread):
            return ("operation_start", [("operation", .text(operation)), ("thread", .text(thread))])
        case .operationEnd(let operation, let thread, let cancelled):
            return (
                "operation_end",
                [("operation", .text(operation)), ("thread", .text(thread)), ("cancelled", .flag(cancelled))]
            )
        case .operationLeft(let operation, let queue, let state):
            return (
                "operation_left",
                [("operation", .text(operation)), ("queue", .text(queue)), ("state", .text(state))]
            )
        case .operationCancelledAsHandedOut(let operation, let thread):
            return ("operation_cancel_race", [("operation", .text(operation)), ("thread", .text(thread))])
        case .memoryWarning:
            return ("memory_warning", [])
        case .memoryWarningHandled(let before, let after):
            return (
                "memory_warning_handled",
                [("image_bytes_before", .int(before)), ("image_bytes_after", .int(after))]
            )
        case .relaunch:
            return ("relaunch", [])
        case .lateCompletion:
            return ("late_completion", [])
        case .mainThreadViolation(let method, let thread):
            return ("main_thread_violation", [("method", .text(method)), ("thread", .text(thread))])
        case .mainBusy(let kind, let start):
            return ("main_busy", [("kind", .text(kind)), ("start_us", .number(start))])
        case .hang(let micros, let start):
            return ("hang", Self.span(micros, start))
        case .hitch(let micros, let start):
            return ("hitch", Self.span(micros, start))
        case .scrollState(let state):
            return ("scroll_state", [("state", .text(state.rawValue))])
        case .scrollInterval(let micros, let start):
            return ("scroll_interval", Self.span(micros, start))
        case .stopFilled(let micros, let start):
            return ("stop_filled", Self.span(micros, start))
        case .stopUnfilled(let micros, let start):
            return ("stop_unfilled", Self.span(micros, start))
        case .visibleRows(let first, let last):
            return ("visible_rows", [("first", .int(first)), ("last", .int(last))])
        case .cellImage(let row, let shows, let url, let imageHash):
            return (
                "cell_image",
                [
                    ("row", .int(row)), ("shows", .text(shows)), ("url", .text(url)),
                    ("image_hash", .text(imageHash)),
                ]
            )
        case .wrongImage(let row, let url):
            return ("wrong_image", [("row", .int(row)), ("url", .text(url))])
        }
    }

    /// The fields of a span: its length, then when it began.
    private static func span(_ micros: Int64, _ start: Int64) -> [(key: String, value: Value)] {
        [("ms", .milliseconds(micros)), ("start_us", .number(start))]
    }
}

extension TraceEvent.Value {
    /// A whole number.
    static func int(_ value: Int) -> Self { .number(Int64(value)) }
}
