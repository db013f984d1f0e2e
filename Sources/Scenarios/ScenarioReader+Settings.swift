/// What a scenario may say and how much: the `key=value` settings, each key with how its value is read and
/// where it is stored, and the bounds that keep any scenario's run to seconds.
extension ScenarioReader {
    /// How a `key=value` word's value is read; each is stored as a whole number (microseconds, bytes per
    /// second, per mille, or itself).
    enum ValueKind: Sendable {
        /// A duration (`120ms`), zero allowed or not, at most `maximum` microseconds.
        case duration(allowsZero: Bool, maximum: Int64)
        /// A bandwidth (`1000KB/s`), in bytes per second.
        case bandwidth
        /// A whole number within a range.
        case wholeNumber(ClosedRange<Int>)
        /// A whole number within a range that must also be one of a few choices, in a unit (`hertz`).
        case choice(ClosedRange<Int>, oneOf: [Int], unit: String)
        /// A percentage (`2%`, `0.5%`), in per mille.
        case percentage
    }

    /// One key of a setting line: its name, how its value is read, and where the value goes.
    struct Key: Sendable {
        /// The key as written (`rtt`).
        let name: String
        let value: ValueKind
        /// Stores the value read into the scenario.
        let store: @Sendable (inout Scenario, Int64) -> Void
    }

    /// A setting line written as `key=value` words (any subset of its keys, any order, each once).
    struct KeyedSetting: Sendable {
        /// The setting's name in messages (“unknown fault key …”).
        let kind: String
        /// A word shown in messages as an example.
        let example: String
        /// What a line with no key at all is told it lacks, when not the general “… settings like …”.
        var whenEmpty: String? = nil
        /// Its keys, in the order messages list them.
        let keys: [Key]
    }

    /// Every `key=value` setting, by keyword: the one place a scenario key is named, checked and stored.
    static let keyedSettings: [String: KeyedSetting] = [
        "network": KeyedSetting(
            kind: "network", example: "rtt=120ms",
            keys: [
                Key(name: "rtt", value: .duration(allowsZero: true, maximum: maximumLatency)) {
                    $0.network.rttMicroseconds = $1
                },
                Key(name: "jitter", value: .duration(allowsZero: true, maximum: maximumLatency)) {
                    $0.network.jitterMicroseconds = $1
                },
                Key(name: "bandwidth", value: .bandwidth) { $0.network.bandwidthBytesPerSecond = $1 },
                Key(name: "connections", value: .wholeNumber(1...64)) {
                    $0.network.connectionsPerHost = Int($1)
                },
                Key(name: "timeout", value: .duration(allowsZero: false, maximum: maximumDuration)) {
                    $0.network.timeoutMicroseconds = $1
                },
            ]),
        "screen": KeyedSetting(
            kind: "screen", example: "height=667",
            keys: [
                Key(name: "height", value: .wholeNumber(100...10_000)) { $0.screen.height = Int($1) },
                Key(name: "row", value: .wholeNumber(1...10_000)) { $0.screen.rowHeight = Int($1) },
                Key(name: "refresh", value: .choice(1...1_000, oneOf: [60, 120], unit: "hertz")) {
                    $0.screen.refreshRate = Int($1)
                },
            ]),
        "faults": KeyedSetting(
            kind: "fault", example: "corrupt=2%",
            keys: [
                Key(name: "timeout", value: .percentage) { $0.faults.timeoutPerMille = Int($1) },
                Key(name: "refused", value: .percentage) { $0.faults.refusedPerMille = Int($1) },
                Key(name: "server-error", value: .percentage) { $0.faults.serverErrorPerMille = Int($1) },
                Key(name: "truncated", value: .percentage) { $0.faults.truncatedPerMille = Int($1) },
                Key(name: "corrupt", value: .percentage) { $0.faults.corruptPerMille = Int($1) },
            ]),
        // After the host, which `readSlowHost` reads and stores first.
        "slow-host": KeyedSetting(
            kind: "slow-host", example: "factor=8", whenEmpty: "“factor=<n>”",
            keys: [
                Key(name: "factor", value: .wholeNumber(1...1_000)) { $0.faults.slowHost?.factor = Int($1) }
            ]),
        "disk": KeyedSetting(
            kind: "disk", example: "full-after=5", whenEmpty: "“full-after=<writes>”",
            keys: [
                Key(name: "full-after", value: .wholeNumber(0...1_000_000)) {
                    $0.diskFullAfterWrites = Int($1)
                }
            ]),
    ]

    /// The longest duration any value may have: one hour.
    static let maximumDuration: Int64 = 3_600_000_000
    /// The longest network latency or jitter: one minute.
    static let maximumLatency: Int64 = 60_000_000
    /// The fastest link: 10 GB/s.
    static let maximumBandwidth: Int64 = 10_000_000_000
    /// The largest catalog a scenario may ask for: 100 000 rows.
    static let maximumRows = 100_000
    /// The most actions a scenario may hold.
    static let maximumActions = 2_000
    /// The longest a whole script may last in virtual time, gestures' coasting included: one hour.
    static let maximumScriptDuration: Int64 = 3_600_000_000
    /// The most rows a screen may show at once (its height over the row height, rounded up, plus one for
    /// a row cut at each edge).
    static let maximumVisibleRows = 100
    /// The most row-frames a script may ask the phone to draw: its virtual time times the refresh rate
    /// times the rows on screen. Each costs the phone's table and screen audit a little work, so this keeps
    /// a debug build's run to seconds: an hour at 60 Hz with 9 rows on screen is 1,944,000.
    static let maximumRowFrames: Int64 = 2_000_000
    /// The most rows a script may scroll past in all, gesture by gesture: each row passed may be a
    /// cell shown, and a download, a decode and a filter.
    static let maximumRowsScrolled = 20_000
}
