import Catalog
import Dispatch
import Files
import Foundation
import Imaging
import LiveLock
import LiveServer
import Posters
import Scenarios

/// The screen the table fills, from the scenario's `screen` line.
struct LiveScreen: Sendable {
    var height = 667.0
    var rowHeight = 88.0
    var refreshRate = 60.0

    /// The screen of this process's run, set before the app is made.
    static var current: LiveScreen { shared.withLock { $0 } }

    static func use(_ screen: LiveScreen) { shared.withLock { $0 = screen } }

    private static let shared = Mutex(LiveScreen())
}

/// One live run of a step: the loopback server with the scenario's network, the app on the real main
/// thread, the scenario's gestures played on the wall clock at the screen's refresh rate.
final class LiveRun {
    let step: String
    let scenario: Scenario
    let seed: UInt64
    let options: RunOptions
    let makeApp: (RunOptions) -> TableViewController
    let server: LiveServer
    let timeline: GestureTimeline
    /// The catalog's URLs by the plain `http` address the server sees.
    let catalogURLs: [String: String]
    /// The run's wall clock, started when the app is first launched.
    private var clock = RunClock()
    /// The vsync period in microseconds.
    private let period: Double
    private var app: TableViewController?
    private var nextGesture = 0
    private var gestureBegun = false
    /// Whether a frame has presented the last launch's first layout.
    private var launchPresented = false
    private var scrollStart: Int64?
    private var scrollIntervals: [MainThreadWork.Stretch] = []
    private var lateFrames: [MainThreadWork.Stretch] = []
    private var frames = 0
    /// Late frames so far that app work made late while the table scrolled: the report's hitches.
    private var hitches = 0
    /// How long after the scenario's end the run may go on finishing its work, in microseconds.
    private let settleAllowance: Int64

    /// Sets up the run: the catalog, the app's private caches folder, the server with the run's secret and
    /// the proxy that carries it, before anything makes a `URLSession`.
    init(
        step: String, options: LiveOptions, makeApp: @escaping (RunOptions) -> TableViewController
    ) throws {
        self.step = step
        settleAllowance = options.settleAllowance
        scenario = try ScenarioParser.load(options.scenario)
        seed = options.seed ?? scenario.seed ?? 7
        self.options = options.run
        self.makeApp = makeApp
        let movies = try MovieCatalog.bundled().rows(scenario.rows)
        Phone.use(Phone(movies: movies))
        let screen = LiveScreen(
            height: Double(scenario.screen.height), rowHeight: Double(scenario.screen.rowHeight),
            refreshRate: Double(scenario.screen.refreshRate))
        LiveScreen.use(screen)
        timeline = GestureTimeline(
            actions: scenario.actions, rows: movies.count, rowHeight: screen.rowHeight,
            viewport: screen.height)
        period = 1_000_000 / Double(scenario.screen.refreshRate)
        let catalogURLs = Self.catalogURLs(movies)
        self.catalogURLs = catalogURLs
        let faults = scenario.faults
        let seed = seed
        Disk.use(
            folder: try TemporaryFiles.makeFolder(prefix: "workbook-live-caches"),
            writesBeforeFull: scenario.diskFullAfterWrites)
        let secret = LiveServer.makeSecret()
        server = try LiveServer(
            shape: Self.shape(scenario, seed: seed, catalogURLs: catalogURLs), secret: secret,
            content: { host, path, attempt in
                let url = catalogURLs["http://\(host)\(path)"] ?? "http://\(host)\(path)"
                let fault = faults.fault(url: url, attempt: attempt, seed: seed)
                return Self.answer(url, fault: fault, seed: seed)
            })
        let catalogHosts = Set(catalogURLs.values.compactMap { URL(string: $0)?.host })
        LiveSession.use(
            timeout: Double(scenario.network.timeoutMicroseconds) / 1e6,
            connections: scenario.network.connectionsPerHost * max(1, catalogHosts.count))
        setenv("http_proxy", LiveServer.proxy(port: server.port, secret: secret), 1)
        unsetenv("no_proxy")
        unsetenv("NO_PROXY")
        let stops = Self.postersAtStops(timeline, movies: movies, screen: screen)
        LiveDrawing.say(
            "making the posters of the \(stops.count) rows the scenario stops on, warming threads…")
        Self.prepare(posters: stops, poolWidth: Self.poolWidth)
    }

    /// The posters of the rows on screen at every stop of the scenario and the two rows past each screen,
    /// sorted: the ones the run surely asks for (any other is made when first asked for).
    private static func postersAtStops(_ timeline: GestureTimeline, movies: [Movie], screen: LiveScreen)
        -> [String]
    {
        var urls: Set<String> = []
        for offset in timeline.restOffsets {
            guard
                let rows = GestureTimeline.visibleRows(
                    at: offset, rowHeight: screen.rowHeight, viewport: screen.height, rowCount: movies.count)
            else { continue }
            for row in rows.lowerBound...min(movies.count - 1, rows.upperBound + 2) {
                if let url = movies[row].url { urls.insert(url.absoluteString) }
            }
        }
        return urls.sorted()
    }

    /// The catalog's URLs by the plain `http` address the server sees.
    private static func catalogURLs(_ movies: [Movie]) -> [String: String] {
        var urls: [String: String] = [:]
        for movie in movies {
            if let url = movie.url { urls[LiveAddress.plain(url).absoluteString] = url.absoluteString }
        }
        return urls
    }

    /// The scenario's network line as the server applies it: each request's latency is the round trip
    /// plus the jitter the simulator draws for the same URL and attempt (times the slow host's factor), and
    /// a request left unanswered is closed by the server `heldGrace` after the scenario's timeout (the
    /// app's URLSession, timed from the moment it sent the request, gives up first; `Data(contentsOf:)`,
    /// which cannot be given a timeout, sees the server close).
    private static func shape(_ scenario: Scenario, seed: UInt64, catalogURLs: [String: String]) -> LinkShape
    {
        let network = scenario.network
        let slowHost = scenario.faults.slowHost
        var shape = LinkShape(
            latency: { plain, attempt in
                let url = catalogURLs[plain] ?? plain
                var jitter = SeededGenerator(
                    seed: seed ^ FNV1a64.hash(url) &+ UInt64(attempt), stream: "network-jitter")
                var latency = network.rttMicroseconds + jitter.below(network.jitterMicroseconds)
                if let slowHost, URL(string: url)?.host == slowHost.host {
                    latency *= Int64(max(1, slowHost.factor))
                }
                return .microseconds(latency)
            },
            bytesPerSecond: Int(network.bandwidthBytesPerSecond),
            connectionsPerHost: network.connectionsPerHost,
            timeout: .microseconds(network.timeoutMicroseconds) + heldGrace)
        shape.clientTimeout = .microseconds(network.timeoutMicroseconds)
        return shape
    }

    /// How many of the dispatch pool's threads a run keeps ready for the app's queues.
    static let poolWidth = 6

    /// How much longer than the scenario's timeout the server holds a request it leaves unanswered.
    static let heldGrace = Duration.milliseconds(500)

    /// How long, in microseconds, the app must start nothing and have nothing under way before the run
    /// ends: the simulator, which sees the app's queues, looks for its quiet every 100 ms too.
    static let quietMoment: Int64 = 100_000

    /// What the server answers for a catalog URL: the generated poster stamped with its URL, the bytes
    /// the simulator's server sends, or 404 for a removed poster; with the request's fault, the
    /// simulator's answer to it: a 500 with its page, the body cut at the same 3/5, the same flipped
    /// bytes (before the stamp, as there), no answer at all.
    private static func answer(_ url: String, fault: Fault?, seed: UInt64) -> LiveResponse {
        let removed = url.contains("/removed/")
        var response =
            removed
            ? LiveResponse(status: 404, body: RemovedPosterPage.body, contentType: "text/html")
            : LiveResponse(status: 200, body: PosterMemo.shared.png(for: url))
        switch fault {
        case .timeout: response.unanswered = .held
        case .refused: response.unanswered = .closed
        case .serverError:
            response = LiveResponse(status: 500, body: Fault.serverErrorBody, contentType: "text/html")
        case .truncated: response.truncatedAfter = Fault.truncatedLength(of: response.body.count)
        case .corrupt:
            response.body = FaultSettings.corrupted(response.body, url: url, seed: seed)
        case nil: break
        }
        if response.status == 200 { response.body = PosterStamp.stamp(response.body, url: url) }
        return response
    }

    /// Makes the posters, on the dispatch pool, and keeps `poolWidth` of the pool's threads busy at once
    /// before returning: Linux's pool starts about two threads wide and grows about one a second, so a
    /// fresh process's queues would otherwise wait for threads (an iPhone's do not).
    private static func prepare(posters: [String], poolWidth: Int) {
        let warmup = PoolWarmup()
        let group = DispatchGroup()
        let deadline = Date(timeIntervalSinceNow: 15)
        for _ in 0..<poolWidth {
            DispatchQueue.global().async(group: group) {
                while let index = warmup.take(below: posters.count) {
                    _ = PosterMemo.shared.png(for: posters[index])
                }
                warmup.arrive(waitingFor: poolWidth, until: deadline)
            }
        }
        group.wait()
    }

    /// Plays the scenario to its end, and on while the app still has requests under way, up to the time
    /// limit (`settleAllowance` after the scenario's end): then the server is cut, so a main thread
    /// blocked in a download comes back, and the report says the run was cut. Returns the report.
    func run() -> LiveReport {
        // A timer far away keeps the main run loop waiting for its sources instead of returning at once.
        let keepAlive = Timer(timeInterval: 3600, repeats: true) { _ in }
        RunLoop.main.add(keepAlive, forMode: .default)
        clock = RunClock()
        MainThreadWork.start(on: clock)
        LiveJudge.start(clock: clock, timeline: timeline, period: period)
        LiveWaste.start()
        var systemEvents = timeline.systemEvents[...]
        let limit = timeline.endTime + settleAllowance
        let watchdog = CutWatchdog(step: step, server: server, after: limit - clock.now)
        let keeper = PoolKeeper(width: Self.poolWidth)
        defer { keeper.stop() }
        launch(at: 0)
        var due: Int64 = 0
        var cut = false
        // Since when, and with how many requests started, nothing has been under way.
        var quiet: (since: Int64, started: Int)?
        var started = 0
        while true {
            let begin = clock.now
            started = LiveCounters.requestsStarted
            if begin >= limit {
                cut = true
                break
            }
            // The scenario's end, or later if the main thread was blocked then: every gesture is taken in,
            // and nothing has been under way for a moment (an operation queue may start its next download
            // a little after the last one ended).
            if begin >= timeline.endTime && nextGesture >= timeline.gestures.count
                && LiveCounters.requestsInFlight == 0 && !server.isAnswering
            {
                if let quiet, quiet.started == started {
                    if begin - quiet.since >= Self.quietMoment { break }
                } else {
                    quiet = (begin, started)
                }
            } else {
                quiet = nil
            }
            let idleSince = MainThreadWork.lastEnd
            let restedAt: Bool = MainThreadWork.measure {
                while let event = systemEvents.first, event.time <= begin {
                    systemEvents.removeFirst()
                    switch event.event {
                    case .memoryWarning:
                        let before = LiveTally.imageMemoryNow
                        app?.didReceiveMemoryWarning()
                        LiveTally.memoryWarningHandled(before: before, after: LiveTally.imageMemoryNow)
                    case .relaunch: launch(at: event.time)
                    }
                }
                // A launch's first layout is presented before any touch is taken in, as UIKit commits it at
                // the end of the run loop turn that launched the app.
                let rested = launchPresented ? deliverTouches(now: begin, idleSince: idleSince) : false
                launchPresented = true
                app?.tableView.layoutIfNeeded()
                return rested
            }
            LiveJudge.frame(app?.tableView, at: begin)
            LiveDrawing.frame(app?.tableView, at: begin, hitches: hitches)
            let finished = clock.now
            let expected = vsync(atOrAfter: due + 1)
            let presented = vsync(atOrAfter: max(finished, expected))
            if presented > expected {
                let window = MainThreadWork.Stretch(start: expected, end: presented)
                lateFrames.append(window)
                // The status line's count: the window against the scroll under way, as the report will
                // count it once the scroll has come to rest.
                if let start = scrollStart,
                    MainThreadWork.lateness(
                        of: window, scrollIntervals: [.init(start: start, end: presented)],
                        stretches: MainThreadWork.stretches.suffix(64)) > 0
                {
                    hitches += 1
                }
            }
            if restedAt, let start = scrollStart {
                scrollIntervals.append(.init(start: start, end: presented))
                scrollStart = nil
            }
            frames += 1
            due = presented
            while clock.now < presented {
                _ = RunLoop.main.run(mode: .default, before: clock.date(at: presented))
            }
        }
        watchdog.finished()
        if let start = scrollStart { scrollIntervals.append(.init(start: start, end: clock.now)) }
        keepAlive.invalidate()
        LiveDrawing.finish()
        let wall = clock.now
        if cut {
            server.cut()
            LiveNotices.cut(atSeconds: Double(wall) / 1e6, settleSeconds: Double(settleAllowance) / 1e6)
        } else {
            server.stop()
        }
        // A request started after the end reaches a stopped server: it is not the run's.
        let log = Array(server.log(count: started, within: .seconds(10)).prefix(started))
        return LiveReport(
            step: step, scenario: scenario.name, seed: seed, wallMicroseconds: wall, frames: frames,
            requestsStarted: started, serverLog: log, clock: clock, stretches: MainThreadWork.stretches,
            lateFrames: lateFrames, scrollIntervals: scrollIntervals, screen: finalScreen(),
            judged: LiveJudge.finish(at: wall),
            tallies: Dictionary(
                uniqueKeysWithValues: LiveTally.Figure.allCases.map { ($0, LiveTally.value($0)) }),
            peakImageMemory: LiveTally.peakImageMemory, memoryWarningFreed: LiveTally.memoryWarningFreedBytes,
            shownBytes: LiveWaste.shownBytes,
            faults: scenario.faults, catalogURLs: catalogURLs, notices: LiveNotices.all)
    }

    /// The first vsync at or after `time`.
    private func vsync(atOrAfter time: Int64) -> Int64 {
        Int64((Double(time) / period).rounded(.up) * period)
    }

    /// Makes the app (again, at a relaunch at `time` on the scenario's timeline): a new controller, loaded
    /// and laid out at the top, that takes in the gestures starting from `time` on.
    private func launch(at time: Int64) {
        LiveJudge.launched(at: time)
        launchPresented = false
        nextGesture = timeline.gestures.firstIndex { $0.start >= time } ?? timeline.gestures.count
        gestureBegun = false
        MainThreadWork.measure {
            let app = makeApp(options)
            self.app = app
            app.viewDidLoad()
            app.tableView.layoutIfNeeded()
        }
    }

    /// Delivers every touch that arrived up to `now`, in order, as UIKit does when the main thread comes
    /// back to its run loop, moving the table and telling its delegate; true when a gesture came to rest.
    /// A touch-down that landed after `idleSince`, while the main thread waited for this frame, comes
    /// after a gesture that ends in this pass at the next frame, as the simulator takes it: the table that
    /// came to rest is on screen for a frame first, and the work the stop started gets going.
    private func deliverTouches(now: Int64, idleSince: Int64) -> Bool {
        guard let app else { return false }
        let table = app.tableView
        var rested = false
        while nextGesture < timeline.gestures.count {
            let gesture = timeline.gestures[nextGesture]
            guard gesture.start <= now else { break }
            if !gestureBegun {
                gestureBegun = true
                if scrollStart == nil { scrollStart = max(gesture.start, scrollIntervals.last?.end ?? 0) }
                table.isDragging = true
                app.scrollViewWillBeginDragging(table)
            }
            if now < gesture.release {
                table.scroll(to: gesture.offset(at: now))
                break
            }
            if table.isDragging {
                table.scroll(to: gesture.releaseOffset)
                app.scrollViewWillEndDragging(
                    table, withVelocity: gesture.velocity, targetContentOffset: gesture.restOffset)
                table.isDragging = false
                table.isDecelerating = gesture.decelerates
                app.scrollViewDidEndDragging(table, willDecelerate: gesture.decelerates)
                if !gesture.decelerates {
                    nextGesture += 1
                    gestureBegun = false
                    rested = true
                    if nextTouchLanded(since: idleSince) { break }
                    continue
                }
            }
            if now < gesture.end {
                table.scroll(to: gesture.offset(at: now))
                break
            }
            table.scroll(to: gesture.restOffset)
            table.isDecelerating = false
            app.scrollViewDidEndDecelerating(table)
            nextGesture += 1
            gestureBegun = false
            rested = true
            if nextTouchLanded(since: idleSince) { break }
        }
        return rested
    }

    /// Whether the next gesture's finger landed at or after `time`.
    private func nextTouchLanded(since time: Int64) -> Bool {
        nextGesture < timeline.gestures.count && timeline.gestures[nextGesture].start >= time
    }

    /// The rows on screen at the end and what each shows.
    private func finalScreen() -> [LiveReport.ScreenRow] {
        guard let table = app?.tableView else { return [] }
        return table.visibleCells.keys.sorted().compactMap { row in
            guard let cell = table.visibleCells[row] else { return nil }
            let image = cell.imageView.image
            let shows: String
            switch image?.kind {
            case .poster: shows = "image"
            case .failed: shows = "failed"
            case .placeholder, nil: shows = "placeholder"
            }
            return LiveReport.ScreenRow(
                row: row, shows: shows, imageHash: image?.kind == .poster ? image?.bitmap.contentHash : nil,
                title: cell.textLabel.text ?? "")
        }
    }
}

/// Keeps the dispatch pool's threads alive through a run: Linux's pool lets a thread go after about five
/// seconds without work and adds one back only about once a second, so after every pause longer than
/// that the app's queues would again wait for threads an iPhone has at once. Every `period` seconds,
/// `width` blocks on the pool meet for a moment (at most `meeting` seconds), so that many threads have
/// just had work.
private final class PoolKeeper: Sendable {
    private let stopped = Mutex(false)

    init(width: Int, period: TimeInterval = 2, meeting: TimeInterval = 0.02) {
        Thread.detachNewThread { [self] in
            while !stopped.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: period)
                let warmup = PoolWarmup()
                let deadline = Date(timeIntervalSinceNow: meeting)
                for _ in 0..<width {
                    DispatchQueue.global().async { warmup.arrive(waitingFor: width, until: deadline) }
                }
            }
        }
    }

    /// Ends the keeping, within `period`.
    func stop() { stopped.withLock { $0 = true } }
}

/// The posters handed out to the warming threads, and how many of them are waiting together.
///
/// `@unchecked Sendable`: both counts are read and written only while `condition` is held.
private final class PoolWarmup: @unchecked Sendable {
    private let condition = NSCondition()
    private var taken = 0
    private var arrived = 0

    /// The next poster's index, nil when all `count` are taken.
    func take(below count: Int) -> Int? {
        condition.withLock {
            defer { taken += 1 }
            return taken < count ? taken : nil
        }
    }

    /// Waits until `width` threads wait here together, or until `deadline`.
    func arrive(waitingFor width: Int, until deadline: Date) {
        condition.withLock {
            arrived += 1
            condition.broadcast()
            while arrived < width && condition.wait(until: deadline) {}
        }
    }
}
