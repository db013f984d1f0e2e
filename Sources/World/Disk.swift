import Files
import Foundation
import Runtime

/// The simulated phone's storage: a real directory with real files, and a virtual cost per read and write.
///
/// The app's caches directory lives inside it. A relaunch keeps every file. By default it is a fresh
/// temporary directory removed when the run ends; `--cache-dir DIR` keeps it across runs.
///
/// Every read goes through `BoundedFile`: a file larger than a cache entry may be (16 MB), or something
/// that is not a regular file (a folder, a FIFO), reads as missing. Atomic writes go to a `.tmp-<pid>-…`
/// name first; SIGINT and SIGTERM remove it, and a later run on the same folder removes any a killed
/// process left that are older than a minute.
public final class Disk {
    /// The disk of the phone whose simulated thread calls this.
    public static var shared: Disk {
        guard let host = SimulatedThread.currentHost(as: (any WorldHost).self) else {
            preconditionFailure("Disk.shared is only available on a simulated thread of a Phone.")
        }
        return host.disk
    }

    /// The app's caches directory (created when the phone starts).
    public let cachesDirectory: URL
    private unowned let phone: Phone
    private let costs: CostModel
    /// Writes accepted before the disk is full (nil: it never fills).
    private let fullAfterWrites: Int?
    /// Writes accepted so far.
    private var writesAccepted = 0
    /// Where the posters come from (`PosterServer.fingerprint`), mixed into every seal.
    private let posterSource: String
    /// Called at the first seal, then forgotten (`PhoneOptions.onFirstSeal`).
    private var onFirstSeal: (@Sendable () -> Void)?

    init(
        phone: Phone, root: URL, costs: CostModel, fullAfterWrites: Int? = nil,
        posterSource: String = PosterServer.builtInFingerprint, onFirstSeal: (@Sendable () -> Void)? = nil
    ) throws {
        self.phone = phone
        self.onFirstSeal = onFirstSeal
        self.costs = costs
        self.fullAfterWrites = fullAfterWrites
        self.posterSource = posterSource
        cachesDirectory = root.appendingPathComponent("Caches", isDirectory: true)
        let made = TemporaryFiles.unlessInterrupted {
            Result {
                try FileManager.default.createDirectory(
                    at: cachesDirectory, withIntermediateDirectories: true)
            }
        }
        if case .failure(let error)? = made {
            throw WorkbookError.badInput(
                "cannot create the folder \(cachesDirectory.path) (\(SystemError.reason(error)))")
        }
        Self.removeStaleFiles(under: cachesDirectory)
    }

    /// A fresh folder for a run's disk in the temporary directory (`TemporaryFiles.makeFolder`: made with
    /// `mkdtemp`, removed on SIGINT and SIGTERM too); also removes the folders of earlier runs that were
    /// killed.
    static func makeTemporaryRoot() throws(WorkbookError) -> URL {
        TemporaryFiles.removeOrphanedDisks()
        return try TemporaryFiles.makeFolder(prefix: "workbook-disk")
    }

    /// Removes a folder made by `makeTemporaryRoot`.
    static func removeTemporaryRoot(_ root: URL) {
        try? FileManager.default.removeItem(at: root)
        TemporaryFiles.unregister(root.path)
    }

    /// Removes temporary files older than a minute in the caches folder and the folders directly in it.
    private static func removeStaleFiles(under caches: URL) {
        TemporaryFiles.removeStale(in: caches)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: caches.path)) ?? []
        for name in names {
            let folder = caches.appendingPathComponent(name, isDirectory: true)
            if BoundedFile.nonFileKind(atPath: folder.path) == "a directory" {
                TemporaryFiles.removeStale(in: folder)
            }
        }
    }

    /// Reads a whole file, blocking the calling simulated thread for the read's cost; nil if it is missing,
    /// is not a regular file, or is larger than a cache entry may be.
    public func contents(of url: URL) -> Data? {
        let data = (try? BoundedFile.read(url.path, as: .cacheEntry)).map { Data($0) }
        let cost = costs.diskRead(bytes: data?.count ?? 0)
        let thread = SimulatedThread.current
        phone.recorder.diskRead(
            path: url.lastPathComponent, bytes: data?.count, thread: thread?.name ?? "?", micros: cost)
        thread?.sleep(for: cost)
        return data
    }

    /// Writes a whole file, blocking for the write's cost. `atomically` writes a temporary file and
    /// renames it, so a reader never sees half a file. Returns whether the write succeeded: it fails when
    /// the folder is gone or unwritable, or when the scenario's disk is full (`disk full-after=N`); a
    /// failed write leaves no file behind and is traced as `disk_write_failed`.
    @discardableResult
    public func write(_ data: Data, to url: URL, atomically: Bool) -> Bool {
        let cost = costs.diskWrite(bytes: data.count)
        let thread = SimulatedThread.current
        thread?.sleep(for: cost)
        let failure: String?
        if let fullAfterWrites, writesAccepted >= fullAfterWrites {
            failure = "disk full"
        } else if atomically {
            failure = TemporaryFiles.atomicWriteFailure([UInt8](data), to: url)
        } else {
            failure =
                TemporaryFiles.unlessInterrupted {
                    do {
                        try data.write(to: url)
                        return nil
                    } catch {
                        return SystemError.reason(error)
                    }
                } ?? "the process is being interrupted"
        }
        if let failure {
            phone.recorder.diskWriteFailed(
                path: url.lastPathComponent, reason: failure, thread: thread?.name ?? "?")
            return false
        }
        writesAccepted += 1
        phone.recorder.diskWritten(
            path: url.lastPathComponent, bytes: data.count, thread: thread?.name ?? "?", micros: cost)
        return true
    }

    /// Whether a file exists (free: the file system keeps this in memory).
    public func fileExists(at url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path)
    }

    /// The size of a regular file in bytes; nil when it is missing or not a regular file (free, like
    /// `fileExists`: one `stat`, so listing a folder of many files costs little).
    public func fileSize(at url: URL) -> Int? {
        BoundedFile.size(atPath: url.path).map { Int($0) }
    }

    /// Whether a folder is where a file was expected (free, like `fileExists`).
    public func isFolder(at url: URL) -> Bool {
        BoundedFile.nonFileKind(atPath: url.path) == "a directory"
    }

    /// Makes a folder (and its parents) if it is missing; returns whether it exists afterwards.
    @discardableResult
    public func createDirectory(at url: URL) -> Bool {
        TemporaryFiles.unlessInterrupted {
            (try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)) != nil
        } ?? false
    }

    /// Removes a file if it exists.
    public func removeItem(at url: URL) {
        _ = TemporaryFiles.unlessInterrupted { try? FileManager.default.removeItem(at: url) }
    }

    /// A seal for bytes kept under a name: 64 hex digits of HMAC-SHA-256 over the phone's poster source,
    /// the name and the bytes, keyed with the user's private key (`PrivateFolder.key`).
    ///
    /// It stands for what the phone's sandbox gives a real app: nobody else can put a file in its caches.
    /// A file sealed on another poster source (the generated posters or another `--posters` folder), or
    /// written by anyone without the key, does not match, so a cache can check every entry it reads.
    public func seal(_ bytes: [UInt8], name: String) -> String {
        if let onFirstSeal {
            self.onFirstSeal = nil
            onFirstSeal()
        }
        return SHA256.hmacHex(
            key: PrivateFolder.key,
            message: Array(posterSource.utf8) + [0] + Array(name.utf8) + [0] + bytes)
    }
}
