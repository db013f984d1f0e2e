import Foundation

/// The temporary files and folders this process has made and not yet finished with, so that SIGINT, SIGTERM
/// and the other `interrupts` can remove them before the process ends; and the sweeping of stale ones a killed process left.
///
/// Temporary files are named `.tmp-<pid>-…`, so a later run can tell whose they are.
package enum TemporaryFiles {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: Set<String> = []
    nonisolated(unsafe) private static var watching = false
    /// What runs, in order, after the cleanup and before an interrupt ends the process.
    nonisolated(unsafe) private static var lastActions: [@Sendable () -> Void] = []
    /// Held by every change this process makes to its files, and by the interrupt's cleanup.
    private static let changes = NSLock()
    /// Set (under `changes`) once an interrupt's cleanup has begun: from then on, no change is made, so no
    /// thread still running can put back a file the cleanup removed.
    nonisolated(unsafe) private static var interrupted = false

    /// The prefix of every temporary file name.
    static let prefix = ".tmp-"

    /// A fresh temporary name beside `file`, for a write that is renamed into place.
    package static func sibling(of file: URL) -> URL {
        file.deletingLastPathComponent().appendingPathComponent(
            "\(prefix)\(getpid())-\(UUID().uuidString)-\(file.lastPathComponent)")
    }

    /// Writes a file under a temporary name (removed by the `interrupts`) and renames it into place, so
    /// no reader, in this process or another, ever sees half a file. Returns whether it worked; a failed
    /// write leaves nothing behind.
    package static func writeAtomically(_ contents: [UInt8], to file: URL) -> Bool {
        atomicWriteFailure(contents, to: file) == nil
    }

    /// Writes a file as `writeAtomically` does; nil when it worked, else why not, in words (“the disk is
    /// full (No space left on device)”).
    package static func atomicWriteFailure(_ contents: [UInt8], to file: URL) -> String? {
        guard let number = unlessInterrupted({ writeThenRename(contents, to: file) }) else {
            return "the process is being interrupted"
        }
        return number == 0 ? nil : SystemError.words(number, context: .output)
    }

    /// Runs a change to the file system (a write, a new folder, a removal), unless an interrupt's cleanup
    /// has begun: then it does nothing and returns nil. Changes never overlap the cleanup.
    package static func unlessInterrupted<Result>(_ change: () -> Result) -> Result? {
        changes.lock()
        defer { changes.unlock() }
        return interrupted ? nil : change()
    }

    /// Writes to a temporary name and renames it over `file`; 0, or the error number that stopped it.
    private static func writeThenRename(_ contents: [UInt8], to file: URL) -> Int32 {
        let temporary = sibling(of: file)
        register(temporary.path)
        defer { unregister(temporary.path) }
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return errno }
        var offset = 0
        var failure: Int32 = 0
        while offset < contents.count {
            let count = contents.withUnsafeBytes {
                write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            offset += count
        }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary.path, file.path) != 0 { failure = errno }
        if failure != 0 { unlink(temporary.path) }
        return failure
    }

    /// A new folder in the temporary directory, made with `mkdtemp` (so its name cannot be guessed and no
    /// folder or link planted there beforehand is used), named `<prefix>-<pid>-XXXXXX` and mode 0700, and
    /// registered to be removed if the process is interrupted. Throws why it could not, in words.
    package static func makeFolder(prefix: String) throws(WorkbookError) -> URL {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array("\(base)/\(prefix)-\(getpid())-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw .badInput("cannot make a folder in \(base) (\(SystemError.words(errno, context: .output)))")
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        register(path)
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// Runs `action` when an interrupt ends the process, after the registered paths are removed (for
    /// example, putting the terminal back as it was). It must not wait for the app's threads.
    package static func atInterrupt(_ action: @escaping @Sendable () -> Void) {
        lock.withLock { lastActions.append(action) }
    }

    /// Removes every registered path now: a process that ends on its own, before it exits.
    package static func removeAll() {
        let paths = lock.withLock {
            defer { self.paths = [] }
            return self.paths
        }
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Remembers a path to remove if the process is interrupted.
    package static func register(_ path: String) {
        lock.withLock { _ = paths.insert(path) }
    }

    /// Forgets a path (it was renamed into place or removed).
    package static func unregister(_ path: String) {
        lock.withLock { _ = paths.remove(path) }
    }

    /// From now on, each of `interrupts` removes every registered path, then end the process as the signal
    /// would have. Called once by the command-line harness, before it starts any thread: the signals are
    /// blocked in every thread (new threads inherit that), and one thread waits for them with `sigwait`, so
    /// the cleanup runs as ordinary code, not inside a signal handler.
    package static func removeOnInterrupt() {
        let first = lock.withLock {
            defer { watching = true }
            return !watching
        }
        guard first else { return }
        var signals = interruptSignals()
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let watcher = Thread {
            var waitedFor = interruptSignals()
            var number: Int32 = 0
            guard sigwait(&waitedFor, &number) == 0 else { return }
            // Wait for a change under way to finish, and let no other start: the app's threads run on
            // until the signal ends the process, and one of them could write into a removed folder.
            changes.withLock { interrupted = true }
            let doomed = lock.withLock { paths }
            for path in doomed { try? FileManager.default.removeItem(atPath: path) }
            for action in lock.withLock({ lastActions }) { action() }
            signal(number, SIG_DFL)
            var single = sigset_t()
            sigemptyset(&single)
            sigaddset(&single, number)
            pthread_sigmask(SIG_UNBLOCK, &single, nil)
            raise(number)
        }
        watcher.start()
    }

    /// The signals whose default action ends the process and that a user or a system sends to stop a run:
    /// SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal closed), SIGUSR1 and SIGALRM.
    package static let interrupts: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGALRM]

    /// `interrupts` as a signal set.
    private static func interruptSignals() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in interrupts { sigaddset(&signals, number) }
        return signals
    }

    /// Removes `.tmp-` files older than `age` seconds in a folder: what a killed process left behind.
    /// Younger ones may belong to a process still writing them.
    package static func removeStale(in folder: URL, olderThan age: TimeInterval = 60) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        let cutoff = Date().addingTimeInterval(-age)
        for name in names where name.hasPrefix(prefix) {
            let path = folder.appendingPathComponent(name).path
            guard
                let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate]
                    as? Date, modified < cutoff
            else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Removes `workbook-disk-<pid>-…` folders in the temporary directory whose process is gone: the
    /// fresh disks of runs that were killed before they could clean up.
    package static func removeOrphanedDisks(in folder: URL = FileManager.default.temporaryDirectory) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix("workbook-disk-") {
            let fields = name.split(separator: "-")
            guard fields.count > 3, let pid = Int32(fields[2]), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
    }
}
