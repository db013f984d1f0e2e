import Foundation
import Shared
import TestSupport
import Testing

@testable import CLI
@testable import UI
@testable import World

/// No step keeps its objects alive after they are done: no retain cycles among controllers, operations,
/// cells and records, even when a relaunch or a memory warning lands in the middle of the work.
extension LessonTests {
    /// A memory warning during the first downloads and decodes, a relaunch in the middle of the transfers
    /// a fling started, and another memory warning while the new launch works.
    static let interrupted = """
        rows 60
        network rtt=250ms jitter=50ms bandwidth=400KB/s
        wait 700ms
        memory-warning
        wait 300ms
        fling to row 30
        wait 400ms
        relaunch
        wait 450ms
        memory-warning
        wait 3s
        """

    /// Weak references to every object worth watching, gathered while the app runs.
    final class Watch: @unchecked Sendable {
        private(set) var objects: [(name: String, reference: Weak)] = []
        /// Objects already remembered (weakly held, so an identifier is never reused while listed).
        private var seen: Set<ObjectIdentifier> = []
        /// Objects visited in the current walk.
        private var visited: Set<ObjectIdentifier> = []

        struct Weak { weak var object: AnyObject? }

        /// Types never walked into: the world the app runs in, and the pictures.
        static let skipped = [
            "Phone", "Scheduler", "SimulatedThread", "Network", "Disk", "Image", "Recorder",
        ]

        /// Walks an object graph from `root`, remembering controllers, operations, queues, cells and the
        /// step's own classes (records, loads, caches).
        func gather(from root: Any, depth: Int = 0) {
            if depth == 0 { visited = [] }
            guard depth < 8 else { return }
            let mirror = Mirror(reflecting: root)
            if mirror.displayStyle == .class {
                let object = root as AnyObject
                let name = String(describing: type(of: object))
                if Self.skipped.contains(name) { return }
                guard visited.insert(ObjectIdentifier(object)).inserted else { return }
                if seen.insert(ObjectIdentifier(object)).inserted {
                    objects.append((name, Weak(object: object)))
                }
            }
            // A collection of plain values (bytes, pixels, numbers) holds no object: walking it would visit
            // every element.
            if mirror.displayStyle == .collection || mirror.displayStyle == .set,
                let first = mirror.children.first, Mirror(reflecting: first.value).displayStyle == nil
            {
                return
            }
            var current: Mirror? = mirror
            while let level = current {
                for child in level.children { gather(from: child.value, depth: depth + 1) }
                current = level.superclassMirror
            }
        }

        /// The names of the watched objects still alive.
        var survivors: [String] { objects.filter { $0.reference.object != nil }.map(\.name).sorted() }
    }

    /// The same interruptions without the relaunch, for step 5.
    static let warnedOnly = interrupted.replacingOccurrences(of: "relaunch\n", with: "wait 1ms\n")

    // Step 5 only without the relaunch: a relaunch kills the app's threads with tasks suspended on them,
    // and Swift has no way to end a task without resuming it, so the killed launch's tasks (and what they
    // hold) stay.
    @Test(
        "After a run interrupted by memory warnings and a relaunch, nothing of any step is alive")
    func nothingSurvives() throws {
        for step in Step.allCases where step != .concurrency {
            try Self.expectNothingSurvives(step, Self.interrupted, relaunches: 1)
        }
    }

    @Test("After a run interrupted by memory warnings, nothing of step 5 is alive: every task has ended")
    func nothingOfStepFiveSurvives() throws {
        try Self.expectNothingSurvives(.concurrency, Self.warnedOnly, relaunches: 0)
    }

    static func expectNothingSurvives(_ step: Step, _ scenario: String, relaunches: Int) throws {
        let folder = try StepFixtures.folder("lifetimes")
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = RunOptions()
        options.scenario = try StepFixtures.scenario(scenario, named: "interrupted", in: folder)
        let watch = Watch()
        let run = try Workbook.run(step: step.rawValue, options: options, keepTrace: true) { options in
            let app = step.makeApp(options)
            if let phone = Phone.current {
                watch.gather(from: app)
                // Look again every 100 ms of virtual time while the work is in flight.
                for time in stride(from: Int64(100_000), through: 5_500_000, by: 100_000) {
                    phone.scheduler.schedule(at: phone.now + time) { [weak app] in
                        if let app { watch.gather(from: app) }
                    }
                }
            }
            return app
        }
        let names = Set(watch.objects.map(\.name))
        #expect(names.contains("ListViewController"))
        #expect(names.contains("TableView"))
        if step == .concurrency || step == .imagePipeline {
            #expect(names.contains("ImageLoader"), "\(names.sorted())")
            #expect(names.contains("MovieCell"), "\(names.sorted())")
        } else if step != .naive {
            #expect(names.contains("ImageDownloader"), "\(names.sorted())")
            #expect(names.contains("MovieRecord"), "\(names.sorted())")
        }
        #expect(watch.survivors.isEmpty, "still alive: \(watch.survivors)")
        #expect(run.events("relaunch").count == relaunches)
        #expect(run.events("memory_warning").count == 2)
        #expect(run.metric("wrong_image_events") == 0)
        #expect(run.metric("late_completions") == 0)
    }
}
