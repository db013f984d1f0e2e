import Foundation

/// The virtual clock and the one baton: runs world events and simulated threads one at a time, in
/// (virtual time, sequence) order, so every run of the same input is the same run.
///
/// Each simulated thread is a real thread that runs only while it holds the baton. The scheduler's own
/// loop runs on the thread that called `run(until:)`; it hands the baton to a simulated thread and
/// waits until that thread blocks (sleeps for a virtual duration, or parks until woken) or ends.
package final class Scheduler: @unchecked Sendable {
    /// The current virtual time in microseconds.
    package private(set) var now: Int64 = 0

    private var events = EventQueue()
    private var nextSequence: UInt64 = 0
    private let batonReturned = DispatchSemaphore(value: 0)
    /// The simulated thread holding the baton, if any.
    private(set) var runningThread: SimulatedThread?
    /// Every thread started and not yet ended, by creation order.
    private var liveThreads: [SimulatedThread] = []
    private var nextThreadNumber = 0
    /// Set when the world is being torn down: blocking calls return at once.
    package private(set) var isShuttingDown = false

    /// Makes a scheduler at time zero.
    package init() {}

    /// Schedules a short piece of bookkeeping at a virtual time (not before now).
    package func schedule(at time: Int64, _ action: @escaping () -> Void) {
        enqueue(time: max(time, now), event: .action(action))
    }

    /// Schedules a piece of bookkeeping after a delay.
    package func schedule(after delay: Int64, _ action: @escaping () -> Void) {
        schedule(at: now + max(0, delay), action)
    }

    func enqueue(time: Int64, event: ScheduledEvent) {
        events.insert(EventQueue.Entry(time: time, sequence: nextSequence, event: event))
        nextSequence += 1
    }

    /// The time of the next scheduled event.
    var earliestEventTime: Int64? { events.earliestTime }

    /// Starts a simulated thread that will run `body` when the baton first reaches it.
    package func startThread(name: String, body: @escaping (SimulatedThread) -> Void) -> SimulatedThread {
        nextThreadNumber += 1
        let thread = SimulatedThread(scheduler: self, name: name, number: nextThreadNumber)
        liveThreads.append(thread)
        thread.launch(body: body)
        thread.wake()
        return thread
    }

    /// Runs events until none is left before `limit` or `stop` says so (checked between events).
    package func run(until limit: Int64, stop: () -> Bool = { false }) {
        while let time = events.earliestTime, time <= limit, !stop() {
            let entry = events.removeFirst()!
            now = max(now, entry.time)
            switch entry.event {
            case .action(let action):
                action()
            case .resume(let thread, let ticket):
                guard thread.accepts(ticket: ticket) else { continue }
                hand(to: thread)
            }
        }
        if now < limit, events.earliestTime == nil || events.earliestTime! > limit, limit != Int64.max {
            now = limit
        }
    }

    /// Gives the baton to `thread` and waits until it gives the baton back.
    private func hand(to thread: SimulatedThread) {
        runningThread = thread
        thread.baton.signal()
        batonReturned.wait()
        runningThread = nil
        if thread.hasEnded {
            liveThreads.removeAll { $0 === thread }
        }
    }

    /// Called by a simulated thread on its own real thread to give the baton back.
    func returnBaton() {
        batonReturned.signal()
    }

    /// Lets a sleeping thread move the clock forward itself when nothing else is due before then.
    func advanceInline(to time: Int64) -> Bool {
        if let earliest = events.earliestTime, earliest <= time { return false }
        now = time
        return true
    }

    /// Ends every simulated thread: blocking calls return at once, idle loops exit, and each thread
    /// runs to its end in creation order.
    package func shutDown() {
        isShuttingDown = true
        var guardCount = 0
        while let thread = liveThreads.first {
            guardCount += 1
            if guardCount > 100_000 { break }
            if thread.hasEnded {
                liveThreads.removeFirst()
                continue
            }
            thread.invalidateWakeUps()
            hand(to: thread)
            // Anything the thread scheduled for others runs too, so nobody waits forever.
            run(until: Int64.max)
        }
        events = EventQueue()
    }
}
