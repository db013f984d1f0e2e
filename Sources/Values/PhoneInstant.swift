/// A moment on the phone's clock (`PhoneClock.Instant`), in microseconds since the clock started: virtual
/// time on the simulated phone, wall-clock time live.
public struct PhoneInstant: InstantProtocol {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    public func advanced(by duration: Duration) -> PhoneInstant {
        PhoneInstant(microseconds: microseconds + Self.microseconds(duration))
    }

    public func duration(to other: PhoneInstant) -> Duration {
        .microseconds(other.microseconds - microseconds)
    }

    public static func < (lhs: PhoneInstant, rhs: PhoneInstant) -> Bool {
        lhs.microseconds < rhs.microseconds
    }

    /// Whole microseconds in a duration (rounded down).
    package static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
