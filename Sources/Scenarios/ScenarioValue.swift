/// Reads the values inside scenario lines: whole numbers, durations, percentages and bandwidths.
///
/// Every reader returns nil for text that does not have the expected shape, including values too large to
/// represent; none of them uses floating point, so no value can trap on conversion.
package enum ScenarioValue {
    /// The largest number of decimal digits read before giving up (keeps every step within `UInt64`).
    private static let maximumDigits = 19

    /// A whole number written with ASCII digits only (no sign, no separators).
    package static func wholeNumber(_ text: Substring) -> UInt64? {
        guard !text.isEmpty, text.utf8.count <= maximumDigits + 1 else { return nil }
        var value: UInt64 = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflowA, !overflowB else { return nil }
            value = sum
        }
        return value
    }

    /// A whole number that fits in `Int`, as a convenience for counts and rows.
    package static func wholeInt(_ text: Substring) -> Int? {
        guard let value = wholeNumber(text), value <= UInt64(Int.max) else { return nil }
        return Int(value)
    }

    /// A decimal number such as `12` or `1.25`, returned as an integer scaled by `10^fractionDigits`.
    ///
    /// Returns nil when the text has more fraction digits than `fractionDigits`, is not digits with at most
    /// one point (with digits on both sides), or overflows.
    static func fixedPoint(_ text: Substring, fractionDigits: Int) -> UInt64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let wholeText = parts.first, let whole = wholeNumber(wholeText) else { return nil }
        var fraction: UInt64 = 0
        var digitsUsed = 0
        if parts.count == 2 {
            let fractionText = parts[1]
            guard !fractionText.isEmpty, fractionText.utf8.count <= fractionDigits,
                let parsed = wholeNumber(fractionText)
            else { return nil }
            fraction = parsed
            digitsUsed = fractionText.utf8.count
        }
        var scale: UInt64 = 1
        for _ in 0..<fractionDigits { scale *= 10 }
        var fractionScale: UInt64 = 1
        for _ in 0..<(fractionDigits - digitsUsed) { fractionScale *= 10 }
        let (scaledWhole, overflowA) = whole.multipliedReportingOverflow(by: scale)
        let (total, overflowB) = scaledWhole.addingReportingOverflow(fraction * fractionScale)
        guard !overflowA, !overflowB else { return nil }
        return total
    }

    /// A duration such as `2s`, `1.5s`, `250ms` or `500us`, in microseconds.
    ///
    /// Seconds take up to six decimals, milliseconds up to three, microseconds none.
    static func durationMicroseconds(_ text: String) -> Int64? {
        withUnit(text, units: [("us", 0), ("ms", 3), ("s", 6)])
    }

    /// A percentage with at most one decimal (`2%`, `0.5%`), in per mille (`20`, `5`).
    static func percentPerMille(_ text: String) -> Int? {
        guard text.hasSuffix("%"),
            let value = fixedPoint(text.dropLast(), fractionDigits: 1),
            value <= UInt64(Int.max)
        else { return nil }
        return Int(value)
    }

    /// A bandwidth such as `1000KB/s`, `1.5MB/s` or `800B/s`, in bytes per second (KB = 1000 bytes).
    ///
    /// Decimals are allowed down to one byte: three for KB/s, six for MB/s, none for B/s.
    static func bandwidthBytesPerSecond(_ text: String) -> Int64? {
        // The longer units come first: "KB/s" also ends in "B/s".
        withUnit(text, units: [("KB/s", 3), ("MB/s", 6), ("B/s", 0)])
    }

    /// A number followed by the first unit it ends with, scaled to that unit's smallest step (its
    /// `fractionDigits` decimals); nil when no unit matches or the number does not fit.
    private static func withUnit(_ text: String, units: [(suffix: String, fractionDigits: Int)]) -> Int64? {
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count)
            guard let value = fixedPoint(number, fractionDigits: unit.fractionDigits),
                value <= UInt64(Int64.max)
            else { return nil }
            return Int64(value)
        }
        return nil
    }

    /// Formats microseconds the way scenario files write them: `2s`, `1.5s`, `250ms`, `500us`.
    static func formatDuration(_ microseconds: Int64) -> String {
        if microseconds % 1000 != 0 { return "\(microseconds)us" }
        let milliseconds = microseconds / 1000
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        var fraction = String(milliseconds % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(milliseconds / 1000).\(fraction)s"
    }
}
