/// Repeated measurements of one figure, summarised as median, minimum and maximum.
struct Samples: Sendable {
    /// The measured values, in the order taken.
    var values: [Double] = []

    /// The middle value (the mean of the two middle ones for an even count); 0 when empty.
    var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The smallest value; 0 when empty.
    var minimum: Double { values.min() ?? 0 }

    /// The largest value; 0 when empty.
    var maximum: Double { values.max() ?? 0 }

    /// Each value mapped, for example seconds turned into a throughput.
    func map(_ transform: (Double) -> Double) -> Samples {
        Samples(values: values.map(transform))
    }
}
