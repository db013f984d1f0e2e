import Foundation
import Spawn

/// What a child of a check may use: wall time for its whole process group, and, for each of its
/// processes, processor time and address space (`ulimit -t` and `ulimit -v`, set by the shell that starts
/// it, so the limits hold for everything it starts too).
struct Limits: Sendable {
    /// Wall time before the whole group is ended; nil for none.
    var seconds: Double?
    /// Processor seconds each process may use (`RLIMIT_CPU`).
    var processorSeconds: Int
    /// Bytes of address space each process may map (`RLIMIT_AS`).
    var memoryBytes: Int

    /// A run of a step: a debug run of a built-in scenario takes one or two seconds of processor time and
    /// maps well under a gigabyte (the shipped steps' peak is checked by `ResourceBombTests`).
    static let step = Limits(seconds: 60, processorSeconds: 120, memoryBytes: 3 << 30)
    /// A step run of code the student does not touch: no wall limit, the same per-process limits.
    static let untouchedStep = Limits(seconds: nil, processorSeconds: 120, memoryBytes: 3 << 30)
    /// `swift build`: each compiler process may take minutes on a busy machine and map several gigabytes.
    static let build = Limits(seconds: 1800, processorSeconds: 1800, memoryBytes: 16 << 30)
    /// `swift test --skip-build` on one exercise's tests: seconds as shipped.
    static let tests = Limits(seconds: 120, processorSeconds: 240, memoryBytes: 6 << 30)
}

/// The process groups of the children running now, so that a signal ending `Course` ends them too.
///
/// The slots are plain memory read by a signal handler: nothing there allocates or locks.
enum ChildGroups {
    static let capacity = 16
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<pid_t> = {
        let slots = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        slots.initialize(repeating: 0, count: capacity)
        return slots
    }()
    nonisolated(unsafe) static var handlersInstalled = false

    /// Notes a running group (and, the first time, makes SIGINT, SIGTERM and SIGHUP end every group).
    static func add(_ group: pid_t) {
        if !handlersInstalled {
            handlersInstalled = true
            for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
                signal(signalNumber) { received in
                    ChildGroups.killAll()
                    _exit(128 + received)
                }
            }
        }
        for index in 0..<capacity where slots[index] == 0 {
            slots[index] = group
            return
        }
    }

    static func remove(_ group: pid_t) {
        for index in 0..<capacity where slots[index] == group { slots[index] = 0 }
    }

    /// Kills every noted group (async-signal-safe).
    static func killAll() {
        for index in 0..<capacity where slots[index] > 0 { kill(-slots[index], SIGKILL) }
    }
}

/// A child of a check (a step run, `swift build`, `swift test`) in a process group of its own, under
/// `Limits`, waited for by its own exit (not by its output's end, which a process it left behind can
/// hold open).
///
/// When the child ends, its whole group is killed before it is reaped (so its id cannot be reused
/// meanwhile): a background process the child left behind does not outlive it.
final class ChildStep {
    let id: pid_t
    /// The exit code (valid once ended), or 128 + the signal number when a signal ended it.
    private(set) var status: Int32 = 0
    /// The signal that ended it, 0 when it exited.
    private(set) var signal: Int32 = 0
    private var ended = false

    private init(id: pid_t) { self.id = id }

    /// Starts `executable` (a path, or a name looked up in `PATH`) in `folder` under `limits`, through
    /// `/bin/sh`, whose `ulimit`, `cd` and `exec` keep its process id (`posix_spawn` cannot change folder
    /// or limits on every system), reading nothing, writing into `output` and `errors` (one file for both
    /// when they are the same).
    static func spawn(
        _ executable: String, _ arguments: [String], in folder: URL, limits: Limits, output: URL, errors: URL
    ) throws -> ChildStep {
        // The soft processor limit sends SIGXCPU, which says why; the hard one, a little later, SIGKILL.
        let script =
            "ulimit -S -t \(limits.processorSeconds) && ulimit -H -t \(limits.processorSeconds + 5) "
            + "&& ulimit -v \(limits.memoryBytes / 1024) && cd \"$0\" && exec \"$@\""
        let id: pid_t
        do {
            // Every signal at its default and none blocked, whatever this process set, so that the
            // processor limit's SIGXCPU ends the child and says so.
            id = try Spawn.start(
                "/bin/sh", ["-c", script, folder.path, executable] + arguments, output: .file(output.path),
                errors: errors == output ? .standardOutput : .file(errors.path), ownGroup: true)
        } catch {
            let code = (error as? POSIXError)?.code.rawValue ?? EIO
            throw CourseError(
                "cannot start \(URL(fileURLWithPath: executable).lastPathComponent): "
                    + String(cString: strerror(code)))
        }
        ChildGroups.add(id)
        return ChildStep(id: id)
    }

    /// Whether the child has exited (its group killed and the child reaped then), without waiting.
    func hasEnded() -> Bool {
        if ended { return true }
        var info = siginfo_t()
        let looked = waitid(P_PID, id_t(id), &info, WEXITED | WNOHANG | WNOWAIT)
        if looked == 0 && info.si_signo == 0 { return false }
        if looked < 0 && errno == EINTR { return false }
        // Exited, or not ours to wait for any more: what it left behind goes with it.
        kill(-id, SIGKILL)
        ChildGroups.remove(id)
        var raw: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(id, &raw, 0) } while reaped < 0 && errno == EINTR
        if reaped == id {
            note(raw)
        } else {
            ended = true
            status = 127
        }
        return true
    }

    /// Ends the child's whole group (`SIGTERM`, then `SIGKILL` if the child has not gone within a second)
    /// and reaps the child.
    func stop() {
        guard !hasEnded() else { return }
        kill(-id, SIGTERM)
        for _ in 0..<20 where !hasEnded() { Thread.sleep(forTimeInterval: 0.05) }
        guard !hasEnded() else { return }
        kill(-id, SIGKILL)
        while !hasEnded() { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// Waits for the child's end, stopping it when `limits`' wall time passes or `tooMuch` says so (asked
    /// every 50 ms); nil when it ended by itself, else why it was stopped.
    func wait(limits: Limits, stoppingWhen tooMuch: () -> String? = { nil }) -> String? {
        let started = Date()
        while !hasEnded() {
            Thread.sleep(forTimeInterval: 0.05)
            var reason: String?
            if let seconds = limits.seconds, Date().timeIntervalSince(started) > seconds {
                reason = "time"
            } else {
                reason = tooMuch()
            }
            if let reason {
                stop()
                return reason
            }
        }
        return nil
    }

    private func note(_ raw: Int32) {
        ended = true
        signal = raw & 0x7f
        status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }
}

/// A new empty folder in the temporary folder, made by `mkdtemp` (a name no other process can take).
func makeScratchFolder(_ prefix: String) throws -> URL {
    let template = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-XXXXXX").path
    var bytes = Array(template.utf8CString)
    guard let made = mkdtemp(&bytes) else {
        throw CourseError("cannot make a scratch folder: \(String(cString: strerror(errno)))")
    }
    return URL(fileURLWithPath: String(cString: made), isDirectory: true)
}
