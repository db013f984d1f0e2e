/// Apple's bands for the hitch time ratio (Xcode Organizer), in ms of hitches per second of scrolling.
package enum HitchBand: String, Sendable {
    /// At most 5 ms/s: WWDC20's target, nothing a user notices.
    case target = "target (≤ 5)"
    /// At most 10 ms/s.
    case good = "good (≤ 10)"
    /// At most 25 ms/s.
    case warning = "warning (≤ 25)"
    /// At most 50 ms/s.
    case critical = "critical (≤ 50)"
    /// Above 50 ms/s.
    case immediateAttention = "needs immediate attention (> 50)"

    /// The band a ratio falls in.
    package init(ratio: Double) {
        switch ratio {
        case ...5: self = .target
        case ...10: self = .good
        case ...25: self = .warning
        case ...50: self = .critical
        default: self = .immediateAttention
        }
    }
}
