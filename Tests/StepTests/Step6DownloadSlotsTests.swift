import Foundation
import Testing

@testable import Step6ImagePipeline

/// Step 6's download slots on their own, on Swift's own executor: the lock and the cancellation handler
/// are all that keeps a waiter from waiting for ever.
@Suite("Step 6's download slots: a waiter count under a lock, resumed by its cancellation handler")
struct Step6DownloadSlotsTests {
    @Test(
        "A waiter cancelled while it waits is resumed at once, and the freed slot goes to the next waiter",
        .timeLimit(.minutes(1)))
    func cancelledWaiterIsResumed() async throws {
        let slots = DownloadSlots(limit: 1)
        try await slots.acquire(for: 1, priority: .medium)
        let leaving = Task { try await slots.acquire(for: 2, priority: .medium) }
        let staying = Task { try await slots.acquire(for: 3, priority: .medium) }
        leaving.cancel()
        // Whether it was already waiting or not yet, it ends with a cancellation, not with the slot.
        await #expect(throws: CancellationError.self) { try await leaving.value }
        slots.release()
        try await staying.value
        slots.release()
    }

    @Test(
        "While suspended, only a visible row's download starts, and only while visible rows may start",
        .timeLimit(.minutes(1)))
    func suspendedHoldsAllButVisibleRows() async throws {
        let slots = DownloadSlots(limit: 2)
        slots.setSuspended(true)
        let prefetch = Task { try await slots.acquire(for: 1, priority: .low) }
        let visible = Task { try await slots.acquire(for: 2, priority: .userInitiated) }
        slots.setVisibleRowsMayStart(true)
        try await visible.value
        // The prefetch still waits: cancelling it ends it with a cancellation.
        prefetch.cancel()
        await #expect(throws: CancellationError.self) { try await prefetch.value }
        let later = Task { try await slots.acquire(for: 3, priority: .low) }
        slots.setSuspended(false)
        try await later.value
    }
}
