import Foundation

/// Everything one run measured and saw.
package struct RunResult: Sendable {
    /// The step's executable name.
    package let step: String
    /// The scenario's name.
    package let scenario: String
    package let seed: UInt64
    /// How long the run lasted in virtual microseconds (script plus settling).
    package let virtualMicroseconds: Int64
    package let metrics: Metrics
    /// The least work any strategy needs for this scenario.
    package let oracle: Oracle
    /// The best any client could do on this scenario (and, for the memory cache, on this step's lookups).
    package let limit: Limit
    /// The visible rows once the app settled after the script.
    package let finalScreen: ScreenSnapshot
    /// The screen at each scroll stop: when it filled, or when it was left unfilled (when kept).
    package let stops: [ScreenSnapshot]
    /// The trace events, in time order (empty when not kept).
    package let trace: [TraceEvent]
    /// What the user must be told beyond the numbers (`Recorder.notices`), one line each.
    package let notices: [String]

    package init(
        step: String, scenario: String, seed: UInt64, virtualMicroseconds: Int64, metrics: Metrics,
        oracle: Oracle, limit: Limit = Limit(), finalScreen: ScreenSnapshot, stops: [ScreenSnapshot],
        trace: [TraceEvent],
        notices: [String] = []
    ) {
        self.notices = notices
        self.step = step
        self.scenario = scenario
        self.seed = seed
        self.virtualMicroseconds = virtualMicroseconds
        self.metrics = metrics
        self.oracle = oracle
        self.limit = limit
        self.finalScreen = finalScreen
        self.stops = stops
        self.trace = trace
    }
}

/// The least network work any strategy needs for a scenario: each distinct poster of the rows visible
/// while the table is at rest, fetched once per disk lifetime (the whole run).
package struct Oracle: Sendable, Equatable {
    /// Distinct URLs to request (invalid URLs need none).
    package let requests: Int
    /// Their body bytes, as the server sends them.
    package let bytes: Int

    package init(requests: Int, bytes: Int) {
        self.requests = requests
        self.bytes = bytes
    }
}
