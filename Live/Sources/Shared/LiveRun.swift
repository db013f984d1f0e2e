import Catalog
import Files
import Foundation
import LiveServer
import Scenarios

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
    /// Which gesture the app is taking in.
    private let gestures: GestureCursor
    /// Whether a frame has presented the last launch's first layout.
    private var launchPresented = false
    /// When the scroll under way began (a touch-down, or the end of the last scroll if later).
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
        gestures = GestureCursor(gestures: timeline.gestures)
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

    /// How long, in microseconds, the app must start nothing and have nothing under way before the run
    /// ends: the simulator, which sees the app's queues, looks for its quiet every 100 ms too.
    static let quietMoment: Int64 = 100_000

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
            if begin >= timeline.endTime && gestures.isFinished
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
        gestures.launched(at: time)
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
        return gestures.deliver(
            now: { now }, to: Touches(run: self, app: app), waitsForNextPass: { $0 >= idleSince })
    }

    /// A scroll begins with a touch-down at `time`, unless one is under way.
    private func scrollBegins(at time: Int64) {
        if scrollStart == nil { scrollStart = max(time, scrollIntervals.last?.end ?? 0) }
    }

    /// The calls a gesture makes to the app's table and its delegate.
    private struct Touches: GestureReceiver {
        let run: LiveRun
        let app: TableViewController

        func touchDown(_ gesture: GestureTimeline.Gesture) {
            run.scrollBegins(at: gesture.start)
            app.tableView.isDragging = true
            app.scrollViewWillBeginDragging(app.tableView)
        }

        func scroll(to offset: Double) {
            app.tableView.scroll(to: offset)
        }

        func fingerLifted(_ gesture: GestureTimeline.Gesture) {
            let table = app.tableView
            app.scrollViewWillEndDragging(
                table, withVelocity: gesture.velocity, targetContentOffset: gesture.restOffset)
            table.isDragging = false
            table.isDecelerating = gesture.decelerates
            app.scrollViewDidEndDragging(table, willDecelerate: gesture.decelerates)
        }

        func decelerationEnded(_ gesture: GestureTimeline.Gesture) {
            app.tableView.isDecelerating = false
            app.scrollViewDidEndDecelerating(app.tableView)
        }

        func gestureFinished(_ gesture: GestureTimeline.Gesture) {}
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
            case .failure: shows = "failed"
            case .placeholder, nil: shows = "placeholder"
            }
            return LiveReport.ScreenRow(
                row: row, shows: shows, imageHash: image?.kind == .poster ? image?.bitmap.contentHash : nil,
                title: cell.textLabel.text ?? "")
        }
    }
}
