/// A write exercise's runs beside the same runs of the code as shipped, recorded at start: after the named
/// expectations, the student's code must do no more of any costly thing than the reference solution does
/// (within a tolerance that equivalent code meets: the simulator is deterministic, so code that does the
/// same work prints the same figures) and end every run on the same pictures.
enum ReferenceComparison {
    /// A figure compared, in the words a student recognises, and how much more than the reference's is
    /// still the same work.
    struct Figure: Sendable {
        let key: String
        /// What the figure counts (“requests started”).
        let counts: String
        /// The part of the reference's figure allowed on top of it.
        let share: Double
        /// The amount allowed on top of it whatever the reference's figure.
        let slack: Double
    }

    /// The figures compared, most telling first: a count of work, then waste, then what the user saw.
    static let figures: [Figure] = [
        Figure(key: "requests_started", counts: "requests started", share: 0.05, slack: 1),
        Figure(key: "requests_failed", counts: "failed requests", share: 0.05, slack: 1),
        Figure(key: "duplicate_downloads", counts: "duplicate downloads", share: 0.05, slack: 1),
        Figure(key: "decodes", counts: "decodes", share: 0.05, slack: 1),
        Figure(key: "filters", counts: "sepia filters", share: 0.05, slack: 1),
        Figure(key: "bytes_wasted", counts: "bytes downloaded and never shown", share: 0.10, slack: 20_000),
        Figure(key: "wrong_image_events", counts: "wrong pictures shown", share: 0, slack: 0),
        Figure(key: "late_completions", counts: "late completions", share: 0, slack: 0),
        Figure(key: "stops_unfilled", counts: "stops left before every row filled", share: 0.05, slack: 1),
        Figure(key: "placeholder_row_seconds", counts: "row-seconds of placeholder", share: 0.10, slack: 0.5),
        Figure(key: "time_to_visible_ms_p95", counts: "ms to fill a stop (p95)", share: 0.25, slack: 50),
        Figure(key: "main_thread_busy_ms", counts: "ms of main-thread work", share: 0.25, slack: 20),
        Figure(key: "hitch_time_ms", counts: "ms of hitches", share: 0.25, slack: 20),
    ]

    /// The first way a write exercise's runs do more than, or end otherwise than, the code as shipped, in
    /// words; nil when they match (or the exercise is not a write exercise, or no run was recorded).
    static func firstDifference(
        of exercise: Exercise, runs: [String: RunReport], baselines: [String: RunReport]
    ) -> String? {
        guard case .write = exercise.kind else { return nil }
        for spec in exercise.runs where spec.step == .this {
            guard let mine = runs[spec.label], let shipped = baselines[spec.label] else { continue }
            if let screen = Judge.screenDifference(mine, shipped) {
                return "compared with the code as shipped on \(spec.label): \(screen)"
            }
            for figure in figures {
                guard let reference = shipped.metrics[figure.key], let seen = mine.metrics[figure.key] else {
                    continue
                }
                if seen > reference + reference * figure.share + figure.slack {
                    return "compared with the code as shipped on \(spec.label): your code makes "
                        + "\(Judge.format(seen)) \(figure.counts) where the code as shipped makes "
                        + "\(Judge.format(reference)) (\(figure.key))"
                }
            }
        }
        return nil
    }
}
