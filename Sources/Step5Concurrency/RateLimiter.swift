import Shared

/// A token bucket on download starts, as Nuke's `RateLimiter`: a start takes a token, tokens come back
/// at a steady rate up to a burst. While the user scrolls, a row that comes on screen may start its
/// download if a token is left: a slow drag fills rows as they appear, and a fling spends the few it
/// has and leaves the rest to the stop.
struct RateLimiter {
    /// Tokens given back per second.
    let rate: Int64
    /// The most tokens the bucket holds, and what it starts with.
    let burst: Int64
    /// Tokens in the bucket, in millionths of a token (a token comes back every `1 / rate` second).
    private var millionths: Int64
    private var refilledAt: Int64 = 0

    init(rate: Int64, burst: Int64) {
        self.rate = max(1, rate)
        self.burst = max(1, burst)
        millionths = self.burst * 1_000_000
    }

    /// Takes a token at `now` (in microseconds of virtual time) if there is one.
    mutating func take(at now: Int64) -> Bool {
        refill(to: now)
        guard millionths >= 1_000_000 else { return false }
        millionths -= 1_000_000
        return true
    }

    /// How long until the next token is in the bucket, in microseconds (0 when one is there now).
    mutating func wait(at now: Int64) -> Int64 {
        refill(to: now)
        let missing = 1_000_000 - millionths
        return missing <= 0 ? 0 : (missing + rate - 1) / rate
    }

    private mutating func refill(to now: Int64) {
        guard now > refilledAt else { return }
        millionths = min(burst * 1_000_000, millionths + (now - refilledAt) * rate)
        refilledAt = now
    }
}
