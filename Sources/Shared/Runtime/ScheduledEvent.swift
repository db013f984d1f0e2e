/// What a scheduled event does when its time comes.
enum ScheduledEvent {
    /// Run a short piece of world bookkeeping on the scheduler (it must not block).
    case action(() -> Void)
    /// Hand the baton to a simulated thread that is waiting for this wake-up.
    case resume(SimulatedThread, ticket: UInt64)
}
