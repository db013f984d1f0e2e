import Runtime

/// The app's life on the phone: launched when the run starts, killed and launched again at a relaunch,
/// warned when memory runs short.
extension Phone {
    /// Launches the app: a new process, main thread and controller; scrolling and frames start over.
    func startApp() {
        recorder.launched()
        process.start(on: self)
        scrolling.launched()
        frames.stop()
        mainLoop.start { [self] name, body in process.startThread(name: name, on: self, body: body) }
    }

    /// Kills the running launch: its threads, queues and main-queue blocks.
    func killApp() {
        process.kill()
        mainLoop.appKilled()
    }

    /// Closes what the killed launch left open on screen, then kills it and launches again.
    func relaunch() {
        recorder.event(.relaunch)
        // A finger that landed while the main thread was blocked had already left the stop.
        screen.leaveOpenStop(
            at: scrolling.pendingTouchDown(before: scheduler.now + 1) ?? scheduler.now,
            table: mainLoop.app?.tableView, now: scheduler.now)
        frames.endScrolling(at: scheduler.now)
        screen.countPlaceholders(until: scheduler.now)
        killApp()
        startApp()
    }

    /// Queues `didReceiveMemoryWarning` on the main thread, traced with the image memory it freed.
    func sendMemoryWarning() {
        recorder.event(.memoryWarning)
        let warning = BlockOperation.simulator { [weak self] in
            guard let self, let app = mainLoop.app else { return }
            let before = memory.liveBytes
            app.didReceiveMemoryWarning()
            recorder.memoryWarningHandled(before: before, after: memory.liveBytes)
        }
        mainLoop.enqueue(warning, origin: nil)
    }
}
