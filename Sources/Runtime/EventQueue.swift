/// A min-heap of timed events ordered by (virtual time, sequence number): O(log n) insert and removal.
struct EventQueue {
    /// One scheduled event.
    struct Entry {
        /// When it fires, in virtual microseconds.
        let time: Int64
        /// Tie-breaker: events scheduled earlier fire first at the same time.
        let sequence: UInt64
        let event: ScheduledEvent
    }

    private var heap: [Entry] = []

    /// Whether nothing is scheduled.
    var isEmpty: Bool { heap.isEmpty }

    /// How many events are scheduled.
    var count: Int { heap.count }

    /// The time of the earliest event, if any.
    var earliestTime: Int64? { heap.first?.time }

    mutating func insert(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            if Self.precedes(heap[child], heap[parent]) {
                heap.swapAt(child, parent)
                child = parent
            } else {
                break
            }
        }
    }

    /// Removes and returns the earliest event.
    mutating func removeFirst() -> Entry? {
        guard !heap.isEmpty else { return nil }
        let first = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && Self.precedes(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count && Self.precedes(heap[right], heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first
    }

    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.time != b.time ? a.time < b.time : a.sequence < b.sequence
    }
}

/// What a scheduled event does when its time comes.
enum ScheduledEvent {
    /// Run a short piece of world bookkeeping on the scheduler (it must not block).
    case action(() -> Void)
    /// Hand the baton to a simulated thread that is waiting for this wake-up.
    case resume(SimulatedThread, ticket: UInt64)
}
