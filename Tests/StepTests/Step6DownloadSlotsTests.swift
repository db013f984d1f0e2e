import Foundation
import Synchronization
import Testing

@testable import Step6ImagePipeline

/// Step 6's download slots on their own, on Swift's own executor: what the lock hands out, counted at
/// once after each change, and the cancellation handler that resumes a load that stops waiting.
@Suite("Step 6's download slots: a waiter count under a lock, resumed by its cancellation handler")
struct Step6DownloadSlotsTests {
    /// Waits (yielding, without a clock) until `arrived` loads wait or hold a slot; false if they never do.
    static func arrive(_ arrived: Int, at slots: DownloadSlots) async -> Bool {
        for _ in 0..<100_000 {
            let counts = slots.counts
            if counts.waiting + counts.inUse == arrived { return true }
            await Task.yield()
        }
        return false
    }

    @Test("A waiter cancelled while it waits is resumed at once, and the freed slot goes to the next waiter")
    func cancelledWaiterIsResumed() async throws {
        let slots = DownloadSlots(limit: 1)
        try await slots.acquire(for: 1, priority: .medium)
        let leaving = Task { try await slots.acquire(for: 2, priority: .medium) }
        try #require(await Self.arrive(2, at: slots))
        let staying = Task { try await slots.acquire(for: 3, priority: .medium) }
        try #require(await Self.arrive(3, at: slots))
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        #expect(slots.counts.waiting == 1)
        slots.release()
        #expect(slots.counts.inUse == 1)
        try await staying.value
    }

    @Test(
        "While the user scrolls, only a visible row's download starts, and only while visible rows may start")
    func suspendedHoldsAllButVisibleRows() async throws {
        let slots = DownloadSlots(limit: 2)
        slots.setSuspended(true)
        let prefetch = Task { try await slots.acquire(for: 1, priority: .low) }
        try #require(await Self.arrive(1, at: slots))
        let visible = Task { try await slots.acquire(for: 2, priority: .userInitiated) }
        try #require(await Self.arrive(2, at: slots))
        #expect(slots.counts.inUse == 0, "nothing starts while the user scrolls")
        slots.setVisibleRowsMayStart(true)
        // The more eager waiter, the visible row, gets its slot; the prefetch still waits.
        try #require(slots.counts.inUse == 1, "a visible row starts at reading pace")
        try await visible.value
        prefetch.cancel()
        await #expect(throws: CancellationError.self) { try await prefetch.value }
        let later = Task { try await slots.acquire(for: 3, priority: .low) }
        try #require(await Self.arrive(2, at: slots))
        slots.setSuspended(false)
        #expect(slots.counts.inUse == 2)
        try await later.value
    }

    @Test("The more eager waiter is served first: a visible row before a prefetch that came first")
    func moreEagerWaiterFirst() async throws {
        let slots = DownloadSlots(limit: 1)
        try await slots.acquire(for: 1, priority: .medium)
        let served = Served()
        let prefetch = Task {
            try await slots.acquire(for: 2, priority: .low)
            served.loads.withLock { $0.append(2) }
        }
        try #require(await Self.arrive(2, at: slots))
        let visible = Task {
            try await slots.acquire(for: 3, priority: .userInitiated)
            served.loads.withLock { $0.append(3) }
        }
        try #require(await Self.arrive(3, at: slots))
        slots.release()
        for _ in 0..<100_000 where served.loads.withLock({ $0.isEmpty }) { await Task.yield() }
        #expect(served.loads.withLock { $0 } == [3], "the visible row gets the freed slot")
        prefetch.cancel()
        visible.cancel()
        _ = try? await prefetch.value
        _ = try? await visible.value
    }

    /// The loads that got a slot, in the order they got it.
    final class Served: Sendable {
        let loads = Mutex<[Int]>([])
    }
}
