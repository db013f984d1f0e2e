/// At most a few downloads at once, as step 4's download queue's `maxConcurrentOperationCount`, handed
/// out in a line: a load takes its place when it is asked for (as an operation is added to a queue),
/// more eager loads go first and, among equals, the earlier; a slot goes back when the transfer ends.
/// While suspended (the user is scrolling), as step 4's suspended queue, no download starts, except a
/// visible row's while the finger drags slowly, or when a rate limiter is given and has a token.
///
/// Part of the `ImageLoader` actor's state, not an actor of its own: a load takes its place in the line
/// in the same step as it is made, so the line keeps the order the rows asked in, whichever task reaches
/// its slot first.
struct DownloadSlots {
    let limit: Int
    private(set) var isSuspended = false
    /// Whether visible rows' downloads start even while suspended (the finger drags at reading pace).
    private var visibleRowsMayStart = false
    private var inUse = 0
    private var line: [Place] = []
    /// Lets a few visible rows' downloads start while the user scrolls; nil holds them all.
    private var rateLimiter: RateLimiter?
    /// Virtual time now, in microseconds, for the rate limiter.
    private let now: @Sendable () -> Int64

    /// One load's place in the line.
    private struct Place {
        let number: Int
        var priority: TaskPriority
        /// Set once the load's task waits for its slot.
        var continuation: CheckedContinuation<Void, any Error>?
        /// Whether the slot is already handed to the load (it came before its task asked).
        var isGranted = false
    }

    init(limit: Int, rateLimiter: RateLimiter? = nil, now: @escaping @Sendable () -> Int64 = { 0 }) {
        self.limit = max(1, limit)
        self.rateLimiter = rateLimiter
        self.now = now
    }

    /// How long until the rate limiter lets the next held visible row start, in microseconds; nil when
    /// no such row waits (or nothing limits the rate).
    mutating func waitForToken() -> Int64? {
        guard isSuspended, inUse < limit, let index = mostEager(), line[index].priority >= .userInitiated,
            rateLimiter != nil
        else { return nil }
        return rateLimiter!.wait(at: now())
    }

    /// Hands out what the rate limiter now allows (called when a token is due).
    mutating func tokenDue() {
        startNext()
    }

    /// Puts a load in the line.
    mutating func enqueue(_ number: Int, priority: TaskPriority) {
        line.append(Place(number: number, priority: priority))
        startNext()
    }

    /// Raises a waiting load's priority (a visible row wants what a prefetch asked for).
    mutating func raise(_ number: Int, to priority: TaskPriority) {
        guard let index = line.firstIndex(where: { $0.number == number }), line[index].priority < priority
        else { return }
        line[index].priority = priority
    }

    /// The load's task waits here: `true` when its slot is already granted, otherwise the continuation
    /// is kept until `startNext` resumes it.
    mutating func arrive(_ number: Int, _ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        guard let index = line.firstIndex(where: { $0.number == number }) else {
            continuation.resume(throwing: CancellationError())
            return true
        }
        if line[index].isGranted {
            line.remove(at: index)
            continuation.resume()
            return true
        }
        line[index].continuation = continuation
        return false
    }

    /// A load left the line (it was cancelled); a slot already granted to it goes back.
    mutating func leave(_ number: Int) {
        guard let index = line.firstIndex(where: { $0.number == number }) else { return }
        let place = line.remove(at: index)
        if place.isGranted { inUse -= 1 }
        place.continuation?.resume(throwing: CancellationError())
        startNext()
    }

    /// A transfer ended: its slot goes to the next load.
    mutating func release() {
        inUse -= 1
        startNext()
    }

    /// Lets visible rows' downloads start while suspended, or holds them again.
    mutating func setVisibleRowsMayStart(_ mayStart: Bool) {
        visibleRowsMayStart = mayStart
        startNext()
    }

    /// Holds (or lets go of) every download that has not started yet.
    mutating func setSuspended(_ suspended: Bool) {
        isSuspended = suspended
        startNext()
    }

    /// Hands free slots to the most eager loads in the line, in order; a load whose task is not waiting
    /// yet gets its slot kept for it.
    private mutating func startNext() {
        while inUse < limit, let index = mostEager() {
            if isSuspended {
                // Scrolling: only a visible row, and only at reading pace or with a token.
                guard line[index].priority >= .userInitiated,
                    visibleRowsMayStart || rateLimiter?.take(at: now()) == true
                else {
                    return
                }
            }
            inUse += 1
            if let continuation = line[index].continuation {
                line.remove(at: index)
                continuation.resume()
            } else {
                line[index].isGranted = true
            }
        }
    }

    private func mostEager() -> Int? {
        var best: Int?
        for index in line.indices where !line[index].isGranted {
            if best == nil || line[index].priority > line[best!].priority { best = index }
        }
        return best
    }
}
