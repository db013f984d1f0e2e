import Catalog
import Foundation
import Imaging
import Report
import Runtime
import Scenarios
import UI

/// The simulated phone: virtual time, threads, network, disk, memory, the screen, and the app running on
/// it, driven through one scenario.
///
/// Make one per run with `Phone.run(...)`; every run with the same scenario, seed and app is the same run.
public final class Phone {
    /// The phone whose simulated thread calls this (nil outside the simulation), for tests; the layers and
    /// the app reach their device as the thread's injected host (`SimulatedThread.host`) instead.
    package static var current: Phone? { SimulatedThread.currentHost(as: Phone.self) }

    package let scenario: Scenario
    /// The seed of every random choice.
    package let seed: UInt64
    /// The catalog rows the app lists (the scenario's `rows`).
    public let movies: [Movie]
    package let costs: CostModel
    /// The network the app downloads through.
    package private(set) var network: Network!
    /// The storage the app caches on.
    package private(set) var disk: Disk!

    let scheduler = Scheduler()
    package let recorder: Recorder

    /// The current virtual time in microseconds since the phone started.
    package var now: Int64 { scheduler.now }
    package let memory = MemoryTracker()
    let timeline: GestureTimeline
    /// Decodes and filters, priced.
    let imageWork: ImageWork
    /// The app's launches: their threads and queues.
    let process: AppProcess
    /// The main thread: blocks and frames in turn.
    let mainLoop: MainRunLoop
    /// Scrolling as the app has seen it: the gestures it has taken in.
    let scrolling: ScrollDriver
    /// The frame clock: vsync, when the next frame is due, and which frames were late.
    let frames: FrameClock
    /// What the screen shows: cells, wrong pictures, placeholders and stops.
    let screen: ScreenAudit
    /// What each poster URL answers.
    let server: PosterServer

    private init(
        scenario: Scenario, seed: UInt64, movies: [Movie], costs: CostModel, server: PosterServer,
        keepsTrace: Bool, keepsStopSnapshots: Bool, makeApp: @escaping () -> TableViewController
    ) {
        self.scenario = scenario
        self.seed = seed
        self.movies = movies
        self.costs = costs
        self.server = server
        recorder = Recorder(scheduler: scheduler, keepsTrace: keepsTrace)
        screen = ScreenAudit(
            recorder: recorder, movies: movies, server: server, keepsStopSnapshots: keepsStopSnapshots)
        timeline = GestureTimeline(
            actions: scenario.actions, rows: movies.count, rowHeight: Double(scenario.screen.rowHeight),
            viewport: Double(scenario.screen.height))
        imageWork = ImageWork(costs: costs, recorder: recorder)
        frames = FrameClock(refreshRate: scenario.screen.refreshRate, recorder: recorder)
        scrolling = ScrollDriver(
            timeline: timeline, scheduler: scheduler, recorder: recorder, screen: screen, frames: frames,
            delegateCallback: costs.delegateCallback)
        process = AppProcess(scheduler: scheduler)
        mainLoop = MainRunLoop(
            scheduler: scheduler, recorder: recorder, costs: costs, scrolling: scrolling, frames: frames,
            screen: screen, makeApp: makeApp)
    }

    /// Plays a scenario with an app and returns what was measured.
    ///
    /// - Parameters:
    ///   - step: the step's name, for the report.
    ///   - diskRoot: the folder that holds the phone's disk; nil makes a fresh temporary one, removed after.
    ///   - makeApp: makes the app's controller; called on the simulated main thread at every launch.
    package static func run(
        step: String, scenario: Scenario, seed: UInt64, movies: [Movie],
        options: PhoneOptions = PhoneOptions(),
        makeApp: @escaping () -> TableViewController
    ) throws -> RunResult {
        let server = try PosterServer(postersDirectory: options.postersDirectory)
        let phone = Phone(
            scenario: scenario, seed: seed, movies: movies, costs: options.costs, server: server,
            keepsTrace: options.keepsTrace, keepsStopSnapshots: options.keepsStopSnapshots, makeApp: makeApp)
        let temporaryRoot: URL?
        let root: URL
        if let diskRoot = options.diskRoot {
            root = diskRoot
            temporaryRoot = nil
        } else {
            root = try Disk.makeTemporaryRoot()
            temporaryRoot = root
        }
        defer { if let temporaryRoot { Disk.removeTemporaryRoot(temporaryRoot) } }
        phone.disk = try Disk(
            phone: phone, root: root, costs: options.costs, fullAfterWrites: scenario.diskFullAfterWrites,
            posterSource: server.fingerprint, onFirstSeal: options.onFirstSeal)
        phone.network = Network(
            phone: phone, server: server, settings: scenario.network, faults: scenario.faults, seed: seed)
        let result = phone.play(step: step, server: server)
        return result
    }

    // MARK: The run

    private func play(step: String, server: PosterServer) -> RunResult {
        for (index, gesture) in timeline.gestures.enumerated() {
            scheduler.schedule(at: gesture.start) { [self] in
                if scrolling.awaits(gesture: index) { mainLoop.wake() }
            }
        }
        for (time, event) in timeline.systemEvents {
            scheduler.schedule(at: time) { [self] in
                switch event {
                case .memoryWarning: sendMemoryWarning()
                case .relaunch: relaunch()
                }
            }
        }
        startApp()
        scheduler.run(until: timeline.endTime)
        // Let the app settle: finish what it started, up to the time limit.
        let settleLimit = timeline.endTime + GestureTimeline.settleAllowance
        while scheduler.now < settleLimit && !isQuiet {
            scheduler.run(until: min(settleLimit, scheduler.now + 100_000))
        }
        let endTime = scheduler.now
        if !isQuiet {
            for left in process.operationsLeft {
                recorder.operationLeft(left.operation, queue: left.queue, state: left.state)
            }
            mainLoop.countWorkUnderWay()
            recorder.cut(at: endTime, settleMicroseconds: GestureTimeline.settleAllowance)
        }
        let finalScreen = screen.snapshot(label: "end", table: mainLoop.app?.tableView, now: endTime)
        screen.leaveOpenStop(at: endTime, table: mainLoop.app?.tableView, now: endTime)
        frames.endScrolling(at: endTime)
        screen.countPlaceholders(until: endTime)
        killApp()
        scheduler.shutDown()
        recorder.finish(peakImageMemory: memory.peakBytes)
        var limit = Limit(
            timeline: timeline, movies: movies, screen: scenario.screen, network: scenario.network,
            faults: scenario.faults, server: server)
        limit.memoryCacheHits = recorder.memoryCacheHitsLimit
        return RunResult(
            step: step, scenario: scenario.name, seed: seed, virtualMicroseconds: endTime,
            metrics: recorder.metrics,
            oracle: Oracle(
                timeline: timeline, movies: movies, rowHeight: Double(scenario.screen.rowHeight),
                viewport: Double(scenario.screen.height), server: server),
            limit: limit, finalScreen: finalScreen, stops: screen.stopSnapshots, trace: recorder.trace,
            notices: recorder.notices)
    }

    /// Whether the app has nothing left to do: no main-queue work, no frames, no queued operations, no
    /// transfers.
    private var isQuiet: Bool { mainLoop.isIdle && network.isIdle && process.isIdle }
}
