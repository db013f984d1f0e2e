import Foundation
import Shared
import Testing

@testable import Report
@testable import UI

/// Trace events and their JSON Lines.
extension InputTests {
    /// Strings a URL, a file or a reason could hold that JSON must escape.
    static let hostile = [
        "plain", "quote \" and \\ back", "line\nbreak\ttab\r", "\u{1}\u{1f} control", "é ✓ 🎞",
    ]

    /// Decodes a line with Foundation's parser, independent of the encoder under test.
    func decode(_ line: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(object as? [String: Any])
    }

    @Test("Every string survives the encoder: Foundation's JSON parser reads back the text that went in")
    func everyStringSurvivesEncoder() throws {
        for text in Self.hostile {
            let events = [
                TraceEvent(time: 5, .posterRefused(url: text, reason: text)),
                TraceEvent(time: 6, .diskCacheMismatch(file: text, url: text, found: text)),
            ]
            for event in events {
                let object = try decode(event.jsonLine)
                #expect(!event.jsonLine.contains("\n"), "one line")
                for (key, value) in event.fields {
                    guard case .text(let expected) = value else { continue }
                    #expect(object[key] as? String == expected, "\(key) of \(event.name)")
                }
            }
        }
    }

    @Test("Each line starts with t_us and event, then the event's fields in order; a nil text is null")
    func linesStartWithTimeAndEvent() throws {
        let event = TraceEvent(
            time: 1_234, .cellImage(row: 3, shows: "placeholder", url: nil, imageHash: nil))
        #expect(event.jsonLine.hasPrefix(#"{"t_us": 1234, "event": "cell_image", "row": 3, "shows": "#))
        let object = try decode(event.jsonLine)
        #expect(object["url"] is NSNull && object["image_hash"] is NSNull)
        #expect(event.fields.map(\.key) == ["row", "shows", "url", "image_hash"])
    }

    @Test(
        "Durations are written in milliseconds with one decimal, and asWritten gives what a reader gets back")
    func durationsInMilliseconds() throws {
        for micros: Int64 in [0, 49, 50, 149, 150, 999, 16_667, 1_000_000, 123_456_789] {
            let event = TraceEvent(time: 0, .hitch(micros: micros, start: 0))
            let written = try #require(try decode(event.jsonLine)["ms"] as? NSNumber).doubleValue
            #expect(abs(written * 1000 - Double(TraceEvent.asWritten(micros))) < 0.01, "\(micros) µs")
            #expect(
                abs(TraceEvent.asWritten(micros) - micros) <= 50,
                "\(micros) µs rounds to the nearest 100 µs")
        }
    }

    @Test("`jsonLines` ends every line with a newline, and writes nothing for no events")
    func jsonLinesEndEveryLine() {
        #expect(TraceEvent.jsonLines([]) == "")
        let events = [TraceEvent(time: 1, .relaunch), TraceEvent(time: 2, .memoryWarning)]
        let text = TraceEvent.jsonLines(events)
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == 3)
        #expect(text.hasSuffix("\n"))
    }

}
