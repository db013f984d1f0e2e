import Foundation

/// Writes measured figures as tab-separated lines, the format `Benchmarks/run` collects and `report` reads.
///
/// One line per figure: key, unit, median, minimum, maximum, and a free-form note. The key names the same
/// figure on the Swift side and on the reference side, so the report can put them next to each other.
enum FigureWriter {
    /// Prints one figure line to standard output.
    static func emit(_ key: String, unit: String, _ samples: Samples, note: String = "") {
        emit(
            key, unit: unit, median: samples.median, minimum: samples.minimum, maximum: samples.maximum,
            note: note)
    }

    /// Prints one figure line with explicit values (a single measurement has all three equal).
    static func emit(
        _ key: String, unit: String, median: Double, minimum: Double, maximum: Double, note: String = ""
    ) {
        let fields = [key, unit, format(median), format(minimum), format(maximum), note]
        print(fields.joined(separator: "\t"))
    }

    /// A number for the figures file: an integer as it is, anything else to six significant digits.
    static func format(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
        return String(format: "%.6g", value)
    }

    /// A number for people, with as many decimals as `scale` (the figure's median) calls for: none from
    /// 1,000, one from 100, two from 1, three significant digits below 1.
    static func display(_ value: Double, scale: Double? = nil) -> String {
        let magnitude = abs(scale ?? value)
        if value == value.rounded() && (scale == nil || magnitude >= 1000) && abs(value) < 1e15 {
            return String(Int(value))
        }
        let decimals: Int
        if magnitude >= 1000 {
            decimals = 0
        } else if magnitude >= 100 {
            decimals = 1
        } else if magnitude >= 1 {
            decimals = 2
        } else if magnitude > 0 {
            decimals = 2 - Int(log10(magnitude).rounded(.down))
        } else {
            decimals = 3
        }
        return String(format: "%.\(decimals)f", value)
    }
}
