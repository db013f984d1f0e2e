import Foundation
import Testing

/// The live steps, run as their own processes (the frame loop needs the process's main thread), one after
/// the other, on short scenarios. They check counts and order, and times only against the scenario's own
/// round trip.
@Suite(.serialized)
struct LiveStepTests {
    /// The scenario's round trip, in milliseconds.
    static let roundTripMilliseconds = 100.0

    static let scenario = """
        rows 20
        seed 7
        network rtt=100ms jitter=20ms bandwidth=2000KB/s connections=6
        screen height=667 row=88 refresh=60
        wait 0.5s
        drag to row 4 over 0.5s
        wait 0.5s
        """

    /// Also: step 1's app-attributed hitch time is over ten times step 2's, step 1 wastes no poster, and
    /// each step started as many requests as the server logged.
    @Test("Step 1 hangs for at least a round trip and step 2 does not")
    func stepOneHangsAndStepTwoDoesNot() throws {
        let naive = try LiveStepRun(step: "Step1Naive", scenario: Self.scenario)
        let background = try LiveStepRun(step: "Step2Background", scenario: Self.scenario)
        #expect(try naive.number("hangs") >= 1, "\(naive.text)")
        #expect(try naive.number("longest_main_thread_stall_ms") >= Self.roundTripMilliseconds)
        #expect(try background.number("hangs") == 0, "\(background.text)")
        #expect(
            try naive.number("hitch_time_ms") > 10 * background.number("hitch_time_ms"),
            "\(naive.text)\n\(background.text)")
        // Each row on screen at launch downloads its poster before step 1's first frame; step 2's one-wide
        // queue may start fewer by the end on a loaded machine.
        #expect(try naive.number("requests_started") >= 8, "\(naive.text)")
        #expect(try background.number("requests_started") >= 1, "\(background.text)")
        // Step 1 downloads a poster only for a row it is laying out, which the next frame presents (a
        // launch's first layout too, before any touch is taken in): only what no row shows, a 404's page,
        // is wasted.
        let log = try #require(naive.report["server_log"] as? [[String: Any]])
        let pages = log.filter { $0["status"] as? Int != 200 }.compactMap { $0["body_bytes"] as? Int }
        #expect(try naive.number("bytes_wasted") == Double(pages.reduce(0, +)), "\(naive.text)")
        for run in [naive, background] {
            #expect(try run.number("requests_started") == run.serverRequests, "\(run.text)")
            #expect(try run.number("main_thread_checker_violations") == 0, "\(run.text)")
        }
    }

    /// A short scenario that reuses cells both ways and comes back to rows it left: a look, a drag, a fling
    /// down and one back to the top, then a look long enough for the last screen to fill.
    static let cacheScenario = """
        rows 40
        seed 7
        network rtt=100ms jitter=20ms bandwidth=2000KB/s connections=6
        screen height=667 row=88 refresh=60
        wait 0.5s
        drag to row 4 over 0.5s
        wait 0.3s
        fling to row 25
        wait 0.6s
        fling to row 0
        wait 2s
        """

    @Test("Live, step 4 shows no wrong picture, downloads no URL twice and ends with every visible row final")
    func stepFourShowsTheRightPictures() throws {
        try checkCachingStep("Step4CacheAndPrefetch")
    }

    @Test("Live, step 5 shows no wrong picture, downloads no URL twice and ends with every visible row final")
    func stepFiveShowsTheRightPictures() throws {
        try checkCachingStep("Step5Concurrency")
    }

    @Test("Live, step 6 shows no wrong picture, downloads no URL twice and ends with every visible row final")
    func stepSixShowsTheRightPictures() throws {
        try checkCachingStep("Step6ImagePipeline")
    }

    /// Plays the cache scenario with `step` and checks what it showed and downloaded.
    private func checkCachingStep(_ step: String) throws {
        let run = try LiveStepRun(step: step, scenario: Self.cacheScenario)
        #expect(try run.number("wrong_image_events") == 0, "\(run.text)")
        #expect(try run.number("duplicate_downloads") == 0, "\(run.text)")
        #expect(try run.number("main_thread_checker_violations") == 0, "\(run.text)")
        // The guard against late answers holds live: no cancelled work changes the table.
        #expect(try run.number("late_completions") == 0, "\(run.text)")
        #expect(try run.live("visible_rows_final_at_end") as? Bool == true, "\(run.text)")
        let shows = try run.finalScreen.map(\.shows)
        #expect(!shows.isEmpty && shows.allSatisfy { $0 == "image" || $0 == "failed" }, "\(run.text)")
        // The first screen and the rows the flings pass and stop at are more than one screen's posters.
        #expect(try run.number("requests_started") > 8, "\(run.text)")
        #expect(try run.number("requests_started") == run.serverRequests, "\(run.text)")
        // Coming back to the top, the first screen's posters come from the memory cache.
        #expect(try run.number("memory_cache_hits") >= 1, "\(run.text)")
        #expect(try run.number("decodes") >= run.number("requests_completed"), "\(run.text)")
    }

    /// Flings back to back, each finger landing as the fling before comes to rest, on a link slow enough
    /// that step 3's one-wide queue still holds the first screen's work when the first fling begins. The
    /// simulator takes each of those touches a frame after the rest, so each of the three stops between
    /// the flings is on screen for a frame, and step 3, which loads only when the table is still, starts a
    /// download for it before the next touch holds its queues again.
    static let backToBackScenario = """
        rows 200
        seed 23
        network rtt=800ms jitter=300ms bandwidth=150KB/s connections=6 timeout=15s
        wait 1s
        fling to row 40
        fling to row 10
        fling to row 45
        fling to row 12
        wait 1s
        """

    @Test(
        "Live, a touch that lands as a fling comes to rest waits a frame, and step 3 loads the rows it stopped on"
    )
    func touchAfterARestWaitsAFrame() throws {
        let run = try LiveStepRun(step: "Step3IdleOnly", scenario: Self.backToBackScenario)
        let log = try #require(run.report["server_log"] as? [[String: Any]], "\(run.text)")
        let lastScreen = Set(try run.finalScreen.compactMap(\.url))
        let atStopsBetween = log.filter { request in
            guard let url = request["url"] as? String, let arrived = request["arrived_ms"] as? NSNumber else {
                return false
            }
            return arrived.doubleValue > 1000 && !lastScreen.contains(url)
        }
        // One download a stop; a loaded machine may start one late enough for the next touch to hold it.
        #expect(atStopsBetween.count >= 2, "\(run.text)")
    }

    /// A pause longer than Linux's dispatch pool keeps an idle thread, then a fling: at its stop step 4's
    /// download queue, five wide, starts five downloads at once, as the simulator does. The round trip is
    /// long enough that none of them can end before all five have arrived.
    static let pauseScenario = """
        rows 40
        seed 7
        network rtt=400ms jitter=20ms bandwidth=2000KB/s connections=6
        screen height=667 row=88 refresh=60
        wait 7s
        fling to row 25
        wait 1.5s
        """

    @Test(
        "Live, after a long pause step 4's queue starts its five downloads at once, with no wait for pool threads"
    )
    func pausedPoolStartsAtOnce() throws {
        let run = try LiveStepRun(step: "Step4CacheAndPrefetch", scenario: Self.pauseScenario)
        let log = try #require(run.report["server_log"] as? [[String: Any]], "\(run.text)")
        let atTheStop = log.compactMap { request -> (arrived: Double, ended: Double)? in
            guard let arrived = (request["arrived_ms"] as? NSNumber)?.doubleValue, arrived > 7000,
                let ended = (request["ended_ms"] as? NSNumber)?.doubleValue
            else { return nil }
            return (arrived, ended)
        }
        .sorted { $0.arrived < $1.arrived }
        try #require(atTheStop.count >= 5, "\(run.text)")
        // The pool adds a thread about once a second: waiting for threads, the later requests arrive after
        // the first have ended; at once, all five arrive before any of them ends.
        let firstEnd = try #require(atTheStop.prefix(5).map(\.ended).min())
        #expect(
            atTheStop[4].arrived < firstEnd,
            "the stop's first five requests arrived and ended at \(atTheStop.prefix(5))")
    }

    /// Step 1 keeps a poster only in a cell: at most the rows a 667-point screen of 88-point rows shows (9,
    /// counting the two it cuts), and the decoded and filtered poster it is making. So the judge, which
    /// looks at every poster shown, must not keep one alive either.
    @Test("Live, step 1 holds no more pictures than its cells and the one it is making, flings included")
    func stepOneHoldsOnlyItsCellsPictures() throws {
        let run = try LiveStepRun(step: "Step1Naive", scenario: Self.warningScenario)
        let posterBytes = 180 * 270 * 4
        let rowsOnScreen = Int((667.0 / 88).rounded(.up)) + 1
        #expect(
            try run.number("peak_image_memory_bytes") <= Double((rowsOnScreen + 2) * posterBytes),
            "\(run.text)")
    }

    /// Without cancel-on-reuse, step 5's loads are still cancelled at each stop (the rows left), and the one
    /// whose poster was already on its way to the main actor on `mix-up` lands in the reused cell anyway.
    @Test("Live, step 5 without cancel-on-reuse counts the late completion that shows a wrong picture")
    func lateCompletionsAreMeasured() throws {
        let mixUp = try String(contentsOfFile: Self.builtIn("mix-up"), encoding: .utf8)
        let run = try LiveStepRun(
            step: "Step5Concurrency", scenario: mixUp, arguments: ["--without", "cancel-on-reuse"])
        #expect(try run.number("wrong_image_events") >= 1, "\(run.text)")
        #expect(try run.number("late_completions") >= 1, "\(run.text)")
    }

    /// A built-in scenario's file, from the workbook's sources.
    static func builtIn(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../Sources/Scenarios/Resources/Scenarios/\(name).scenario"
        ).standardized.path
    }

    @Test(
        "A live step refuses a bad option, a bad value or a technique it does not have in one line, with status 2",
        arguments: [
            ["--frobnicate"], ["--seed", "x"], ["--without", "prefetch"], ["--concurrency"],
            ["--settle-limit", "-1"],
        ])
    func badArgumentsAreOneLine(arguments: [String]) throws {
        let ended = try LiveStepRun.statusAndErrors(LiveStepRun.executable("Step3IdleOnly"), arguments)
        #expect(ended.status == 2, "\(ended.errors)")
        #expect(
            ended.errors.hasPrefix("Step3IdleOnly: ") && ended.errors.split(separator: "\n").count == 1,
            "\(ended.errors)")
    }

    /// Two flings that leave loads under way behind them, a rest, then a memory warning.
    static let warningScenario = """
        rows 200
        seed 7
        network rtt=100ms jitter=20ms bandwidth=2000KB/s connections=6 timeout=10s
        screen height=667 row=88 refresh=60
        wait 1s
        fling to row 60
        wait 0.2s
        fling to row 120
        wait 1.5s
        memory-warning
        wait 1s
        """

    /// Each request the server saw cancelled was an operation (or a task's transfer) the app cancelled
    /// before it finished; a cache emptied by the warning lets go of the posters no cell shows (which a
    /// completion block that keeps its own operation alive, as swift-corelibs-foundation's does, prevents).
    @Test(
        "Live, flings cancel operations, one at least per request the server saw cancelled, and a memory warning frees pictures",
        arguments: ["Step3IdleOnly", "Step4CacheAndPrefetch", "Step5Concurrency"])
    func cancellationsAndWarningsAreMeasured(step: String) throws {
        let run = try LiveStepRun(step: step, scenario: Self.warningScenario)
        #expect(try run.number("operations_cancelled") >= run.number("requests_cancelled"), "\(run.text)")
        // Steps 3 and 4 leave operations behind at each stop or reuse; step 5's count is only the transfers
        // under way when their task was cancelled, which the machine's speed decides.
        if step != "Step5Concurrency" {
            #expect(try run.number("operations_cancelled") >= 1, "\(run.text)")
        }
        if step != "Step3IdleOnly" {
            #expect(try run.number("memory_warning_freed_bytes") > 0, "\(run.text)")
        }
    }
}

/// One live run of a step executable built beside the tests, and its `--json` report.
struct LiveStepRun {
    /// Why a run could not be read.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let text: String
    let report: [String: Any]
    /// What the step wrote on standard error.
    let errors: String

    /// The step executable `step` built beside the tests.
    static func executable(_ step: String) throws -> URL {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let executable = folder.appendingPathComponent(step)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Failure(
                description: "no \(step) beside the tests in \(folder.path): build the package first")
        }
        return executable
    }

    /// Runs `step` on a scenario written to a temporary file, with `arguments` after `--json`, and reads
    /// its report. With `descriptorLimit`, the step may open at most that many files and sockets; `during`
    /// is called with the step's process id once it has started, while it runs.
    init(
        step: String, scenario: String, arguments: [String] = [], descriptorLimit: Int? = nil,
        during: ((Int32) throws -> Void)? = nil
    ) throws {
        let executable = try Self.executable(step)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID()).scenario")
        try Data(scenario.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        let stepArguments = ["--scenario", file.path, "--json"] + arguments
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", executable.path] + stepArguments
        } else {
            process.executableURL = executable
            process.arguments = stepArguments
        }
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        let watchdog = DispatchWorkItem { [process] in process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        let errorBytes = LiveStepRun.readInBackground(errorOutput)
        try during?(process.processIdentifier)
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        errors = String(decoding: errorBytes(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(step) exited with status \(process.terminationStatus)")
        }
        text = String(decoding: bytes, as: UTF8.self)
        guard let report = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any] else {
            throw Failure(description: "\(step) printed no JSON object:\n\(text)")
        }
        self.report = report
    }

    /// Runs `executable` with `arguments`, its standard output discarded, and waits for it to end (it is
    /// stopped after two minutes); its status and what it wrote on standard error.
    static func statusAndErrors(_ executable: URL, _ arguments: [String]) throws -> (
        status: Int32, errors: String
    ) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errorOutput = Pipe()
        process.standardError = errorOutput
        try process.run()
        let watchdog = DispatchWorkItem { [process] in process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        let errors = readInBackground(errorOutput)
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, String(decoding: errors(), as: UTF8.self))
    }

    /// Reads a pipe to its end on another thread; the closure returns what it read, once it has.
    static func readInBackground(_ pipe: Pipe) -> () -> Data {
        /// `@unchecked Sendable`: `bytes` is written once before `done` is signalled and read after it.
        final class Reading: @unchecked Sendable {
            let done = DispatchSemaphore(value: 0)
            var bytes = Data()
        }
        let reading = Reading()
        Thread.detachNewThread {
            reading.bytes = pipe.fileHandleForReading.readDataToEndOfFile()
            reading.done.signal()
        }
        return {
            reading.done.wait()
            return reading.bytes
        }
    }

    /// The report's notices: what the run told its user beyond the numbers.
    var notices: [String] { report["notices"] as? [String] ?? [] }

    /// The value of a metric (`"hangs": 2`); a figure not measured live (null) is a failure.
    func number(_ key: String) throws -> Double {
        guard let metrics = report["metrics"] as? [String: Any], let value = metrics[key] as? NSNumber else {
            throw Failure(description: "no figure for \(key) in the report:\n\(text)")
        }
        return value.doubleValue
    }

    /// A value of the report's `live` object.
    func live(_ key: String) throws -> Any {
        guard let live = report["live"] as? [String: Any], let value = live[key] else {
            throw Failure(description: "no \(key) in the report's live object:\n\(text)")
        }
        return value
    }

    /// How many requests the server logged.
    var serverRequests: Double {
        get throws {
            guard let count = try live("server_requests_logged") as? NSNumber else {
                throw Failure(description: "no server log count in the report:\n\(text)")
            }
            return count.doubleValue
        }
    }

    /// The rows on screen at the end, top to bottom, what each shows and its poster's URL (nil for none).
    var finalScreen: [(row: Int, shows: String, url: String?)] {
        get throws {
            guard let rows = report["final_screen"] as? [[String: Any]] else {
                throw Failure(description: "no final screen in the report:\n\(text)")
            }
            return try rows.map { row in
                guard let number = (row["row"] as? NSNumber)?.intValue, let shows = row["shows"] as? String
                else {
                    throw Failure(description: "a final-screen row without its row and shows:\n\(text)")
                }
                return (number, shows, row["url"] as? String)
            }
        }
    }
}
