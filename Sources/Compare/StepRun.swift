import Files
import Foundation
import Shared
import Spawn

/// One step executable run by `Compare` as a child, bounded in every way a child can misbehave: it runs in
/// a process group of its own (so Ctrl-C on `Compare` reaches it only through `Compare`, which passes the
/// signal on and then kills the group), its standard output and standard error are read together (a step
/// that fills one pipe cannot deadlock the other), what it prints is capped, and it is killed at a time
/// limit. Its ending is its own exit, not the pipes' end: a process it left behind that still holds them
/// (a grandchild) is killed with its group once the step has exited.
struct StepRun {
    /// How the step ended.
    enum Ending: Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it (not one `Compare` sent).
        case signalled(Int32)
        /// It ran past the time limit and was killed.
        case timedOut(seconds: Int)
        /// It printed more than `outputLimit` bytes on standard output and was killed.
        case printedTooMuch
    }

    let ending: Ending
    /// Its standard output (at most `outputLimit` bytes).
    let output: Data
    /// The start of its standard error (at most `errorLimit` bytes).
    let errors: Data

    /// The most standard output kept: a step's `--json` report is a few kilobytes.
    static let outputLimit = 8 << 20
    /// How often a long run's `tick` is called.
    static let tickInterval = Duration.seconds(10)

    /// The most standard error kept for the message; the rest is read and dropped.
    static let errorLimit = 64 << 10

    /// The process group of the step running now (0: none), for the interrupt watcher.
    nonisolated(unsafe) private static var runningGroup: pid_t = 0
    /// Set once an interrupt is being passed on: the step's ending is then the interrupt's, not news.
    nonisolated(unsafe) private static var interrupted = false
    /// Whether `Compare` is being interrupted (it ends as soon as the step is gone).
    static var isInterrupted: Bool { lock.withLock { interrupted } }
    private static let lock = NSLock()

    /// Runs an executable to its end, or kills it after `timeLimit` seconds; with `echoing`, what it prints
    /// is also copied to standard error as it comes (a build's progress), and `tick` is called every
    /// `tickInterval` it runs, with the time so far. Throws the `posix_spawn` error when it cannot be
    /// started.
    static func run(
        _ path: String, arguments: [String], timeLimit: Int, echoing: Bool = false,
        tick: ((Duration) -> Void)? = nil
    ) throws -> StepRun {
        var outputPipe: [Int32] = [0, 0]
        var errorPipe: [Int32] = [0, 0]
        guard pipe(&outputPipe) == 0, pipe(&errorPipe) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        // Only the step's 1 and 2 (made by dup2, which clears the flag) stay open in the step.
        for descriptor in outputPipe + errorPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        // Compare blocks the interrupts for its watcher thread; the step starts with none blocked and each
        // at its default action, in a group of its own that the watcher can end whole.
        let spawned: Result<pid_t, any Error> = lock.withLock {
            let result = Result {
                try Spawn.start(
                    path, arguments, output: .descriptor(outputPipe[1]), errors: .descriptor(errorPipe[1]),
                    ownGroup: true)
            }
            if case .success(let pid) = result { runningGroup = pid }
            return result
        }
        close(outputPipe[1])
        close(errorPipe[1])
        defer {
            close(outputPipe[0])
            close(errorPipe[0])
        }
        let pid = try spawned.get()
        defer { lock.withLock { runningGroup = 0 } }

        let started = ContinuousClock.now
        let deadline = started + .seconds(timeLimit)
        var nextTick = started + tickInterval
        var output = Data()
        var errors = Data()
        var open = [outputPipe[0], errorPipe[0]]
        var stopped: Ending?
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var status: Int32 = 0
        var exited = false
        /// Reads what is ready on the open pipes, waiting at most `milliseconds` for something.
        func readReady(waiting milliseconds: Int32) -> Int32 {
            var polls = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polls, nfds_t(polls.count), milliseconds)
            for entry in polls where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                if count <= 0 {
                    open.removeAll { $0 == entry.fd }
                    continue
                }
                if echoing { _ = StandardStreams.writeAll(Array(buffer[0..<count]), to: 2) }
                if entry.fd == outputPipe[0] {
                    output.append(contentsOf: buffer[0..<count])
                    if output.count > outputLimit { stopped = .printedTooMuch }
                } else if errors.count < errorLimit {
                    errors.append(contentsOf: buffer[0..<min(count, errorLimit - errors.count)])
                }
            }
            return ready
        }
        while !open.isEmpty, stopped == nil {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                stopped = .timedOut(seconds: timeLimit)
                break
            }
            let milliseconds = Int32(min(100, max(1, left.components.seconds * 1000 + 1)))
            if readReady(waiting: milliseconds) < 0, errno != EINTR { break }
            if let tick, ContinuousClock.now >= nextTick {
                tick(ContinuousClock.now - started)
                nextTick += tickInterval
            }
            if waitpid(pid, &status, WNOHANG) == pid {
                // The step has exited: what it printed is in the pipes already. Take it, and stop
                // reading: a process it left behind may hold the pipes open for ever.
                exited = true
                while stopped == nil, !open.isEmpty, readReady(waiting: 0) > 0 {}
                kill(-pid, SIGKILL)
                break
            }
        }
        // Both pipes closed (or the step is being stopped): wait for it to end, within the time limit.
        while stopped == nil, !exited {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0, errno != EINTR { break }
            if ContinuousClock.now >= deadline {
                stopped = .timedOut(seconds: timeLimit)
                break
            }
            usleep(10_000)
        }
        if let stopped {
            kill(-pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            return StepRun(ending: stopped, output: output.prefix(outputLimit), errors: errors)
        }
        let signal = status & 0x7f
        let ending: Ending = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        return StepRun(ending: ending, output: output, errors: errors)
    }

    /// The signals that stop `Compare`, passed on to the running step.
    static let interrupts: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGALRM]

    /// From now on, an interrupt sent to `Compare` is passed on to the running step's process group, which
    /// is killed if it is still there two seconds later; then `Compare` ends as the signal would have ended
    /// it. Call before starting any step or thread.
    static func passInterruptsOn() {
        var blocked = signalSet(interrupts)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let watcher = Thread {
            var waitedFor = signalSet(interrupts)
            var number: Int32 = 0
            guard sigwait(&waitedFor, &number) == 0 else { return }
            let group = lock.withLock {
                interrupted = true
                return runningGroup
            }
            if group > 0 {
                kill(-group, number)
                for _ in 0..<200 where kill(-group, 0) == 0 { usleep(10_000) }
                kill(-group, SIGKILL)
            }
            TemporaryFiles.removeAll()
            signal(number, SIG_DFL)
            var single = signalSet([number])
            pthread_sigmask(SIG_UNBLOCK, &single, nil)
            raise(number)
        }
        watcher.start()
    }

    /// A signal set holding `numbers`.
    private static func signalSet(_ numbers: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        return set
    }

    /// A signal's name (`SIGKILL`), or its number.
    static func name(ofSignal number: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
            SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM",
            SIGTERM: "SIGTERM",
        ]
        return names[number] ?? "signal \(number)"
    }
}
