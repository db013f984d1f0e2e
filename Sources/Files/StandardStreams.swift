import Foundation

/// Standard output and standard error as a command writes its report and messages to them: every byte,
/// and one clear line instead of a trap when the stream cannot take them.
package enum StandardStreams {
    private static let lock = NSLock()
    /// The standard streams that were closed when the process started (`holdClosedStreams`).
    nonisolated(unsafe) private static var closedAtStart: Set<Int32> = []

    /// Holds each standard stream the process started with closed (`>&-`) on `/dev/null`, so that no file
    /// or socket the process opens takes its number and receives the report; `write` still treats it as
    /// closed. Call first thing, before anything opens a descriptor.
    package static func holdClosedStreams() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let held = open("/dev/null", O_RDWR)
            if held == descriptor {
                lock.withLock { _ = closedAtStart.insert(descriptor) }
            } else if held >= 0 {
                close(held)
            }
        }
    }

    /// Writes `text` to a stream (1 or 2). A reader that closed it (EPIPE) ends the process quietly with
    /// status 0; any other failure (a full disk, a closed descriptor, an I/O error) loses the report, so it
    /// ends the process with status 1 and a line on standard error (when that can still be written).
    package static func write(_ text: String, to descriptor: Int32) {
        let closed = lock.withLock { closedAtStart.contains(descriptor) }
        let number = closed ? EBADF : writeAll(Array(text.utf8), to: descriptor)
        guard number != 0 else { return }
        if number == EPIPE { exit(0) }
        let stream = descriptor == 2 ? "standard error" : "standard output"
        _ = writeAll(
            Array("error: cannot write the report to \(stream) (\(SystemError.message(number)))\n".utf8),
            to: 2)
        exit(1)
    }

    /// Writes every byte to a file descriptor; returns 0, or the error number of the write that failed.
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                writeBytes(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += count
        }
        return 0
    }
}

/// `write(2)`, under a name `StandardStreams.write` does not hide.
private func writeBytes(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
