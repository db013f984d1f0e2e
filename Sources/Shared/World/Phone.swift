import Foundation
import Catalog
import Imaging
import Report
import Runtime
import Scenarios

/// The simulated phone: virtual time, threads, network, disk, memory, the screen, and the app running on
/// it, driven through one scenario.
///
/// Make one per run with `Phone.run(...)`; every run with the same scenario, seed and app is the same run.
public final class Phone {
    /// The phone whose simulated thread calls this (nil outside the simulation).
    public static var current: Phone? { SimulatedThread.current?.host as? Phone }

    /// The scenario being played.
    public let scenario: Scenario
    /// The seed of every random choice.
    public let seed: UInt64
    /// The catalog rows the app lists (the scenario's `rows`).
    public let movies: [Movie]
    /// What each kind of work costs.
    public let costs: CostModel
    /// The network the app downloads through.
    public private(set) var network: Network!
    /// The storage the app caches on.
    public private(set) var disk: Disk!

    let scheduler = Scheduler()
    let recorder: Recorder

    /// The current virtual time in microseconds since the phone started.
    public var now: Int64 { scheduler.now }
    let memory = MemoryTracker()
    private let timeline: GestureTimeline
    private let makeApp: () -> TableViewController

    // The app of the current launch.
    /// Which launch of the app is running: 1, then one more at every relaunch.
    package private(set) var launch = 1
    private var app: TableViewController?
    private var mainThread: SimulatedThread?
    package private(set) var mainQueue: OperationQueue!
    private var appThreads: [SimulatedThread] = []
    private var appQueues: [OperationQueue] = []
    /// The main-queue blocks and the main thread's idle stretch.
    private let mainBlocks = MainQueueBlocks()
    private var completionThreads: CompletionThreads?

    /// Scrolling as the app has seen it: the gestures it has taken in.
    private let scrolling: ScrollDriver
    /// The frame clock: vsync, when the next frame is due, and which frames were late.
    private let frames: FrameClock
    /// What the screen shows: cells, wrong pictures, placeholders and stops.
    private let screen: ScreenAudit
    var deliveries: [Data: [Int]] = [:]

    private init(
        scenario: Scenario, seed: UInt64, movies: [Movie], costs: CostModel, keepsTrace: Bool,
        keepsStopSnapshots: Bool, makeApp: @escaping () -> TableViewController
    ) {
        self.scenario = scenario
        self.seed = seed
        self.movies = movies
        self.costs = costs
        self.makeApp = makeApp
        recorder = Recorder(scheduler: scheduler, keepsTrace: keepsTrace)
        screen = ScreenAudit(recorder: recorder, movies: movies, keepsStopSnapshots: keepsStopSnapshots)
        timeline = GestureTimeline(
            actions: scenario.actions, rows: movies.count, rowHeight: Double(scenario.screen.rowHeight),
            viewport: Double(scenario.screen.height))
        frames = FrameClock(refreshRate: scenario.screen.refreshRate, recorder: recorder)
        scrolling = ScrollDriver(
            timeline: timeline, scheduler: scheduler, recorder: recorder, screen: screen, frames: frames,
            delegateCallback: costs.delegateCallback)
    }

    /// Plays a scenario with an app and returns what was measured.
    ///
    /// - Parameters:
    ///   - step: the step's name, for the report.
    ///   - diskRoot: the folder that holds the phone's disk; nil makes a fresh temporary one, removed after.
    ///   - makeApp: makes the app's controller; called on the simulated main thread at every launch.
    public static func run(
        step: String, scenario: Scenario, seed: UInt64, movies: [Movie],
        options: PhoneOptions = PhoneOptions(),
        makeApp: @escaping () -> TableViewController
    ) throws -> RunResult {
        let phone = Phone(
            scenario: scenario, seed: seed, movies: movies, costs: options.costs,
            keepsTrace: options.keepsTrace, keepsStopSnapshots: options.keepsStopSnapshots, makeApp: makeApp)
        let server = try PosterServer(postersDirectory: options.postersDirectory)
        let temporaryRoot: URL?
        let root: URL
        if let diskRoot = options.diskRoot {
            root = diskRoot
            temporaryRoot = nil
        } else {
            root = Disk.makeTemporaryRoot()
            temporaryRoot = root
        }
        defer { if let temporaryRoot { Disk.removeTemporaryRoot(temporaryRoot) } }
        phone.disk = try Disk(
            phone: phone, root: root, costs: options.costs, fullAfterWrites: scenario.diskFullAfterWrites,
            posterSource: server.fingerprint)
        phone.network = Network(
            phone: phone, server: server, settings: scenario.network, faults: scenario.faults, seed: seed)
        let result = phone.play(step: step, server: server)
        return result
    }

    // MARK: The run

    private func play(step: String, server: PosterServer) -> RunResult {
        for (index, gesture) in timeline.gestures.enumerated() {
            scheduler.schedule(at: gesture.start) { [self] in
                if scrolling.awaits(gesture: index) { mainThread?.wake() }
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
        // Let the app settle: finish what it started, up to ten virtual minutes.
        let settleLimit = timeline.endTime + 600_000_000
        while scheduler.now < settleLimit && !isQuiet {
            scheduler.run(until: min(settleLimit, scheduler.now + 100_000))
        }
        let endTime = scheduler.now
        let finalScreen = screen.snapshot(label: "end", table: app?.tableView, now: endTime)
        screen.leaveOpenStop(at: endTime, table: app?.tableView, now: endTime)
        frames.endScrolling(at: endTime)
        screen.countPlaceholders(until: endTime)
        killApp()
        app = nil
        scheduler.shutDown()
        recorder.finish(peakImageMemory: memory.peakBytes)
        return RunResult(
            step: step, scenario: scenario.name, seed: seed, virtualMicroseconds: endTime,
            metrics: recorder.metrics,
            oracle: Oracle(
                timeline: timeline, movies: movies, rowHeight: Double(scenario.screen.rowHeight),
                viewport: Double(scenario.screen.height), server: server),
            finalScreen: finalScreen, stops: screen.stopSnapshots, trace: recorder.trace)
    }

    /// Whether the app has nothing left to do: no main-queue work, no frames, no queued operations, no
    /// transfers.
    private var isQuiet: Bool {
        guard mainBlocks.isEmpty, !needsFrame, network.isIdle, completionThreads?.isBusy != true else {
            return false
        }
        return appQueues.allSatisfy { $0.operationCount == 0 }
    }

    // MARK: Launch, relaunch, memory warnings

    private func startApp() {
        recorder.launched()
        mainQueue = OperationQueue(host: self, isMainQueue: true)
        completionThreads = CompletionThreads(host: self)
        scrolling.launched()
        frames.stop()
        // The new main thread is busy from the start: launching.
        mainBlocks.mainThreadStarted(at: scheduler.now)
        screen.launched(at: scheduler.now)
        mainThread = startAppThread(name: "main") { [self] thread in
            self.mainThreadLoop(thread)
        }
    }

    /// Starts a thread that belongs to the current app (killed at a relaunch).
    package func startAppThread(name: String, body: @escaping (SimulatedThread) -> Void) -> SimulatedThread {
        let thread = scheduler.startThread(name: name) { thread in body(thread) }
        thread.host = self
        appThreads.append(thread)
        return thread
    }

    /// Registers a queue the app made, so the phone can tell when it is idle and kill it at a relaunch.
    package func register(queue: OperationQueue) {
        appQueues.append(queue)
    }

    private func killApp() {
        // Nothing of a killed app runs again: its waiting operations go without their blocks, which would
        // otherwise keep the whole app alive (controller → queue → operation → completion block → controller).
        for queue in appQueues { queue.abandonWaitingOperations() }
        completionThreads?.abandon()
        completionThreads = nil
        for thread in appThreads {
            thread.isKilled = true
            thread.interrupt()
        }
        appThreads = []
        appQueues = []
        mainBlocks.removeAll()
        launch += 1
        mainThread = nil
    }

    private func relaunch() {
        recorder.event(.relaunch)
        // A finger that landed while the main thread was blocked had already left the stop.
        screen.leaveOpenStop(
            at: scrolling.pendingTouchDown(before: scheduler.now + 1) ?? scheduler.now, table: app?.tableView,
            now: scheduler.now)
        frames.endScrolling(at: scheduler.now)
        screen.countPlaceholders(until: scheduler.now)
        killApp()
        app = nil
        startApp()
    }

    private func sendMemoryWarning() {
        recorder.event(.memoryWarning)
        let warning = BlockOperation { [weak self] in
            guard let self, let app else { return }
            let before = memory.liveBytes
            app.didReceiveMemoryWarning()
            recorder.memoryWarningHandled(before: before, after: memory.liveBytes)
        }
        enqueueOnMainThread(warning, origin: nil)
    }

    // MARK: The main thread

    /// Queues an operation to run on the main thread at its next turn.
    package func enqueueOnMainThread(_ operation: Operation) {
        let caller = SimulatedThread.current
        if caller?.isKilled == true { return }
        enqueueOnMainThread(operation, origin: caller?.runningOperation)
    }

    /// The main queue's operations: the running block, then the waiting ones in order.
    package var mainQueueOperations: [Operation] { mainBlocks.operations }

    /// Dispatches a finished operation's completion block to a completion thread of the app, as
    /// Foundation dispatches it to a global queue. A killed app's completions never run.
    package func dispatchCompletion(_ block: @escaping () -> Void, of operation: Operation) {
        guard SimulatedThread.current?.isKilled != true, let completionThreads else { return }
        completionThreads.dispatch(block, of: operation)
    }

    private func enqueueOnMainThread(_ operation: Operation, origin: Operation?) {
        mainBlocks.append(operation, origin: origin)
        mainThread?.wake()
    }

    private var needsFrame: Bool {
        guard let table = app?.tableView else { return true }
        if table.needsReload || table.isDragging || table.isDecelerating { return true }
        return scrolling.hasTouchWaiting
    }

    private func mainThreadLoop(_ thread: SimulatedThread) {
        let launchStart = scheduler.now
        let controller = makeApp()
        app = controller
        controller.viewDidLoad()
        recorder.mainThreadBusy(scheduler.now - launchStart, kind: "launch")
        while !thread.isInterrupted {
            if !mainBlocks.isEmpty {
                mainBlocks.noteBusy(at: scheduler.now)
                runMainBlock()
                continue
            }
            if needsFrame {
                frames.start(at: scheduler.now)
                // A frame that is overdue (main-queue work held the main thread past its vsync) starts
                // as soon as the main thread is free, as a display link that fired meanwhile does.
                if scheduler.now < frames.nextFrameDue {
                    frames.armTimer(at: frames.nextFrameDue, on: scheduler) { [self] in mainThread?.wake() }
                    mainBlocks.noteIdle(at: scheduler.now)
                    thread.park()
                    continue
                }
                mainBlocks.noteBusy(at: scheduler.now)
                runFrame()
                continue
            }
            frames.stop()
            mainBlocks.noteIdle(at: scheduler.now)
            thread.park()
        }
    }

    private func runMainBlock() {
        let (operation, origin) = mainBlocks.takeNext()
        let start = scheduler.now
        spendOnMain(costs.mainQueueBlock)
        mainBlocks.run(operation, origin: origin)
        guard SimulatedThread.current?.isKilled != true else { return }
        // What the block changed is on screen at the next vsync.
        commit(presentedAt: frames.presentation(afterWorkEndingAt: scheduler.now))
        recorder.mainThreadBusy(scheduler.now - start, kind: "block")
    }

    /// One frame: takes in every touch that arrived, lays the table out once, commits, and counts the
    /// frame's lateness if it overlaps a scroll interval.
    private func runFrame() {
        guard let table = app?.tableView, let controller = app else { return }
        let start = scheduler.now
        spendOnMain(costs.frameBase)
        scrolling.deliverTouches(table: table, controller: controller) { [self] in
            mainBlocks.wasIdle(at: $0, now: scheduler.now)
        }
        table.layoutIfNeeded()
        guard SimulatedThread.current?.isKilled != true else { return }
        let end = scheduler.now
        let presented = frames.presentation(ofFrameEndingAt: end)
        // A finger that landed while this frame was blocked began a scroll interval the frame overlaps.
        frames.presented(
            at: presented, pendingTouch: scrolling.pendingTouchDown(before: presented),
            showsRest: !scrolling.gestureBegun)
        commit(presentedAt: presented)
        recorder.mainThreadBusy(end - start, kind: "frame")
    }

    /// Blocks the main thread (or whichever simulated thread calls) for a UIKit-like cost.
    func spendOnMain(_ micros: Int64) {
        SimulatedThread.current?.sleep(for: micros)
    }

    /// A main-queue block is changing the table: if it came from a cancelled operation (or is a job of a
    /// cancelled task), that is late.
    func tableMutated() {
        let cancelledTask = withUnsafeCurrentTask { $0?.isCancelled ?? false }
        guard mainBlocks.tableMutatedLate(cancelledTask: cancelledTask) else { return }
        recorder.lateCompletion()
    }

    /// The app served a picture from its memory cache.
    func countMemoryCacheHit() { recorder.memoryCacheHit() }

    /// The app served a picture from its disk cache.
    func countDiskCacheHit() { recorder.diskCacheHit() }

    /// The app stopped using its disk cache for the rest of the launch.
    func reportDiskCacheOff(reason: String) { recorder.diskCacheOff(reason: reason) }

    /// Checks the screen after main-thread work that will be presented at `presented`.
    private func commit(presentedAt presented: Int64) {
        guard let table = app?.tableView else { return }
        screen.commit(
            table: table, now: scheduler.now, presented: presented,
            fingerDown: scrolling.pendingTouchDown(before: presented) != nil)
    }

    // MARK: Image work

    /// Delivered bytes, so the picture decoded from them can be traced to its download.
    func registerDelivery(_ data: Data, download: Int) {
        deliveries[data, default: []].append(download)
    }

    /// Decodes bytes on the calling thread, charging the cost; nil when they are not a PNG.
    func decode(_ data: Data) -> (bitmap: Bitmap, sourceURL: String?, downloadID: Int?)? {
        let thread = SimulatedThread.current
        let bitmap = PosterMemo.shared.decode(data)
        let source = PosterStamp.source(of: [UInt8](data.prefix(4096)))
        let cost =
            bitmap.map { costs.decode(pixels: $0.width * $0.height) } ?? costs.failedDecode(bytes: data.count)
        recorder.decoded(url: source, thread: thread?.name ?? "?", micros: cost, succeeded: bitmap != nil)
        if bitmap == nil, let reason = PosterLimits.refusal(of: [UInt8](data.prefix(24))) {
            recorder.event(.posterRefused(url: source, reason: reason))
        }
        thread?.sleep(for: cost)
        guard let bitmap else { return nil }
        return (bitmap, source, takeDelivery(of: data))
    }

    /// The download whose bytes these are, taken from those waiting to be decoded (oldest first), if any.
    func takeDelivery(of data: Data) -> Int? {
        guard var waiting = deliveries[data], !waiting.isEmpty else { return nil }
        let download = waiting.removeFirst()
        deliveries[data] = waiting.isEmpty ? nil : waiting
        return download
    }

    /// Filters a bitmap on the calling thread, charging the cost.
    func filter(_ bitmap: Bitmap, intensity: Double, sourceURL: String?) -> Bitmap {
        let thread = SimulatedThread.current
        let cost = costs.filter(pixels: bitmap.width * bitmap.height)
        recorder.filtered(url: sourceURL, thread: thread?.name ?? "?", micros: cost)
        let filtered = PosterMemo.shared.sepia(bitmap, intensity: intensity)
        thread?.sleep(for: cost)
        return filtered
    }
}
