/// The phone clock's moments and durations, in whole microseconds.
extension PhoneClock {
    /// A moment on the clock, in microseconds since it started (virtual time, on the simulated phone).
    public struct Instant: InstantProtocol {
        public var microseconds: Int64

        public init(microseconds: Int64) { self.microseconds = microseconds }

        public func advanced(by duration: Duration) -> Instant {
            Instant(microseconds: microseconds + PhoneClock.microseconds(duration))
        }

        public func duration(to other: Instant) -> Duration {
            .microseconds(other.microseconds - microseconds)
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.microseconds < rhs.microseconds }
    }

    /// Whole microseconds in a duration (rounded down).
    static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
