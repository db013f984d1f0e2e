import Foundation
import Testing

/// The live steps on a scenario whose every other request is faulty, as their own processes. The
/// server's log, read from the report, is checked against the fault draws computed here from the
/// workbook's definition of them (SplitMix64 seeded with the seed, the URL's FNV-1a hash and the attempt),
/// not from the code that serves them.
@Suite(.serialized)
struct LiveFaultTests {
    static let scenario = """
        rows 40
        seed 3
        network rtt=80ms jitter=20ms bandwidth=3000KB/s connections=6 timeout=1s
        faults timeout=10% refused=10% server-error=10% truncated=10% corrupt=10%
        screen height=667 row=88 refresh=60
        wait 0.5s
        fling to row 20
        wait 0.8s
        fling to row 0
        wait 2.5s
        """

    /// The scenario's seed and shares, per mille, in the draw's order.
    static let seed: UInt64 = 3
    static let shares = [
        ("timeout", 100), ("refused", 100), ("server-error", 100), ("truncated", 100), ("corrupt", 100),
    ]

    @Test(
        "Live, step 2's requests fail exactly where the draw puts a fault, and the run ends with every row final"
    )
    func stepTwoFailsWhereTheDrawSays() throws {
        try checkFaults("Step2Background", givesUpFirst: false)
    }

    @Test(
        "Live, step 4's requests fail exactly where the draw puts a fault, and the run ends with every row final"
    )
    func stepFourFailsWhereTheDrawSays() throws {
        try checkFaults("Step4CacheAndPrefetch", givesUpFirst: true)
    }

    /// Every request times out, and a fling takes the first screen away long before the timeout: step 4
    /// cancels those rows' downloads, which the simulator counts as cancelled, not failed.
    static let heldThenFlownPast = """
        rows 40
        seed 3
        network rtt=50ms jitter=0ms bandwidth=3000KB/s connections=6 timeout=3s
        faults timeout=100%
        wait 0.5s
        fling to row 30
        wait 4s
        """

    @Test(
        "Live, a held request the app cancels before the timeout counts as cancelled, and one it gives up on as failed"
    )
    func cancelledHeldRequestsAreCancelled() throws {
        let run = try LiveStepRun(step: "Step4CacheAndPrefetch", scenario: Self.heldThenFlownPast)
        #expect(try run.number("requests_cancelled") >= 1, "\(run.text)")
        #expect(try run.number("requests_failed") >= 1, "\(run.text)")
        #expect(
            try run.number("requests_cancelled") + run.number("requests_failed") == run.serverRequests,
            "\(run.text)")
    }

    /// Every request times out, and nothing scrolls, so no step cancels one.
    static let everyRequestHeld = """
        rows 10
        seed 3
        network rtt=50ms jitter=0ms bandwidth=3000KB/s connections=6 timeout=1s
        faults timeout=100%
        wait 2.5s
        """

    @Test(
        "Live, URLSession gives up on a request that times out at the scenario's timeout, before the server closes it, and Data(contentsOf:) waits for the server"
    )
    func timedOutRequestsEndOnTheSideThatGivesUpFirst() throws {
        for (step, outcome) in [
            ("Step4CacheAndPrefetch", "abandoned"), ("Step5Concurrency", "abandoned"),
            ("Step2Background", "held_unanswered"),
        ] {
            let run = try LiveStepRun(step: step, scenario: Self.everyRequestHeld)
            let outcomes = try run.serverLog.map(\.outcome)
            #expect(!outcomes.isEmpty, "\(step):\n\(run.text)")
            #expect(outcomes.allSatisfy { $0 == outcome }, "\(step): \(outcomes)")
        }
    }

    /// Plays the faulty scenario with `step` and checks each request the server logged against its draw.
    /// A request that times out is held by the server for the scenario's timeout and half a second more:
    /// a client with the scenario's timeout (URLSession, `givesUpFirst`) closes it first, while
    /// `Data(contentsOf:)`, which has no timeout to set, waits for the server to close it.
    private func checkFaults(_ step: String, givesUpFirst: Bool) throws {
        let run = try LiveStepRun(step: step, scenario: Self.scenario)
        let log = try run.serverLog
        #expect(try run.number("requests_started") == Double(log.count), "\(run.text)")
        #expect(try run.live("visible_rows_final_at_end") as? Bool == true, "\(run.text)")
        var seen: Set<String> = []
        for entry in log where entry.outcome != "cancelled" {
            let drawn = Self.fault(url: entry.url, attempt: entry.attempt)
            #expect(entry.fault == drawn, "the report's own draw for \(entry.url) #\(entry.attempt)")
            seen.insert(drawn ?? "none")
            let answered: String
            switch (entry.outcome, entry.status) {
            case (givesUpFirst ? "abandoned" : "held_unanswered", 0): answered = "timeout"
            case ("closed_unanswered", 0): answered = "refused"
            case ("completed", 500): answered = "server-error"
            case ("truncated", _): answered = "truncated"
            case ("completed", 200), ("completed", 404): answered = drawn == "corrupt" ? "corrupt" : "none"
            default: answered = "\(entry.outcome) \(entry.status)"
            }
            #expect(answered == drawn ?? "none", "\(entry.url) attempt \(entry.attempt):\n\(run.text)")
        }
        // A retry is a request for a URL whose previous request failed at the network: a fault other
        // than a corrupt body (which arrives whole), or an error status; a cancel is no failure.
        var retries = 0
        var lastFailed: Set<String> = []
        for entry in log {
            if lastFailed.contains(entry.url) { retries += 1 }
            let drawn = Self.fault(url: entry.url, attempt: entry.attempt)
            let failed =
                entry.outcome == "cancelled"
                ? entry.status >= 400 : (drawn != nil && drawn != "corrupt") || entry.status >= 400
            if failed { lastFailed.insert(entry.url) } else { lastFailed.remove(entry.url) }
        }
        #expect(try run.number("retries") == Double(retries), "\(run.text)")
        // Not vacuous: every kind of fault, and whole answers, were met.
        #expect(
            seen == ["none", "timeout", "refused", "server-error", "truncated", "corrupt"], "\(run.text)")
        // A row on screen at the end shows its poster when the last answer for its URL was whole and sound,
        // and the failure image when it was a fault (a corrupt body fails its CRC when decoded).
        for row in try run.finalScreen {
            guard let url = row.url, let last = log.last(where: { $0.url == url }),
                last.outcome != "cancelled"
            else { continue }
            let whole = Self.fault(url: url, attempt: last.attempt) == nil && last.status == 200
            #expect(row.shows == (whole ? "image" : "failed"), "row \(row.row), \(url):\n\(run.text)")
        }
    }

    /// The fault drawn for a URL's attempt (nil for none): one draw in 0..<1000 falls into the shares in
    /// order.
    static func fault(url: String, attempt: Int) -> String? {
        var generator = SplitMix64(state: ((seed ^ fnv1a(url)) &+ UInt64(attempt)) ^ fnv1a("faults"))
        var draw = Int(generator.next() % 1000)
        for (name, share) in shares {
            if draw < share { return name }
            draw -= share
        }
        return nil
    }

    /// The 64-bit FNV-1a hash of a string's UTF-8 bytes.
    static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }

    /// SplitMix64: the counter stepped by the golden ratio, each value scrambled.
    struct SplitMix64 {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}

extension LiveStepRun {
    /// One request in the server's log, as the report gives it.
    struct LoggedRequest {
        let url: String
        let attempt: Int
        let status: Int
        let outcome: String
        let fault: String?
    }

    /// The server's log, in the order requests arrived.
    var serverLog: [LoggedRequest] {
        get throws {
            guard let entries = report["server_log"] as? [[String: Any]] else {
                throw Failure(description: "no server log in the report:\n\(text)")
            }
            return try entries.map { entry in
                guard let url = entry["url"] as? String,
                    let attempt = (entry["attempt"] as? NSNumber)?.intValue,
                    let status = (entry["status"] as? NSNumber)?.intValue,
                    let outcome = entry["outcome"] as? String
                else { throw Failure(description: "a server log entry without its fields:\n\(text)") }
                return LoggedRequest(
                    url: url, attempt: attempt, status: status, outcome: outcome,
                    fault: entry["fault"] as? String)
            }
        }
    }
}
