import LiveLock

/// The screen the table fills, from the scenario's `screen` line.
struct LiveScreen: Sendable {
    var height = 667.0
    var rowHeight = 88.0
    var refreshRate = 60.0

    /// The screen of this process's run, set before the app is made.
    static var current: LiveScreen { shared.withLock { $0 } }

    static func use(_ screen: LiveScreen) { shared.withLock { $0 = screen } }

    private static let shared = Mutex(LiveScreen())
}
