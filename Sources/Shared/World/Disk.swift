import Foundation

/// The simulated phone's storage: a real directory with real files, and a virtual cost per read and write.
///
/// The app's caches directory lives inside it. A relaunch keeps every file. By default it is a fresh
/// temporary directory removed when the run ends; `--cache-dir DIR` keeps it across runs.
public final class Disk {
    /// The disk of the phone whose simulated thread calls this.
    public static var shared: Disk {
        guard let phone = Phone.current else {
            preconditionFailure("Disk.shared is only available on a simulated thread of a Phone.")
        }
        return phone.disk
    }

    /// The app's caches directory (created when the phone starts).
    public let cachesDirectory: URL
    private unowned let phone: Phone
    private let costs: CostModel
    /// Writes accepted before the disk is full (nil: it never fills).
    private let fullAfterWrites: Int?
    /// Writes accepted so far.
    private var writesAccepted = 0

    init(phone: Phone, root: URL, costs: CostModel, fullAfterWrites: Int? = nil) throws {
        self.phone = phone
        self.costs = costs
        self.fullAfterWrites = fullAfterWrites
        cachesDirectory = root.appendingPathComponent("Caches", isDirectory: true)
        try FileManager.default.createDirectory(at: cachesDirectory, withIntermediateDirectories: true)
    }

    /// Reads a whole file, blocking the calling simulated thread for the read's cost; nil if it is missing.
    public func contents(of url: URL) -> Data? {
        let data = FileManager.default.contents(atPath: url.path)
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
        do {
            if let fullAfterWrites, writesAccepted >= fullAfterWrites {
                throw CocoaError(.fileWriteOutOfSpace)
            }
            try data.write(to: url, options: atomically ? [.atomic] : [])
            writesAccepted += 1
        } catch {
            let full = (error as? CocoaError)?.code == .fileWriteOutOfSpace
            phone.recorder.diskWriteFailed(
                path: url.lastPathComponent, reason: full ? "disk full" : "cannot write the file",
                thread: thread?.name ?? "?")
            return false
        }
        phone.recorder.diskWritten(
            path: url.lastPathComponent, bytes: data.count, thread: thread?.name ?? "?", micros: cost)
        return true
    }

    /// Whether a file exists (free: the file system keeps this in memory).
    public func fileExists(at url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path)
    }

    /// Makes a folder (and its parents) if it is missing; returns whether it exists afterwards.
    @discardableResult
    public func createDirectory(at url: URL) -> Bool {
        (try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)) != nil
    }

    /// Removes a file if it exists.
    public func removeItem(at url: URL) {
        try? FileManager.default.removeItem(at: url)
    }
}
