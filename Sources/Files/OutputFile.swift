import Foundation

/// The one way the workbook writes a file an option names (`--trace FILE`, `--timeline FILE`, each
/// `--export` picture): opened before the run, so a path that cannot be written costs no run, and written
/// after it without ever blocking for long or leaving half a file.
///
/// - A regular file (or a path with nothing at it) is written to a temporary file beside it, which is
///   renamed over it only once every byte is written and flushed: a full disk leaves the earlier file as it
///   was and no partial one. The temporary file is made when the output is opened (so a folder that cannot
///   hold it is refused before the run) and is removed by SIGINT, SIGTERM and the other interrupts.
/// - A FIFO, a terminal or another character device is opened with `O_NONBLOCK`: a FIFO nobody reads is
///   refused at once (`ENXIO`), and each write waits at most `stallSeconds` for the reader to take more.
/// - Anything else (a folder, a socket, a block device) is refused, named as what it is.
///
/// Every refusal is one `OutputFile.Failure` line: the option, the path and the reason in words.
package final class OutputFile {
    /// The option that named the file (`--trace`), for messages.
    package let option: String
    /// The path as given.
    package let path: String
    /// What the bytes go into.
    private let target: Target
    /// The open descriptor: the temporary file's, or the device's or FIFO's. -1 once closed.
    private var descriptor: Int32

    /// How long a write to a FIFO or device may wait, without progress, for its reader: 3 s, longer than
    /// a reader that is alive takes between reads (one still starting up on a busy machine, or working
    /// through the batch it took), short enough that a reader that opened and went away costs little. A
    /// pager waiting for a key is the one real reader it cuts off; no bound could wait for it.
    package static let stallSeconds: Int32 = 3

    private enum Target {
        /// A regular file, replaced by renaming `temporary` over `destination` (the path, or the file a
        /// symbolic link there names, so the link stays); `mode` is kept from the file it replaces (nil: a
        /// new file).
        case replace(temporary: String, destination: String, mode: mode_t?)
        /// A FIFO or character device, written in place.
        case stream(kind: String)
    }

    /// Why an output cannot be written: one line naming the option, the path and the reason in words.
    package struct Failure: Error, Equatable, CustomStringConvertible {
        package let option: String
        package let path: String
        package let reason: String

        package init(option: String, path: String, reason: String) {
            self.option = option
            self.path = path
            self.reason = reason
        }

        public var description: String {
            "\(option): cannot write \(VisibleText.escaped(path)): \(reason)"
        }
    }

    /// What is at a path, for refusing one output that is another output or an input of the same run.
    package struct Identity: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    /// Opens an output for writing after the run. Nothing at `path` changes until `commit`.
    package init(path: String, option: String) throws(Failure) {
        self.option = option
        self.path = path
        var status = stat()
        if stat(path, &status) != 0 {
            let number = errno
            guard number == ENOENT else {
                throw Failure(option: option, path: path, reason: SystemError.words(number, context: .output))
            }
            if lstat(path, &status) == 0 {
                throw Failure(option: option, path: path, reason: "it is a symbolic link to nothing")
            }
            (target, descriptor) = try Self.openTemporary(beside: path, mode: nil, option: option)
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            if access(path, W_OK) != 0 {
                throw Failure(option: option, path: path, reason: SystemError.words(errno, context: .output))
            }
            // The file standard output or error already goes to (`--trace /dev/stdout > file`): written
            // through that descriptor, after the report's own bytes, rather than replaced under it.
            let standard = [1, 2].first { Self.identity(ofDescriptor: $0) == Self.identity(of: path) }
            if let standard {
                target = .stream(kind: standard == 1 ? "standard output" : "standard error")
                descriptor = dup(standard)
                return
            }
            var destination = path
            if let resolved = realpath(path, nil) {
                destination = String(cString: resolved)
                free(resolved)
            }
            (target, descriptor) = try Self.openTemporary(
                beside: destination, mode: status.st_mode & 0o7777, option: option)
        case S_IFIFO, S_IFCHR:
            let isFIFO = status.st_mode & S_IFMT == S_IFIFO
            let opened = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            guard opened >= 0 else {
                let number = errno
                let reason =
                    number == ENXIO
                    ? (isFIFO
                        ? "no process is reading the FIFO (named pipe); start its reader first"
                        : "the device is not there (for /dev/tty: the run has no terminal)")
                    : SystemError.words(number, context: .output)
                throw Failure(option: option, path: path, reason: reason)
            }
            target = .stream(kind: isFIFO ? "FIFO" : "device")
            descriptor = opened
        default:
            let kind = BoundedFile.nonFileKind(status.st_mode) ?? "not a regular file"
            throw Failure(
                option: option, path: path,
                reason: "it is \(kind); outputs go to a file, a FIFO or a character device")
        }
    }

    deinit {
        discard()
    }

    /// What an open descriptor is, or nil when it is not open.
    static func identity(ofDescriptor descriptor: Int32) -> Identity? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// What is at `path` now (following symbolic links), or nil when nothing is.
    package static func identity(of path: String) -> Identity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Whether two paths name the same place: the same file when one exists, else the same absolute path
    /// once the folder is resolved.
    package static func sameDestination(_ first: String, _ second: String) -> Bool {
        if let one = identity(of: first), let other = identity(of: second) { return one == other }
        return absolute(first) == absolute(second)
    }

    /// Whether this output is a character device (`/dev/null`, a terminal), which two outputs may share.
    package var isDevice: Bool {
        if case .stream(let kind) = target { return kind == "device" }
        return false
    }

    /// Writes all of `bytes` and puts the file in place: renamed over the path for a regular file, or
    /// written through for a FIFO or device. On failure the temporary file is removed and whatever was at
    /// the path stays as it was (a FIFO's reader may have taken part of it).
    package func commit(_ bytes: [UInt8]) throws(Failure) {
        guard descriptor >= 0 else {
            throw Failure(option: option, path: path, reason: "it was already written")
        }
        switch target {
        case .replace(let temporary, let destination, let mode):
            let failure = writeAll(bytes, waiting: false) ?? flushAndClose(mode: mode)
            if let failure {
                discard()
                throw Failure(
                    option: option, path: path, reason: SystemError.words(failure, context: .output))
            }
            let renamed = TemporaryFiles.unlessInterrupted { rename(temporary, destination) == 0 ? 0 : errno }
            TemporaryFiles.unregister(temporary)
            guard renamed == 0 else {
                unlink(temporary)
                throw Failure(
                    option: option, path: path,
                    reason: SystemError.words(renamed ?? EINTR, context: .output))
            }
        case .stream(let kind):
            let failure = writeAll(bytes, waiting: true)
            close(descriptor)
            descriptor = -1
            if let failure {
                let reason =
                    failure == ETIMEDOUT
                    ? "its reader took nothing for \(Self.stallSeconds) s; the \(kind) got only part of it"
                    : SystemError.words(failure, context: .output)
                throw Failure(option: option, path: path, reason: reason)
            }
        }
    }

    /// Closes the output without writing: a temporary file is removed, the path is left as it was.
    package func discard() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        if case .replace(let temporary, _, _) = target {
            unlink(temporary)
            TemporaryFiles.unregister(temporary)
        }
    }

    /// Makes the temporary file beside `path` (mode 0600 until it is complete).
    private static func openTemporary(beside path: String, mode: mode_t?, option: String) throws(Failure)
        -> (Target, Int32)
    {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var status = stat()
        guard stat(folder, &status) == 0 else {
            throw Failure(
                option: option, path: path,
                reason: "its folder \(VisibleText.escaped(folder)): "
                    + SystemError.words(errno, context: .output))
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw Failure(option: option, path: path, reason: "a part of the path is not a folder")
        }
        let temporary = TemporaryFiles.sibling(of: url).path
        TemporaryFiles.register(temporary)
        let opened =
            TemporaryFiles.unlessInterrupted {
                let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                return descriptor >= 0 ? descriptor : -errno
            } ?? -EINTR
        guard opened >= 0 else {
            TemporaryFiles.unregister(temporary)
            let reason =
                -opened == ENOENT
                ? "its folder \(VisibleText.escaped(folder)) takes no new files (as /proc and /sys do not)"
                : "cannot make a file in its folder \(VisibleText.escaped(folder)) ("
                    + SystemError.words(-opened, context: .output) + ")"
            throw Failure(option: option, path: path, reason: reason)
        }
        return (.replace(temporary: temporary, destination: path, mode: mode), opened)
    }

    /// Writes every byte; nil, or the error number that stopped it (ETIMEDOUT: a stream's reader stalled).
    private func writeAll(_ bytes: [UInt8], waiting: Bool) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress! + offset, min(buffer.count - offset, 1 << 20))
            }
            if count >= 0 {
                offset += count
                continue
            }
            let number = errno
            if number == EINTR { continue }
            guard waiting, number == EAGAIN || number == EWOULDBLOCK else { return number }
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let polled = poll(&ready, 1, Self.stallSeconds * 1000)
            if polled == 0 { return ETIMEDOUT }
            if polled < 0, errno != EINTR { return errno }
        }
        return nil
    }

    /// Flushes the temporary file to the disk (where a full disk may first show) and closes it.
    private func flushAndClose(mode: mode_t?) -> Int32? {
        defer { descriptor = -1 }
        if let mode, fchmod(descriptor, mode) != 0 {
            let number = errno
            close(descriptor)
            return number
        }
        if mode == nil {
            // A new file gets the usual mode: what the process's umask leaves of 0666.
            let mask = umask(0)
            umask(mask)
            fchmod(descriptor, 0o666 & ~mask)
        }
        if fsync(descriptor) != 0, errno != EINVAL, errno != EROFS {
            let number = errno
            close(descriptor)
            return number
        }
        return close(descriptor) == 0 ? nil : errno
    }

    /// The path made absolute, its folder resolved through symbolic links where it exists.
    private static func absolute(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        let resolved = folder.resolvingSymlinksInPath().standardizedFileURL.path
        return resolved + "/" + url.lastPathComponent
    }
}

/// `write(2)`, under a name the class does not hide.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
