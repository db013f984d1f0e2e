import Foundation
import Shared
import Testing

/// The walkthrough's exercises that need no code change: each "what you should see" holds.
@Suite("The walkthrough's exercises")
struct ExerciseTests {
    /// Writes a scenario file for an exercise and returns its path.
    private func scenarioFile(_ name: String, _ text: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "exercise-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// The course with the walkthrough's faster network line, and optionally a 120 Hz screen.
    private func fastCourse(refresh120: Bool) throws -> String {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
        let course = try String(
            contentsOf: repository.appendingPathComponent(
                "Sources/Shared/Resources/Scenarios/course.scenario"),
            encoding: .utf8)
        var lines = course.components(separatedBy: "\n").map { line in
            line.hasPrefix("network ")
                ? "network rtt=20ms jitter=5ms bandwidth=20MB/s connections=6 timeout=10s" : line
        }
        if refresh120 {
            lines = lines.map { $0.hasPrefix("screen ") ? "screen height=667 row=88 refresh=120" : $0 }
        }
        return try scenarioFile("fast.scenario", lines.joined(separator: "\n"))
    }

    private func run(_ step: Step, scenario: String, concurrency: Int? = nil, cacheDirectory: String? = nil)
        throws -> RunResult
    {
        var options = RunOptions()
        options.scenario = scenario
        options.concurrency = concurrency
        options.cacheDirectory = cacheDirectory
        return try Workbook.run(step: step.rawValue, options: options, makeApp: step.makeApp)
    }

    @Test("Chapter 1: reading slowly still stutters in step 1")
    func readingStillStutters() throws {
        let run = try SharedRuns.shared.result(.naive, "reading")
        #expect(run.metric("hitch_time_ratio_ms_per_s") > 50)
    }

    @Test("Chapter 1: a faster network cuts the stalls but not the band; at 120 Hz the hitches grow")
    func fasterNetworkAndFasterScreen() throws {
        let course = try SharedRuns.shared.result(.naive, "course")
        let fast = try run(.naive, scenario: try fastCourse(refresh120: false))
        #expect(fast.metric("main_thread_busy_ms") * 2 < course.metric("main_thread_busy_ms"))
        #expect(fast.metric("hitch_time_ms") * 2 < course.metric("hitch_time_ms"))
        #expect(fast.metric("hitch_time_ratio_ms_per_s") > 50)
        let fast120 = try run(.naive, scenario: try fastCourse(refresh120: true))
        #expect(fast120.metric("hitch_time_ms") > fast.metric("hitch_time_ms"))
        #expect(fast120.metric("hitch_time_ratio_ms_per_s") > fast.metric("hitch_time_ratio_ms_per_s"))
    }

    @Test("Chapter 2: four workers drain the backlog sooner but start as many requests")
    func moreWorkersInStepTwo() throws {
        let one = try SharedRuns.shared.result(.background, "course")
        let four = try run(.background, scenario: "course", concurrency: 4)
        #expect(four.metric("time_to_visible_ms_p95") < one.metric("time_to_visible_ms_p95"))
        #expect(four.metric("requests_started") >= one.metric("requests_started") * 0.9)
    }

    @Test("Chapter 2: a long fling costs step 2 many times the oracle, mostly wasted")
    func stepTwoWastesOnLongFlings() throws {
        let run = try SharedRuns.shared.result(.background, "long-fling")
        #expect(run.metric("requests_started") > 5 * Double(run.oracle.requests))
        #expect(run.metric("bytes_downloaded") > 5 * Double(run.oracle.bytes))
        #expect(run.metric("bytes_wasted") > run.metric("bytes_downloaded") / 2)
    }

    @Test("Chapter 3: a slow, long drag makes step 3 show more grey than step 2")
    func slowDragFavoursStepTwo() throws {
        let path = try scenarioFile("slow.scenario", "rows 200\nwait 2s\ndrag to row 30 over 30s\nwait 3s\n")
        let background = try run(.background, scenario: path)
        let idleOnly = try run(.idleOnly, scenario: path)
        #expect(idleOnly.metric("placeholder_row_seconds") > 2 * background.metric("placeholder_row_seconds"))
    }

    @Test("Chapter 3: more workers fill step 3's stops sooner")
    func moreWorkersInStepThree() throws {
        let one = try SharedRuns.shared.result(.idleOnly, "course")
        let three = try run(.idleOnly, scenario: "course", concurrency: 3)
        #expect(three.metric("time_to_visible_ms_p95") < one.metric("time_to_visible_ms_p95"))
    }

    @Test("Chapter 4: a second run on the same cache folder comes from disk")
    func secondRunComesFromDisk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "posters-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try run(.cacheAndPrefetch, scenario: "course", cacheDirectory: folder.path)
        let second = try run(.cacheAndPrefetch, scenario: "course", cacheDirectory: folder.path)
        #expect(second.metric("requests_started") * 2 < first.metric("requests_started"))
        #expect(second.metric("disk_cache_hits") > first.metric("disk_cache_hits"))
    }
}
