import Foundation
import Report

extension RunResult {
    /// The trace events with a given name.
    package func events(_ name: String) -> [TraceEvent] {
        trace.filter { $0.name == name }
    }
}

/// The tests read an event's fields as the typed values the simulation recorded, never as the JSON text
/// they are written as (the JSON Lines encoding has tests of its own, in `TraceEventTests`).
extension TraceEvent {
    /// A field's typed value, if present.
    package func value(_ key: String) -> Value? {
        fields.first { $0.key == key }?.value
    }

    /// A text field (nil for a null or missing field).
    package func text(_ key: String) -> String? {
        if case .text(let text)? = value(key) { return text }
        return nil
    }

    /// A whole-number field: a count, a status, a row, a time in microseconds.
    package func number(_ key: String) -> Int? {
        if case .number(let number)? = value(key) { return Int(number) }
        return nil
    }

    /// A duration field, in milliseconds.
    package func milliseconds(_ key: String) -> Double? {
        if case .milliseconds(let micros)? = value(key) { return Double(micros) / 1000 }
        return nil
    }

    /// A true-or-false field.
    package func flag(_ key: String) -> Bool? {
        if case .flag(let flag)? = value(key) { return flag }
        return nil
    }

    /// The state a `scroll_state` event reports.
    package var scrollState: ScrollState? {
        if case .scrollState(let state) = kind { return state }
        return nil
    }
}

/// One line of a `--trace` file that a step's executable wrote, read back as JSON: for tests of a child
/// process, whose events exist only in that file.
package struct TraceFileLine {
    /// The event's name (`event`).
    package let name: String
    private let object: [String: Any]

    /// Every line of a trace file, in order; throws when the file cannot be read or a line is not a JSON
    /// object with `t_us` and `event`.
    package static func read(_ url: URL) throws -> [TraceFileLine] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { line in
            guard
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let name = object["event"] as? String, object["t_us"] is NSNumber
            else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path])
            }
            return TraceFileLine(name: name, object: object)
        }
    }

    /// A text field (nil for a null, missing or non-text field).
    package func text(_ key: String) -> String? { object[key] as? String }
}
