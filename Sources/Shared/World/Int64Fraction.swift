/// A period that is a fraction of microseconds (1/60 s is 16666⅔ µs), so vsync times never drift.
struct Int64Fraction {
    /// Microseconds per `denominator` periods.
    let numerator: Int64
    /// Periods per `numerator` microseconds.
    let denominator: Int64

    /// The first period boundary at or after a time.
    func atOrAfter(_ time: Int64) -> Int64 {
        let index = (time * denominator + numerator - 1) / numerator
        return index * numerator / denominator
    }

    /// The boundary `frames` periods after a boundary.
    func add(_ boundary: Int64, frames: Int64) -> Int64 {
        let index = (boundary * denominator + numerator - 1) / numerator
        return (index + frames) * numerator / denominator
    }
}
