import Report
import Runtime
import UI

/// The app's main thread: it makes the app's controller, then runs main-queue blocks and frames in turn,
/// parks when there is nothing to do, and has the screen checked after each piece of work.
final class MainRunLoop {
    /// The main-queue blocks and the main thread's idle stretch.
    let blocks = MainQueueBlocks()
    /// The app's controller of the running launch (nil before it is made and after the app is killed).
    private(set) var app: TableViewController?
    private var thread: SimulatedThread?
    /// The running launch's stretch of main-thread work under way: when it began and what it is (nil while
    /// the main thread waits).
    private var working: (start: Int64, kind: String)?
    /// Set once the run is cut: a stretch under way was counted then, and is not counted again when the
    /// killed thread comes back.
    private var cut = false

    private unowned let scheduler: Scheduler
    private let recorder: Recorder
    private let costs: CostModel
    private let scrolling: ScrollDriver
    private let frames: FrameClock
    private let screen: ScreenAudit
    private let makeApp: () -> TableViewController

    init(
        scheduler: Scheduler, recorder: Recorder, costs: CostModel, scrolling: ScrollDriver,
        frames: FrameClock,
        screen: ScreenAudit, makeApp: @escaping () -> TableViewController
    ) {
        self.scheduler = scheduler
        self.recorder = recorder
        self.costs = costs
        self.scrolling = scrolling
        self.frames = frames
        self.screen = screen
        self.makeApp = makeApp
    }

    /// Whether the main thread has nothing to do: no block waits and no frame is needed.
    var isIdle: Bool { blocks.isEmpty && !needsFrame }

    /// Starts the main thread of a new launch with `startThread`; it is busy from the start (launching).
    func start(
        with startThread: (_ name: String, _ body: @escaping (SimulatedThread) -> Void) -> SimulatedThread
    ) {
        blocks.mainThreadStarted(at: scheduler.now)
        screen.launched(at: scheduler.now)
        thread = startThread("main") { [self] thread in run(on: thread) }
    }

    /// Forgets the killed launch: its waiting blocks, its thread and its controller.
    func appKilled() {
        working = nil
        blocks.removeAll()
        thread = nil
        app = nil
    }

    /// Counts the stretch of work under way as if it ended now: the run is cut in the middle of it (a main
    /// thread still blocked in a download at the time limit stalled until then).
    func countWorkUnderWay() {
        cut = true
        guard let working else { return }
        self.working = nil
        recorder.mainThreadBusy(scheduler.now - working.start, kind: working.kind)
    }

    /// Notes the start (`kind`) or the end (nil) of a stretch of the running launch's main-thread work.
    private func noteWork(_ kind: String?) {
        guard SimulatedThread.current === thread else { return }
        working = kind.map { (scheduler.now, $0) }
    }

    /// Wakes the main thread if it is parked.
    func wake() { thread?.wake() }

    /// Queues an operation to run on the main thread at its next turn; `origin` queued it.
    func enqueue(_ operation: Operation, origin: Operation?) {
        blocks.append(operation, origin: origin)
        thread?.wake()
    }

    /// A main-queue block is changing the table: if it came from a cancelled operation (or is a job of a
    /// cancelled task), that is late.
    func tableMutated() {
        let cancelledTask = withUnsafeCurrentTask { $0?.isCancelled ?? false }
        guard blocks.tableMutatedLate(cancelledTask: cancelledTask) else { return }
        recorder.lateCompletion()
    }

    private var needsFrame: Bool {
        guard let table = app?.tableView else { return true }
        if table.needsReload || table.isDragging || table.isDecelerating { return true }
        return scrolling.hasTouchWaiting
    }

    private func run(on thread: SimulatedThread) {
        let launchStart = scheduler.now
        noteWork("launch")
        let controller = makeApp()
        app = controller
        controller.viewDidLoad()
        noteWork(nil)
        if !cut { recorder.mainThreadBusy(scheduler.now - launchStart, kind: "launch") }
        while !thread.isInterrupted {
            if !blocks.isEmpty {
                blocks.noteBusy(at: scheduler.now)
                runBlock()
                continue
            }
            if needsFrame {
                frames.start(at: scheduler.now)
                // A frame that is overdue (main-queue work held the main thread past its vsync) starts
                // as soon as the main thread is free, as a display link that fired meanwhile does.
                if scheduler.now < frames.nextFrameDue {
                    frames.armTimer(at: frames.nextFrameDue, on: scheduler) { [self] in self.thread?.wake() }
                    blocks.noteIdle(at: scheduler.now)
                    thread.park()
                    continue
                }
                blocks.noteBusy(at: scheduler.now)
                runFrame()
                continue
            }
            frames.stop()
            blocks.noteIdle(at: scheduler.now)
            thread.park()
        }
    }

    private func runBlock() {
        let (operation, origin) = blocks.takeNext()
        let start = scheduler.now
        noteWork("block")
        SimulatedThread.current?.sleep(for: costs.mainQueueBlock)
        blocks.run(operation, origin: origin)
        guard SimulatedThread.current?.isKilled != true else { return }
        noteWork(nil)
        // What the block changed is on screen at the next vsync.
        commit(presentedAt: frames.presentation(afterWorkEndingAt: scheduler.now))
        recorder.mainThreadBusy(scheduler.now - start, kind: "block")
    }

    /// One frame: takes in every touch that arrived, lays the table out once, commits, and counts the
    /// frame's lateness if it overlaps a scroll interval.
    private func runFrame() {
        guard let table = app?.tableView, let controller = app else { return }
        let start = scheduler.now
        noteWork("frame")
        SimulatedThread.current?.sleep(for: costs.frameBase)
        scrolling.deliverTouches(table: table, controller: controller) { [self] in
            blocks.wasIdle(at: $0, now: scheduler.now)
        }
        table.layoutIfNeeded()
        guard SimulatedThread.current?.isKilled != true else { return }
        noteWork(nil)
        let end = scheduler.now
        let presented = frames.presentation(ofFrameEndingAt: end)
        // A finger that landed while this frame was blocked began a scroll interval the frame overlaps.
        frames.presented(
            at: presented, pendingTouch: scrolling.pendingTouchDown(before: presented),
            showsRest: !scrolling.gestureBegun)
        commit(presentedAt: presented)
        recorder.mainThreadBusy(end - start, kind: "frame")
    }

    /// Checks the screen after main-thread work that will be presented at `presented`.
    private func commit(presentedAt presented: Int64) {
        guard let table = app?.tableView else { return }
        screen.commit(
            table: table, now: scheduler.now, presented: presented,
            fingerDown: scrolling.pendingTouchDown(before: presented) != nil)
    }
}
