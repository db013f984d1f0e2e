import Foundation
import Shared
import Synchronization
import TestSupport
import Testing

@testable import Step5Concurrency

/// Step 5's loader on its own, asked the way a row that leaves and comes straight back asks it: the row's
/// first load is cancelled, a new one takes its place in `loadsInProgress` before the first has wound
/// down, and the end of the first wait must not forget the new load.
@Suite("Step 5's ImageLoader: a load cancelled and asked for again at once")
struct Step5ImageLoaderTests {
    /// What each asking task got, by name: `image`, `cancelled`, or the error.
    final class Outcomes: Sendable {
        private let values = Mutex<[String: String]>([:])

        func note(_ name: String, _ result: Result<Image?, any Error>) {
            let outcome: String
            switch result {
            case .success(let image): outcome = image.map { "\($0.kind)" } ?? "nil"
            case .failure(let error): outcome = error is CancellationError ? "cancelled" : "\(error)"
            }
            values.withLock { $0[name] = outcome }
        }

        var all: [String: String] { values.withLock { $0 } }
    }

    /// An app with only step 5's loader and the table still throughout: a row asks for a poster and gives
    /// it up while the download is under way; another asks for it at once (a new load), and a third asks
    /// a little later, while that new load is on its way.
    final class LeavesAndComesBack: TableViewController {
        let outcomes: Outcomes

        init(outcomes: Outcomes) {
            self.outcomes = outcomes
            super.init()
        }

        override func viewDidLoad() {
            let loader = ImageLoader(concurrency: 6, diskCache: nil, oneLoadPerURL: true)
            let pool = loader.executor
            let clock = PhoneClock()
            let url = phone.movies.compactMap(\.url)[0]
            let outcomes = outcomes
            Task(executorPreference: pool) {
                let leaving = Task(executorPreference: pool) { try await loader.image(for: url) }
                try? await clock.sleep(for: .milliseconds(100))
                leaving.cancel()
                let back = Task(executorPreference: pool) { try await loader.image(for: url) }
                try? await clock.sleep(for: .milliseconds(100))
                let joining = Task(executorPreference: pool) { try await loader.image(for: url) }
                outcomes.note("leaving", await leaving.result)
                outcomes.note("back", await back.result)
                outcomes.note("joining", await joining.result)
            }
        }
    }

    @Test("A row that asks while a newer load of its URL is under way joins it, however the older wait ended")
    func aNewerLoadIsNotForgotten() throws {
        let folder = try StepFixtures.folder("step5-comes-back")
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = RunOptions()
        options.scenario = try StepFixtures.scenario(
            "rows 3\nnetwork rtt=300ms jitter=0ms bandwidth=200KB/s connections=6\nwait 10s\n",
            named: "step5-comes-back", in: folder)
        let outcomes = Outcomes()
        let run = try Workbook.run(step: "Step5ComesBack", options: options, keepTrace: true) { _ in
            LeavesAndComesBack(outcomes: outcomes)
        }
        #expect(
            outcomes.all == ["leaving": "cancelled", "back": "poster", "joining": "poster"],
            "the row that left should throw CancellationError, the two others get the poster")
        #expect(
            run.events("request_start").count == 2,
            """
            a row asked while a newer load was under way and started a third download: does the end of a \
            wait forget a load that is no longer the one it waited for?
            """)
        #expect(run.events("request_cancel").count == 1, "the load nobody waits for should be cancelled")
    }
}
