import Foundation
import Shared
import TestSupport
import Testing

@testable import Step6ImagePipeline

/// Step 6's loader takes what it is told in the order it was told, whichever task reaches it first.
@Suite("Step 6: the loader keeps the order it was told things in")
struct Step6OrderTests {
    /// An app with only step 6's loader: at launch a low-priority task holds the downloads, then a
    /// high-priority task lets them go again and asks for a poster. The phone's pool starts higher
    /// priorities first, so the task that brings the second message reaches the loader before the first
    /// one's.
    final class SuspendThenResumeApp: TableViewController {
        var loader: ImageLoader!

        override func viewDidLoad() {
            let pool = SimulatedTaskExecutor(width: 1)
            let clock = PhoneClock()
            let loader = Step6ImageLoaderTests.loader(executor: pool, concurrency: 5, clock: clock)
            self.loader = loader
            guard let url = phone.movies.first?.url else { return }
            Task(executorPreference: pool, priority: .low) {
                // The suspend's task inherits this one's low priority; the resume's runs at high.
                loader.suspendDownloads(true)
                Task(executorPreference: pool, priority: .high) {
                    loader.suspendDownloads(false)
                    // Asked once both messages have reached the loader.
                    try? await clock.sleep(for: .milliseconds(10))
                    _ = try? await loader.image(for: url)
                }
            }
        }
    }

    @Test("A resume sent after a suspend wins, though its task overtakes the suspend's")
    func resumeAfterSuspendWins() throws {
        let folder = try StepFixtures.folder("order")
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = RunOptions()
        options.scenario = try StepFixtures.scenario("rows 3\nwait 2s\n", named: "order", in: folder)
        let run = try Workbook.run(step: "Step6Order", options: options, keepTrace: true) { _ in
            SuspendThenResumeApp()
        }
        // Taken in the order sent, the downloads are let go and the poster is fetched; taken in the
        // order the tasks arrived, the line would stay held and nothing would start.
        #expect(run.events("request_start").count == 1)
        #expect(run.events("request_end").count == 1)
    }
}
