/// A scripted session on the simulated phone: the catalog size, the network and screen, and the user's gestures.
///
/// Read from the scenario text format (see `ScenarioParser`); built-in scenarios ship as resources.
public struct Scenario: Sendable, Equatable {
    /// The scenario's name: a built-in's name, or the file name without its extension.
    public var name: String
    /// Where it was read from (a built-in's resource name or the file path), for messages.
    public var source: String
    /// Catalog rows used; the catalog repeats with new titles past its end.
    public var rows: Int = 200
    /// The seed given in the file, if any; `--seed` overrides it.
    public var seed: UInt64?
    /// The simulated network.
    public var network = NetworkSettings()
    /// The simulated screen.
    public var screen = ScreenSettings()
    /// Faults the server injects.
    public var faults = FaultSettings()
    /// Writes the disk accepts before it is full and fails every further write (`disk full-after=N`);
    /// nil for a disk that never fills.
    public var diskFullAfterWrites: Int?
    /// The user's actions, in order.
    public var actions: [ScenarioAction] = []

    /// Makes an empty scenario with default settings.
    public init(name: String, source: String) {
        self.name = name
        self.source = source
    }
}
