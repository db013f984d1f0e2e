/// What a run of a step said, as far as the exercises look: its metrics, oracle, final screen and events.
struct RunReport: Codable, Sendable {
    var metrics: [String: Double]
    /// The oracle's `requests` and `bytes`.
    var oracle: [String: Double]
    /// What each row of the final screen shows: `image`, `placeholder` or `failed`.
    var finalShows: [String]
    /// The pixel hash of each row's picture on the final screen (empty for a placeholder).
    var finalHashes: [String] = []
    /// The trace, when the run was traced (not kept in recorded baselines).
    var events: [TraceLine] = []

    enum CodingKeys: String, CodingKey {
        case metrics, oracle, finalShows, finalHashes
    }

    init(
        metrics: [String: Double], oracle: [String: Double], finalShows: [String], finalHashes: [String] = []
    ) {
        self.metrics = metrics
        self.oracle = oracle
        self.finalShows = finalShows
        self.finalHashes = finalHashes
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        metrics = try container.decode([String: Double].self, forKey: .metrics)
        oracle = try container.decode([String: Double].self, forKey: .oracle)
        finalShows = try container.decode([String].self, forKey: .finalShows)
        finalHashes = try container.decodeIfPresent([String].self, forKey: .finalHashes) ?? []
    }
}

/// One trace event: its name and its fields, each as the JSON text of its value (strings unquoted).
struct TraceLine: Sendable {
    let name: String
    let fields: [String: String]
}

/// Decides whether an exercise's runs show what the exercise promises.
enum Judge {
    /// The first expectation that does not hold, in words (with the numbers seen); nil when all hold.
    static func firstFailure(
        of exercise: Exercise, runs: [String: RunReport], baselines: [String: RunReport]
    ) -> String? {
        if checksMainThread.contains(exercise.step) {
            for spec in exercise.runs where spec.step == .this {
                if let run = runs[spec.label], let violation = mainThreadViolation(in: run) {
                    return
                        "the main thread checker saw \(violation) on \(spec.label): the table (reloadRows, "
                        + "cellForRow, …) and the in-progress maps may be used only from the main thread: hop "
                        + "there with OperationQueue.main.addOperation"
                }
            }
        }
        for spec in exercise.runs where spec.step == .this && spec.traced {
            if let run = runs[spec.label], let left = operationsLeft(in: run) {
                return "at the end of \(spec.label), \(left)"
            }
        }
        for expectation in exercise.expectations {
            if let failure = check(expectation, runs: runs, baselines: baselines) { return failure }
        }
        return nil
    }

    /// An end-of-run invariant, in words: a traced run that finished its work left nothing in the app's
    /// queues (the simulator traces what a run cut at its time limit left); nil when nothing was left.
    static func operationsLeft(in run: RunReport) -> String? {
        let left = run.events.filter { $0.name == "operation_left" }
        guard let first = left.first else { return nil }
        let operation = first.fields["operation"] ?? "?"
        let said = "\(left.count) operation(s) were left in the app's queues (first: \(operation), "
        if first.fields["state"] == "suspended" {
            return said + "on a suspended queue): a queue suspended while the table scrolls must be "
                + "resumed when it stops, or its work never runs"
        }
        return said + "\(first.fields["state"] ?? "?")): the work a step queues must end"
    }

    /// The steps whose exercises require no call to the table off the main thread (chapters 2 to 4: the
    /// steps that move work off it, whose articles keep the table's work there).
    static let checksMainThread = 2...4

    /// The main thread checker's finding in a run, in words (the first call's method and thread when the
    /// run was traced); nil when it found nothing.
    static func mainThreadViolation(in run: RunReport) -> String? {
        let count = run.metrics["main_thread_checker_violations"] ?? 0
        guard count > 0 else { return nil }
        let calls = "\(format(count)) call(s) off the main thread"
        guard let first = run.events.first(where: { $0.name == "main_thread_violation" }) else {
            return calls
        }
        return calls + " (first: \(first.fields["method"] ?? "?") on \(first.fields["thread"] ?? "?"))"
    }

    /// Nil when the expectation holds, else what went wrong.
    static func check(_ expectation: Expectation, runs: [String: RunReport], baselines: [String: RunReport])
        -> String?
    {
        if let (invariant, label) = expectation.invariant {
            guard let run = runs[label] else { return "internal: no run \(label)" }
            if case .finalScreenAsShipped = invariant {
                guard let shipped = baselines[label] else { return "internal: no recorded run \(label)" }
                return screenDifference(run, shipped).map { "\(expectation.says) (\($0))" }
            }
            return violation(of: invariant, in: run).map { "\(expectation.says) (\($0))" }
        }
        guard let left = value(expectation.left, runs: runs, baselines: baselines),
            let rightValue = value(expectation.right, runs: runs, baselines: baselines)
        else { return "\(expectation.says) (a metric is missing from the report)" }
        let right = rightValue * expectation.factor
        let holds: Bool
        switch expectation.relation {
        case .above: holds = left > right
        case .below: holds = left < right
        case .atLeast: holds = left >= right
        case .atMost: holds = left <= right
        case .equal: holds = left == right
        }
        if holds { return nil }
        return "\(expectation.says) (saw \(describe(expectation.left)) = \(format(left)), "
            + "expected \(expectation.relation.rawValue) \(format(right)))"
    }

    static func value(_ quantity: Quantity, runs: [String: RunReport], baselines: [String: RunReport])
        -> Double?
    {
        switch quantity {
        case .metric(let key, let label): return runs[label]?.metrics[key]
        case .baseline(let key, let label): return baselines[label]?.metrics[key]
        case .oracle(let key, let label): return runs[label]?.oracle[key]
        case .number(let number): return number
        }
    }

    static func describe(_ quantity: Quantity) -> String {
        switch quantity {
        case .metric(let key, let label): return "\(key) on \(label)"
        case .baseline(let key, let label): return "\(key) on \(label) as shipped"
        case .oracle(let key, let label): return "oracle \(key) on \(label)"
        case .number(let number): return format(number)
        }
    }

    static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// What breaks an invariant in a run, or nil when it holds.
    static func violation(of invariant: Expectation.Invariant, in run: RunReport) -> String? {
        switch invariant {
        case .screenFilled:
            let waiting = run.finalShows.filter { $0 == "placeholder" }.count
            return waiting == 0 ? nil : "\(waiting) row(s) of the final screen still show the placeholder"
        case .noWrongImage:
            let wrong = run.metrics["wrong_image_events"] ?? 0
            return wrong == 0 ? nil : "\(format(wrong)) wrong image(s)"
        case .noRequestWhileScrolling:
            var scrolling = false
            for event in run.events {
                if event.name == "scroll_state" { scrolling = event.fields["state"] != "idle" }
                if event.name == "request_start" && scrolling {
                    return "a request for \(event.fields["url"] ?? "?") started while the table was scrolling"
                }
            }
            return nil
        case .noOperationStartWhileScrolling:
            var scrolling = false
            for event in run.events {
                if event.name == "scroll_state" { scrolling = event.fields["state"] != "idle" }
                if event.name == "operation_start" && scrolling && event.fields["thread"] != "main" {
                    return
                        "an \(event.fields["operation"] ?? "operation") started on \(event.fields["thread"] ?? "?") "
                        + "while the table was scrolling"
                }
            }
            return nil
        case .noCancelAsHandedOut:
            guard let race = run.events.first(where: { $0.name == "operation_cancel_race" }) else {
                return nil
            }
            return "an \(race.fields["operation"] ?? "operation") was handed to a worker and cancelled on "
                + "\(race.fields["thread"] ?? "?") in the same turn: on real threads it may already be running"
        case .noRequestOnMainThread:
            let onMain = run.events.filter { $0.name == "request_start" && $0.fields["thread"] == "main" }
            return onMain.isEmpty ? nil : "\(onMain.count) request(s) started on the main thread"
        case .noDecodeOnMainThread:
            let onMain = run.events.filter { $0.name == "decode" && $0.fields["thread"] == "main" }
            return onMain.isEmpty ? nil : "\(onMain.count) decode(s) ran on the main thread"
        case .noDecodeAfterCancel:
            return decodeAfterCancel(in: run.events)
        case .finalScreenAsShipped:
            return nil
        }
    }

    /// The first row whose final picture differs between a run and the same run of the code as shipped.
    static func screenDifference(_ run: RunReport, _ shipped: RunReport) -> String? {
        for row in 0..<max(run.finalShows.count, shipped.finalShows.count) {
            let mine = row < run.finalShows.count ? run.finalShows[row] : "nothing"
            let theirs = row < shipped.finalShows.count ? shipped.finalShows[row] : "nothing"
            let myHash = row < run.finalHashes.count ? run.finalHashes[row] : ""
            let theirHash = row < shipped.finalHashes.count ? shipped.finalHashes[row] : ""
            if mine != theirs {
                return "final screen row \(row + 1) shows \(mine) where the code as shipped shows \(theirs)"
            }
            if myHash != theirHash {
                return "final screen row \(row + 1) shows another picture (\(mine)) than the code as shipped"
            }
        }
        return nil
    }

    /// Replays each worker thread: inside an `ImageDownloader` that ends cancelled, a request followed by a
    /// decode means the downloader did not look at `isCancelled` after its download.
    static func decodeAfterCancel(in events: [TraceLine]) -> String? {
        struct Running {
            var requested = false
            var decoded = false
        }
        var running: [String: Running] = [:]
        var cancelledMidDownload = 0
        for event in events {
            guard let thread = event.fields["thread"] else { continue }
            switch event.name {
            case "operation_start" where event.fields["operation"] == "ImageDownloader":
                running[thread] = Running()
            case "request_start": running[thread]?.requested = true
            case "decode": running[thread]?.decoded = true
            case "operation_end" where event.fields["operation"] == "ImageDownloader":
                if let finished = running.removeValue(forKey: thread), event.fields["cancelled"] == "true",
                    finished.requested
                {
                    if finished.decoded {
                        return "a download cancelled while under way was decoded anyway"
                    }
                    cancelledMidDownload += 1
                }
            default: break
            }
        }
        return cancelledMidDownload > 0 ? nil : "no download was cancelled while under way in this run"
    }
}
