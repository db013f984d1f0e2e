import Foundation
import Shared
import Synchronization
import TestSupport
import Testing

@testable import Step6ImagePipeline

/// Step 6's loader on its own, asked by rows the way no built-in scenario asks it: its reference-counted
/// cancellation, where one row gives up a load another still waits for while the table is still.
@Suite("Step 6's ImageLoader: one load shared by rows, cancelled by the count of rows still waiting")
struct Step6ImageLoaderTests {
    /// A loader with every technique and the step's own poster size and disk cache, on `executor` and
    /// `clock`, that runs at most `concurrency` downloads at once.
    static func loader(executor: SimulatedTaskExecutor, concurrency: Int, clock: PhoneClock) -> ImageLoader {
        ImageLoader(
            executor: executor, techniques: .all, displayPixels: ListViewController.posterPixels,
            concurrency: concurrency,
            diskCache: DiskCache(
                directory: Disk.shared.cachesDirectory.appendingPathComponent("Posters"),
                sizeLimit: 20_000_000),
            clock: clock)
    }

    /// What each asking task got, by name: `image`, `cancelled`, or the error.
    final class Outcomes: Sendable {
        private let values = Mutex<[String: String]>([:])

        func note(_ name: String, _ result: Result<Image, any Error>) {
            let outcome: String
            switch result {
            case .success(let image): outcome = image.kind == .poster ? "image" : "\(image.kind)"
            case .failure(let error): outcome = error is CancellationError ? "cancelled" : "\(error)"
            }
            values.withLock { $0[name] = outcome }
        }

        var all: [String: String] { values.withLock { $0 } }
    }

    /// An app with only step 6's loader, one download at a time and the table still throughout: a first
    /// poster takes the slot, two rows ask for a second one (one load, waiting in line), then one of the
    /// two gives up.
    final class TwoRowsShareALoad: TableViewController {
        let outcomes: Outcomes

        init(outcomes: Outcomes) {
            self.outcomes = outcomes
            super.init()
        }

        override func viewDidLoad() {
            let pool = SimulatedTaskExecutor()
            let clock = PhoneClock()
            let loader = Step6ImageLoaderTests.loader(executor: pool, concurrency: 1, clock: clock)
            let urls = phone.movies.compactMap(\.url)
            let outcomes = outcomes
            Task(executorPreference: pool) {
                let first = Task(executorPreference: pool) { try await loader.image(for: urls[0]) }
                try? await clock.sleep(for: .milliseconds(10))
                let leaving = Task(executorPreference: pool) { try await loader.image(for: urls[1]) }
                let staying = Task(executorPreference: pool) { try await loader.image(for: urls[1]) }
                try? await clock.sleep(for: .milliseconds(10))
                leaving.cancel()
                outcomes.note("leaving", await leaving.result)
                outcomes.note("staying", await staying.result)
                outcomes.note("first", await first.result)
            }
        }
    }

    @Test("A row that gives up a shared load stops waiting, and the row still waiting gets its poster")
    func theRowStillWaitingGetsItsPoster() throws {
        let folder = try StepFixtures.folder("shared-load")
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = RunOptions()
        options.scenario = try StepFixtures.scenario(
            "rows 3\nnetwork rtt=300ms jitter=0ms bandwidth=200KB/s connections=6\nwait 10s\n",
            named: "shared-load", in: folder)
        let outcomes = Outcomes()
        let run = try Workbook.run(step: "Step6SharedLoad", options: options, keepTrace: true) { _ in
            TwoRowsShareALoad(outcomes: outcomes)
        }
        #expect(outcomes.all == ["first": "image", "leaving": "cancelled", "staying": "image"])
        // The second poster was downloaded once, for the row that stayed: its load was not stopped.
        #expect(run.events("request_start").count == 2)
        #expect(run.events("request_cancel").isEmpty)
    }
}
