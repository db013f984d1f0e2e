import Files
import Foundation
import LiveLock

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The network, for real: `data(contentsOf:)` is Foundation's `Data(contentsOf:)`, and the cancellable
/// download a `URLSession` data task (`LiveSession.shared`, with the scenario's timeout) that stops when
/// its operation is cancelled. Every request goes out as
/// plain `http` (`LiveAddress`), so the process's `http_proxy` sends it to the loopback server, and is
/// counted as started.
public final class Network: Sendable {
    public static let shared = Network()

    /// Downloads a URL's body, blocking the calling thread; nil on any failure. A URL without a host fails
    /// at once, with no request.
    public func data(contentsOf url: URL) -> Data? {
        guard let address = LiveAddress.request(for: url) else { return nil }
        defer { LiveCounters.requestEnded() }
        let data = try? Data(contentsOf: address)
        if let data { LiveWaste.received(address, bytes: data.count) }
        return data
    }

    /// Downloads a URL's body, blocking the calling thread until it arrives, fails, or `operation` is
    /// cancelled (seen within 10 ms), which cancels the transfer.
    public func data(from url: URL, cancellingWith operation: Operation) throws(NetworkError) -> Data {
        guard let address = LiveAddress.request(for: url) else { throw .invalidURL }
        defer { LiveCounters.requestEnded() }
        let answer = Answer()
        let task = LiveSession.shared.dataTask(with: address) { data, response, error in
            answer.set(data: data, response: response, error: error)
        }
        task.resume()
        while answer.done.wait(timeout: .now() + .milliseconds(10)) == .timedOut {
            if operation.isCancelled { task.cancel() }
        }
        let data = try answer.result()
        LiveWaste.received(address, bytes: data.count)
        return data
    }

    /// As `data(from:cancellingWith:)`, with the simulator's signature for resuming. The live network keeps
    /// no resume data: it ignores what `resumeData` holds, downloads the whole body every time, and leaves
    /// `resumeData` nil, so a retry after a transfer cut short downloads the whole poster again.
    public func data(
        from url: URL, cancellingWith operation: Operation, resumeData: inout ResumeData?
    ) throws(NetworkError) -> Data {
        resumeData = nil
        return try data(from: url, cancellingWith: operation)
    }

    /// What a data task answered, handed from URLSession's thread to the waiting one.
    private final class Answer: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private var data: Data?
        private var response: URLResponse?
        private var error: (any Error)?

        /// Called once, on URLSession's thread; `done` orders it before `result()`.
        func set(data: Data?, response: URLResponse?, error: (any Error)?) {
            self.data = data
            self.response = response
            self.error = error
            done.signal()
        }

        func result() throws(NetworkError) -> Data {
            if let error = error as? URLError { throw NetworkError(error) }
            guard error == nil, let data else { throw .connectionLost }
            if let status = (response as? HTTPURLResponse)?.statusCode, status != 200 {
                throw .status(status)
            }
            return data
        }
    }
}

extension NetworkError {
    /// The failure the simulator gives for what a URLSession task reported live: its timeout, a cancel,
    /// a connection refused, which on loopback is a connection the server accepted and closed before any
    /// status line (`.badServerResponse`: nothing else the live server does gives it); any other failure,
    /// such as a body cut short (`.unknown` on Linux), is a connection lost.
    init(_ error: URLError) {
        switch error.code {
        case .cancelled: self = .cancelled
        case .timedOut: self = .timedOut
        case .cannotConnectToHost, .badServerResponse: self = .connectionRefused
        default: self = .connectionLost
        }
    }
}

/// The app's URL session: the default configuration with the scenario's `timeout=` as its request
/// timeout (URLSession's own default is 60 s), and room for the scenario's `connections=` to every host of
/// the catalog at once. Every request goes through one proxy, the loopback server, so URLSession's limit
/// of connections per host holds all the catalog's hosts together; the simulator gives each host its own.
/// `Data(contentsOf:)` cannot be given a timeout: for it the server closes a request it leaves
/// unanswered, just after the scenario's timeout.
enum LiveSession {
    private static let limits = Mutex((timeout: 60.0, connections: 6))

    /// Sets the request timeout, in seconds, and the connections the session may hold open to its proxy,
    /// before anything uses `shared`.
    static func use(timeout seconds: Double, connections: Int) {
        limits.withLock { $0 = (seconds, max(1, connections)) }
    }

    /// The session, made on first use with the limits set then.
    static let shared: URLSession = {
        let configuration = URLSessionConfiguration.default
        let chosen = limits.withLock { $0 }
        configuration.timeoutIntervalForRequest = chosen.timeout
        configuration.httpMaximumConnectionsPerHost = chosen.connections
        return URLSession(configuration: configuration)
    }()
}

/// The app's disk, for real: files in a private folder of the temporary directory, made for the run
/// (`use`) and removed at its end. A scenario's `disk full-after=N` fills it after N writes, as the
/// simulator's does.
public final class Disk: Sendable {
    public static let shared = Disk()

    private let state = Mutex((folder: URL?.none, writesLeft: Int?.none))

    /// Gives the app its caches folder, and the writes it may make before the disk is full (nil: it never
    /// fills).
    static func use(folder: URL, writesBeforeFull: Int?) {
        shared.state.withLock { $0 = (folder, writesBeforeFull) }
    }

    /// The app's caches folder.
    public var cachesDirectory: URL {
        guard let folder = state.withLock({ $0.folder }) else {
            preconditionFailure("the live run gives the disk its folder before it makes the app")
        }
        return folder
    }

    public func contents(of url: URL) -> Data? {
        FileManager.default.contents(atPath: url.path)
    }

    /// Writes a whole file (through a temporary file and a rename when `atomically`); a write that
    /// succeeds counts as a disk write, and one that fails says why to the run's notices.
    public func write(_ data: Data, to url: URL, atomically: Bool) -> Bool {
        let failure: String?
        if state.withLock({ ($0.writesLeft ?? 1) <= 0 }) {
            failure = "disk full"
        } else if atomically {
            failure = TemporaryFiles.atomicWriteFailure([UInt8](data), to: url)
        } else {
            do {
                try data.write(to: url)
                failure = nil
            } catch {
                failure = SystemError.reason(error)
            }
        }
        if let failure {
            LiveNotices.diskWriteFailed(failure)
            return false
        }
        state.withLock { $0.writesLeft? -= 1 }
        LiveTally.count(.diskWrites)
        return true
    }

    public func fileExists(at url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path)
    }

    /// The size of a file in bytes; nil when it is missing.
    public func fileSize(at url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
    }

    /// Removes a file if it exists.
    public func removeItem(at url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    public func isFolder(at url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    /// Makes a folder (and its parents) if it is missing; returns whether it exists afterwards.
    @discardableResult
    public func createDirectory(at url: URL) -> Bool {
        (try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)) != nil
    }

    /// A seal for bytes kept under a name: HMAC-SHA-256 keyed with the user's private key, as the
    /// simulator's disk seals them.
    public func seal(_ bytes: [UInt8], name: String) -> String {
        SHA256.hmacHex(key: PrivateFolder.key, message: Array(name.utf8) + [0] + bytes)
    }
}
