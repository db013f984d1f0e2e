/// Runs operations' completion blocks as Foundation does: dispatched, when the operation finishes, to a
/// thread of their own (GCD's global queue in Foundation), so a slow completion block never holds the
/// slot of the queue that ran the operation.
///
/// The threads belong to one launch of the app: a relaunch kills them with the rest of the app, and the
/// blocks they had not run yet are let go.
package final class CompletionThreads {
    /// One thread and the block it was given.
    private final class Runner {
        var job: (block: () -> Void, operation: Operation)?
        var thread: SimulatedThread?
    }

    private unowned let host: any AppHost
    private var runners: [Runner] = []

    package init(host: any AppHost) {
        self.host = host
    }

    /// Whether a completion block is waiting to run or running.
    package var isBusy: Bool { runners.contains { $0.job != nil } }

    /// Runs `block` soon on an idle completion thread (a new one if none is idle); code on it sees
    /// `operation` as the operation its thread is running, as the worker did.
    package func dispatch(_ block: @escaping () -> Void, of operation: Operation) {
        let runner: Runner
        if let idle = runners.first(where: { $0.job == nil }) {
            runner = idle
        } else {
            runner = Runner()
            runners.append(runner)
        }
        runner.job = (block, operation)
        if let thread = runner.thread {
            thread.wake()
        } else {
            runner.thread = host.startAppThread(name: "completion-\(runners.count)") { thread in
                Self.runLoop(runner, on: thread)
            }
        }
    }

    /// Lets go of every block not yet run: the app was killed.
    package func abandon() {
        for runner in runners { runner.job = nil }
    }

    private static func runLoop(_ runner: Runner, on thread: SimulatedThread) {
        while !thread.isInterrupted {
            guard let job = runner.job else {
                thread.park()
                continue
            }
            thread.runningOperation = job.operation
            job.block()
            thread.runningOperation = nil
            runner.job = nil
        }
        runner.job = nil
    }
}
