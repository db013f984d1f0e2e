/// One line of a scenario's script: what the user (or the system) does next.
public enum ScenarioAction: Sendable, Equatable {
    /// Do nothing for a while (microseconds).
    case wait(microseconds: Int64)
    /// Drag with a finger until `row` is at the top, over a duration, and release with no velocity.
    case drag(toRow: Int, microseconds: Int64)
    /// Drag through several rows in turn without lifting the finger (down, then back up, …), spending
    /// equal time on each leg, and release with no velocity at the last one.
    case dragThrough(rows: [Int], microseconds: Int64)
    /// Drag quickly and release; deceleration brings the table to rest with `row` at the top.
    case fling(toRow: Int)
    /// The system sends a memory warning.
    case memoryWarning
    /// The app quits and starts again: memory is gone, the disk cache stays.
    case relaunch
}
