import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread of the simulated phone: a real thread that runs only while it holds the scheduler's baton.
///
/// Code on it is plain synchronous Swift. A call that takes virtual time (`sleep(for:)`, or a park until
/// something wakes it) gives the baton back; the scheduler hands it back at the right virtual moment.
public final class SimulatedThread: @unchecked Sendable {
    /// The thread's name as it appears in traces: `main`, `download-1`, …
    public let name: String
    /// A number unique within its scheduler, in creation order.
    public let number: Int
    unowned let scheduler: Scheduler
    let baton = DispatchSemaphore(value: 0)
    private(set) var hasEnded = false
    /// Where the thread is: running, sleeping until a time, parked until woken, or ready to run.
    private enum State { case parked, ready, sleeping, running }
    private var state = State.parked
    /// Resume events carry a ticket; one whose ticket is out of date is ignored.
    private var currentTicket: UInt64 = 0
    /// A wake-up that came while the thread was not parked: its next park returns at once.
    private var pendingWake = false
    /// Set when the app this thread belongs to is killed (a relaunch): blocking calls return at once.
    package var isKilled = false
    /// The operation this thread is running (its `main()` or its completion block), if any.
    package var runningOperation: Operation?
    /// The device whose app this thread belongs to, handed over when the device starts the thread.
    package var host: (any AppHost)?
    /// How many times the thread has given the baton back: code between two such moments is one turn, which
    /// no other thread can interleave with.
    package private(set) var turns: UInt64 = 0

    init(scheduler: Scheduler, name: String, number: Int) {
        self.scheduler = scheduler
        self.name = name
        self.number = number
    }

    /// The virtual time of the scheduler this thread runs on, in microseconds: the clock handed to the
    /// thread with its host.
    package var now: Int64 { scheduler.now }

    /// The simulated thread running on the calling real thread, if any.
    public static var current: SimulatedThread? {
        guard let pointer = pthread_getspecific(currentKey) else { return nil }
        return Unmanaged<SimulatedThread>.fromOpaque(pointer).takeUnretainedValue()
    }

    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    func launch(body: @escaping (SimulatedThread) -> Void) {
        let box = UncheckedBox(body)
        let thread = Thread { [self] in
            pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque())
            self.baton.wait()
            box.value(self)
            self.hasEnded = true
            pthread_setspecific(Self.currentKey, nil)
            self.scheduler.returnBaton()
        }
        thread.name = name
        thread.stackSize = 4 << 20
        thread.start()
    }

    /// Whether blocking calls should return at once (the world is ending or this thread's app was killed).
    package var isInterrupted: Bool { isKilled || scheduler.isShuttingDown }

    /// Blocks this thread for a virtual duration. Must be called on this thread.
    public func sleep(for microseconds: Int64) {
        guard microseconds > 0, !isInterrupted else { return }
        let wakeTime = scheduler.now + microseconds
        if scheduler.advanceInline(to: wakeTime) { return }
        state = .sleeping
        currentTicket &+= 1
        scheduler.enqueue(time: wakeTime, event: .resume(self, ticket: currentTicket))
        yieldBaton()
    }

    /// Lets every thread already runnable at this virtual moment run first, then carries on; no virtual
    /// time passes. Must be called on this thread.
    package func yield() {
        guard !isInterrupted else { return }
        state = .sleeping
        currentTicket &+= 1
        scheduler.enqueue(time: scheduler.now, event: .resume(self, ticket: currentTicket))
        yieldBaton()
    }

    /// Blocks this thread until another party calls `wake()`. Must be called on this thread.
    package func park() {
        if isInterrupted { return }
        if pendingWake {
            pendingWake = false
            return
        }
        state = .parked
        yieldBaton()
    }

    /// Blocks this thread until `condition` holds; whoever makes it hold must call `wake()`.
    package func park(until condition: () -> Bool) {
        while !condition() && !isInterrupted {
            park()
        }
    }

    /// Makes a parked thread runnable at the current virtual time; a thread that is running or sleeping
    /// instead finds its next `park()` returning at once.
    package func wake() {
        guard !hasEnded else { return }
        switch state {
        case .parked:
            state = .ready
            currentTicket &+= 1
            scheduler.enqueue(time: scheduler.now, event: .resume(self, ticket: currentTicket))
        case .running, .sleeping:
            pendingWake = true
        case .ready:
            break
        }
    }

    /// Cuts a sleep or park short: the thread runs at the current time and finds itself interrupted.
    package func interrupt() {
        guard !hasEnded, state == .sleeping || state == .parked else { return }
        state = .ready
        currentTicket &+= 1
        scheduler.enqueue(time: scheduler.now, event: .resume(self, ticket: currentTicket))
    }

    func accepts(ticket: UInt64) -> Bool {
        guard !hasEnded, ticket == currentTicket else { return false }
        state = .running
        return true
    }

    /// Drops every pending resume (at shutdown, when the scheduler hands the baton over directly).
    func invalidateWakeUps() {
        currentTicket &+= 1
        state = .running
    }

    private func yieldBaton() {
        turns &+= 1
        scheduler.returnBaton()
        baton.wait()
    }
}

/// Carries a non-Sendable value to another real thread; safe here because only the baton holder runs.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
