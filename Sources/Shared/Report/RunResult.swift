/// Everything one run measured and saw.
public struct RunResult: Sendable {
    /// The step's executable name.
    public let step: String
    /// The scenario's name.
    public let scenario: String
    public let seed: UInt64
    /// How long the run lasted in virtual microseconds (script plus settling).
    public let virtualMicroseconds: Int64
    public let metrics: Metrics
    /// The least work any strategy needs for this scenario.
    public let oracle: Oracle
    /// The visible rows once the app settled after the script.
    public let finalScreen: ScreenSnapshot
    /// The screen at each scroll stop: when it filled, or when it was left unfilled (when kept).
    public let stops: [ScreenSnapshot]
    /// The trace events, in time order (empty when not kept).
    public let trace: [TraceEvent]

    package init(
        step: String, scenario: String, seed: UInt64, virtualMicroseconds: Int64, metrics: Metrics,
        oracle: Oracle, finalScreen: ScreenSnapshot, stops: [ScreenSnapshot], trace: [TraceEvent]
    ) {
        self.step = step
        self.scenario = scenario
        self.seed = seed
        self.virtualMicroseconds = virtualMicroseconds
        self.metrics = metrics
        self.oracle = oracle
        self.finalScreen = finalScreen
        self.stops = stops
        self.trace = trace
    }
}
