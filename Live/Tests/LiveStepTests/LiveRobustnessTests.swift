import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Live runs that another process, a full disk, a dead link or a closed output cannot hang, crash or skew:
/// each ends, says how, and reports only its own requests.
@Suite(.serialized)
struct LiveRobustnessTests {
    /// Three seconds of looking and scrolling over 20 rows.
    static let scenario = """
        rows 20
        seed 7
        network rtt=100ms jitter=20ms bandwidth=2000KB/s connections=6
        screen height=667 row=88 refresh=60
        wait 1s
        drag to row 4 over 0.5s
        wait 1.5s
        """

    /// Whether a process's listening port can be found (`/proc`, on Linux).
    #if os(Linux)
        static let findsPorts = true
    #else
        static let findsPorts = false
    #endif

    @Test(
        "A flood of idle connections and outsiders' requests neither stops the server nor enters its report",
        .enabled(if: findsPorts, "finding the step's port needs Linux's /proc"))
    func floodsAndProbesDoNotReachTheReport() throws {
        var flood = Flood()
        // Connections that trickle a request head one byte a second, held past the scenario's end: the
        // run must not wait for them.
        let lingering = Trickle()
        let run = try LiveStepRun(
            step: "Step2Background", scenario: Self.scenario, descriptorLimit: 200,
            during: { pid in
                let port = try #require(Self.listeningPort(of: pid), "the step's server never listened")
                flood.open(300, to: port)
                flood.probe(20, to: port)
                Thread.sleep(forTimeInterval: 1.5)
                flood.closeAll()
                lingering.start(10, to: port)
            })
        lingering.stop()
        let wall = try #require(try run.live("wall_seconds") as? NSNumber).doubleValue
        #expect(wall < 30, "idle outside connections kept a 3 s run going for \(wall) s")
        #expect(
            flood.opened > 200,
            "the flood should hold more connections than the step may open: \(flood.answers)")
        #expect(flood.refusedProbes == flood.probes, "every outsider's request is refused: \(flood.answers)")
        #expect(try run.number("requests_started") == run.serverRequests, "\(run.text)")
        let log = try #require(run.report["server_log"] as? [[String: Any]])
        #expect(log.allSatisfy { $0["outcome"] as? String == "completed" }, "\(run.text)")
        #expect(try run.live("visible_rows_final_at_end") as? Bool == true, "\(run.text)")
    }

    @Test(
        "A run on a link no poster crosses is cut at its time limit and says so",
        arguments: ["Step1Naive", "Step4CacheAndPrefetch"])
    func aDeadLinkIsCut(step: String) throws {
        let dead = Self.scenario.replacingOccurrences(of: "bandwidth=2000KB/s", with: "bandwidth=1B/s")
        let run = try LiveStepRun(step: step, scenario: dead, arguments: ["--settle-limit", "2"])
        #expect(run.notices.contains { $0.contains("the run was cut") }, "\(run.text)")
        #expect(run.errors.contains("the run was cut"), "\(run.errors)")
        let wall = try #require(try run.live("wall_seconds") as? NSNumber).doubleValue
        #expect(wall < 30, "the run went on \(wall) s past a scenario of 3 s with 2 s to settle")
    }

    @Test("A disk that fills turns step 4's disk cache off, and the run says so")
    func aFullDiskIsSaid() throws {
        let full = Self.scenario.replacingOccurrences(of: "seed 7", with: "seed 7\ndisk full-after=2")
        let run = try LiveStepRun(step: "Step4CacheAndPrefetch", scenario: full)
        #expect(try run.number("disk_writes") == 2, "\(run.text)")
        #expect(run.notices.contains { $0.contains("disk cache off") }, "\(run.text)")
        #expect(run.errors.contains("turned its disk cache off"), "\(run.errors)")
    }

    @Test(
        "A report standard output cannot take gets one line and status 1",
        arguments: [OutputEnd.full, .closed])
    func anOutputThatFailsIsSaid(end: OutputEnd) throws {
        let ended = try Self.runWithOutput(end, step: "Step2Background")
        #expect(ended.status == 1, "\(ended.errors)")
        #expect(ended.errors.contains("cannot write the report to standard output"), "\(ended.errors)")
        #expect(!ended.errors.contains("Fatal error"), "\(ended.errors)")
    }

    @Test(
        "A run ended by a signal leaves no caches folder behind, and a run's folder is its own",
        arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalLeavesNothingBehind(signal number: Int32) throws {
        let executable = try LiveStepRun.executable("Step2Background")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--scenario", "course"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        var folder: String?
        for _ in 0..<400 where folder == nil {
            folder = Self.cachesFolders(of: pid).first
            if folder == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        let made = try #require(folder, "no caches folder of the run appeared")
        var status = stat()
        #expect(lstat(made, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFDIR, "the caches folder is a folder, not a link")
        #expect(status.st_mode & 0o777 == 0o700, "the caches folder is private")
        #expect(Self.cachesFolders(of: pid).count == 1)
        kill(pid, number)
        process.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: made), "\(made) was left behind")
    }

    @Test("A catalog of 100,000 rows starts at once: only the posters the scenario stops on are made first")
    func aBigCatalogStartsAtOnce() throws {
        let big = Self.scenario.replacingOccurrences(of: "rows 20", with: "rows 100000")
        let started = ContinuousClock.now
        let run = try LiveStepRun(step: "Step2Background", scenario: big)
        #expect(try run.number("requests_started") >= 1, "\(run.text)")
        // Making every poster of such a catalog took minutes; a run of a few seconds ends well within one.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    // MARK: Helpers

    /// How standard output fails: a full device, or a descriptor that is closed.
    enum OutputEnd: String, CustomTestStringConvertible {
        case full, closed
        var testDescription: String { rawValue }
    }

    /// Runs a step with standard output on `/dev/full` or closed; its status and standard error.
    static func runWithOutput(_ end: OutputEnd, step: String) throws -> (status: Int32, errors: String) {
        let executable = try LiveStepRun.executable(step)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID()).scenario")
        try Data(Self.scenario.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let redirect = end == .full ? ">/dev/full" : ">&-"
        return try LiveStepRun.statusAndErrors(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "exec \"$0\" --scenario \"$1\" \(redirect)", executable.path, file.path])
    }

    /// The caches folders of the live run with process id `pid`.
    static func cachesFolders(of pid: Int32) -> [String] {
        let base = FileManager.default.temporaryDirectory.path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        return names.filter { $0.hasPrefix("workbook-live-caches-\(pid)-") }.map { base + "/" + $0 }
    }

    /// The port a process listens on over TCP on loopback, found from its socket descriptors and the
    /// kernel's table of TCP sockets; nil when it listens on none (yet).
    static func listeningPort(of pid: Int32) -> Int? {
        #if os(Linux)
            for _ in 0..<200 {
                let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
                var inodes: Set<String> = []
                for fd in fds {
                    guard
                        let target = try? FileManager.default.destinationOfSymbolicLink(
                            atPath: "/proc/\(pid)/fd/\(fd)"),
                        target.hasPrefix("socket:[")
                    else { continue }
                    inodes.insert(String(target.dropFirst("socket:[".count).dropLast()))
                }
                let table = (try? String(contentsOfFile: "/proc/\(pid)/net/tcp", encoding: .utf8)) ?? ""
                for line in table.split(separator: "\n").dropFirst() {
                    let fields = line.split(separator: " ")
                    // local_address is field 1 (ADDR:PORT in hex), st field 3 (0A: listening), inode field 9.
                    guard fields.count > 9, fields[3] == "0A", inodes.contains(String(fields[9])),
                        let port = fields[1].split(separator: ":").last.flatMap({ Int($0, radix: 16) })
                    else { continue }
                    return port
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return nil
        #else
            return nil
        #endif
    }
}

/// Connections that send a request head one byte a second, never finishing it, on a thread of their own
/// until stopped.
final class Trickle: @unchecked Sendable {
    /// `@unchecked Sendable`: `stopped` and the flood are touched only while `lock` is held.
    private let lock = NSLock()
    private var flood = Flood()
    private var stopped = false

    func start(_ count: Int, to port: Int) {
        lock.withLock { flood.open(count, to: port) }
        Thread.detachNewThread { [self] in
            while lock.withLock({ stopped ? false : flood.sendOneByte() }) {
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    func stop() {
        lock.withLock {
            stopped = true
            flood.closeAll()
        }
    }
}

/// Another process's traffic at a live run's server: idle connections held open, and requests that do
/// not carry the run's secret.
struct Flood {
    private var held: [Int32] = []
    /// How many connections the flood opened and held.
    private(set) var opened = 0
    private(set) var probes = 0
    private(set) var answers: [String] = []

    var refusedProbes: Int { answers.filter { $0.hasPrefix("HTTP/1.1 407") }.count }

    /// Opens up to `count` connections to `port` and holds them, sending nothing.
    mutating func open(_ count: Int, to port: Int) {
        for _ in 0..<count {
            guard let connection = Self.connect(port) else { break }
            held.append(connection)
            opened += 1
        }
    }

    /// Sends `count` proxy requests for a catalog-like URL, without credentials, and keeps each first line.
    mutating func probe(_ count: Int, to port: Int) {
        for index in 0..<count {
            probes += 1
            guard let connection = Self.connect(port) else {
                answers.append("no connection")
                continue
            }
            let request = "GET http://img1.example/probe\(index).png HTTP/1.1\r\nHost: img1.example\r\n\r\n"
            _ = request.withCString { send(connection, $0, strlen($0), 0) }
            var buffer = [UInt8](repeating: 0, count: 512)
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let got = recv(connection, &buffer, buffer.count, 0)
            let text = got > 0 ? String(decoding: buffer[..<got], as: UTF8.self) : "nothing"
            answers.append(text.components(separatedBy: "\r\n")[0])
            close(connection)
        }
    }

    /// Sends one more byte of a request head on every held connection; false once none is held.
    func sendOneByte() -> Bool {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0  // SO_NOSIGPIPE is set on each connection
        #endif
        for connection in held { _ = send(connection, "G", 1, flags) }
        return !held.isEmpty
    }

    mutating func closeAll() {
        for connection in held { close(connection) }
        held = []
    }

    private static func connect(_ port: Int) -> Int32? {
        #if canImport(Glibc)
            let connection = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let connection = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard connection >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(connection, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(connection)
            return nil
        }
        #if canImport(Darwin)
            var yes: Int32 = 1
            setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return connection
    }
}

/// `connect(2)`, under a name `Flood.connect` does not hide.
private func systemConnect(_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32
{
    #if canImport(Glibc)
        Glibc.connect(socket, address, length)
    #else
        Darwin.connect(socket, address, length)
    #endif
}
