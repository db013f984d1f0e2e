/// One metric's value, with the unit that decides how it prints.
package enum MetricValue: Sendable, Equatable {
    /// A whole number.
    case count(Int)
    /// A duration kept in microseconds, printed in milliseconds with one decimal.
    case milliseconds(Int64)
    /// A duration kept in microseconds, printed in seconds with one decimal.
    case seconds(Int64)
    /// A ratio printed with one decimal.
    case ratio(Double)

    /// The value as printed in reports and JSON: integers plain, others with one decimal.
    package var formatted: String {
        switch self {
        case .count(let value): return String(value)
        case .milliseconds(let micros): return Self.oneDecimal(micros, per: 1000)
        case .seconds(let micros): return Self.oneDecimal(micros, per: 1_000_000)
        case .ratio(let value):
            let tenths = value.isFinite && abs(value) < 1e15 ? Int64((value * 10).rounded()) : 0
            return Self.oneDecimal(tenths, per: 10, alreadyTenths: true)
        }
    }

    /// The value as a number (milliseconds, seconds or the count).
    package var number: Double {
        switch self {
        case .count(let value): return Double(value)
        case .milliseconds(let micros): return Double(micros) / 1000
        case .seconds(let micros): return Double(micros) / 1_000_000
        case .ratio(let value): return value
        }
    }

    private static func oneDecimal(_ value: Int64, per unit: Int64, alreadyTenths: Bool = false) -> String {
        // Round half away from zero to tenths using integers only, so output never depends on float printing.
        let tenths: Int64
        if alreadyTenths {
            tenths = value
        } else {
            let scaled = value * 10
            tenths = (scaled + (scaled >= 0 ? unit / 2 : -unit / 2)) / unit
        }
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}
