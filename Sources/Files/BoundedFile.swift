import Foundation

/// The one way the workbook reads a file: it checks what the path is and how big it is before reading a
/// byte, and never reads more than the limit for that kind of file.
///
/// A FIFO, a device, a socket or a directory given where a file belongs is named as such (nothing is read
/// from it: opening uses `O_NONBLOCK`, so a FIFO cannot hang the run). A file larger than its limit is
/// refused from its size alone, so a sparse 3 GB file costs one `fstat`. The type and size are checked on
/// the opened descriptor, and the read stops at the limit, so a file that changes in between cannot get
/// past either check.
package enum BoundedFile {
    /// What is being read, and the most bytes it may hold.
    package enum Kind: Sendable, CaseIterable {
        /// A scenario file: 1 MB (1 000 000 bytes), far more than any script of gestures needs.
        case scenario
        /// A movie catalog: 10 MB, about a hundred thousand movies.
        case catalog
        /// A poster PNG (a `--posters` file or a generated poster kept between runs): 16 MB. Posters are
        /// 20–150 KB; a 4096×4096 photograph compresses to well under this.
        case poster
        /// A disk-cache entry: a poster and its header line.
        case cacheEntry
        /// A small private file of the workbook's own (a key).
        case smallFile
        /// A step's `--trace` file, read back by `Course`: 64 MB. A built-in scenario writes under 1 MB.
        case trace
        /// The walkthrough, where `Course` reads each exercise's title and task: 4 MB, many times its size.
        case walkthrough

        /// The most bytes a file of this kind may hold.
        package var maximumBytes: Int {
            switch self {
            case .scenario: return 1_000_000
            case .catalog: return 10_000_000
            case .poster: return 16_000_000
            case .cacheEntry: return 16_001_000
            case .smallFile: return 4096
            case .trace: return 64_000_000
            case .walkthrough: return 4_000_000
            }
        }

        /// The kind's name in messages.
        var noun: String {
            switch self {
            case .scenario: return "a scenario file"
            case .catalog: return "a catalog"
            case .poster: return "a poster"
            case .cacheEntry: return "a cache entry"
            case .smallFile: return "this file"
            case .trace: return "a trace"
            case .walkthrough: return "the walkthrough"
            }
        }
    }

    /// Why a file was not read. `description` is one line, without the path (callers name the path and
    /// the option).
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// Nothing at the path.
        case missing
        /// Something other than a regular file: `what` says which (“a directory”, “a FIFO (named pipe)”).
        case notAFile(what: String)
        /// A regular file larger than its kind allows.
        case tooLarge(bytes: Int64, limit: Int, kind: String)
        /// The system refused: the reason is the system's message for the error number.
        case unreadable(reason: String)

        public var description: String {
            switch self {
            case .missing: return "no such file"
            case .notAFile(let what): return "is \(what), not a regular file"
            case .tooLarge(let bytes, let limit, let kind):
                return "the file is \(bytes) bytes; \(kind) may hold at most \(limit) bytes"
            case .unreadable(let reason): return "cannot read the file (\(reason))"
            }
        }
    }

    /// The whole file at `path`, if it is a regular file of at most `kind.maximumBytes` bytes.
    package static func read(_ path: String, as kind: Kind) throws(Failure) -> [UInt8] {
        try read(path, limit: kind.maximumBytes, noun: kind.noun)
    }

    /// The whole file at `path`, if it is a regular file of at most `limit` bytes.
    static func read(_ path: String, limit: Int, noun: String) throws(Failure) -> [UInt8] {
        var status = stat()
        // A first look before opening, so that opening never touches a device.
        guard stat(path, &status) == 0 else { throw failure(errno) }
        if let what = nonFileKind(status.st_mode) { throw .notAFile(what: what) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(errno) }
        defer { close(descriptor) }
        // The check that counts: on what was actually opened.
        guard fstat(descriptor, &status) == 0 else { throw failure(errno) }
        if let what = nonFileKind(status.st_mode) { throw .notAFile(what: what) }
        let size = Int64(status.st_size)
        guard size <= Int64(limit) else { throw .tooLarge(bytes: size, limit: limit, kind: noun) }
        var bytes = [UInt8](repeating: 0, count: Int(size) + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                readBytes(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(errno)
            }
            if count == 0 { break }
            filled += count
            if filled == bytes.count, filled <= limit {
                // The file grew since fstat: keep reading, up to one byte past the limit.
                bytes.append(contentsOf: repeatElement(0, count: min(limit + 1, filled * 2) - filled))
            }
        }
        guard filled <= limit else { throw .tooLarge(bytes: Int64(filled), limit: limit, kind: noun) }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// What a path is (“a directory”, “a FIFO (named pipe)”, …), or nil for a regular file.
    package static func nonFileKind(atPath path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return nonFileKind(status.st_mode)
    }

    /// The size of a regular file, or nil when the path is missing or not a regular file.
    package static func size(atPath path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0, nonFileKind(status.st_mode) == nil else { return nil }
        return Int64(status.st_size)
    }

    /// Names a non-regular file type; nil for a regular file.
    static func nonFileKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    /// The failure for an error number from `stat`, `open` or `read`.
    static func failure(_ number: Int32) -> Failure {
        number == ENOENT ? .missing : .unreadable(reason: SystemError.message(number))
    }
}

/// `read(2)`, under a name the enum's own `read` does not hide.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
