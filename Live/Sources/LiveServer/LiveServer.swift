import Foundation
import LiveLock

/// An HTTP/1.1 server on 127.0.0.1 that answers GET requests for posters, shaped by a `LinkShape`.
///
/// Each connection carries one request and is answered on a thread of its own, then closed. A client
/// reaches the server directly (`http://127.0.0.1:PORT/path` with the poster's host in `Host`), or as
/// its HTTP proxy (`http_proxy=http://127.0.0.1:PORT` in a process's environment: `URLSession` and
/// `Data(contentsOf:)` then send the catalog's own URLs here). A client that closes its connection
/// before the answer is all sent is logged as a cancel, with the body bytes that had left. A response may
/// carry a fault: a body cut short (`truncatedAfter`), a connection closed before any answer, or a request
/// held unanswered until the client gives up or the shape's `timeout` passes (`unanswered`).
///
/// Made with a `secret`, it answers only requests that carry it as their proxy credentials (the run's own
/// process, whose `http_proxy` holds it): any other is refused with 407 and neither logged nor counted
/// against a URL's attempts. It keeps accepting whatever another process does: at most `connectionLimit`
/// connections are open at once (a new one past the limit closes, at once, the one that has waited
/// longest for its request's head, or is itself closed when every open one is being answered), and an
/// `accept` that fails (no descriptor left, say) is tried again after a short pause.
public final class LiveServer: Sendable {
    /// The port the server listens on.
    public let port: UInt16
    private let listener: Int32
    private let shape: LinkShape
    private let link: SharedLink
    private let slots: HostSlots
    private let content: @Sendable (_ host: String, _ path: String, _ attempt: Int) -> LiveResponse
    /// The `Proxy-Authorization` a request must carry; nil when every request is served.
    private let authorization: String?
    private let connectionLimit: Int
    private let state = Mutex(State())

    private struct State {
        var nextSequence = 0
        var attemptsByURL: [String: Int] = [:]
        var log: [LiveRequestRecord] = []
        var stopped = false
        /// Every open connection, by descriptor: when it began waiting for its request's head, or nil once
        /// it is being answered.
        var open: [Int32: ContinuousClock.Instant?] = [:]
    }

    /// The user name of the proxy credentials a run's requests carry; the secret is the password.
    public static let proxyUser = "workbook"

    /// The `http_proxy` that sends a process's requests to a server on `port` with `secret`.
    public static func proxy(port: UInt16, secret: String) -> String {
        "http://\(proxyUser):\(secret)@127.0.0.1:\(port)"
    }

    /// A fresh secret: 32 hexadecimal digits from the system's random source.
    public static func makeSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
    }

    /// The most connections a server opens at once by default: half the descriptors the process may
    /// open, at most 256, so that a flood leaves the process room for its own client sockets.
    public static var defaultConnectionLimit: Int {
        max(8, min(256, Socket.descriptorLimit / 2))
    }

    /// How much earlier than its timeout after the request's arrival a client's timer may fire: it
    /// starts when the client sends, a moment before the request arrives.
    static let timerSlack = Duration.milliseconds(100)

    /// The bytes of the body sent per turn on the link.
    static let chunkBytes = 4096

    /// Starts a server that answers each request with `content(host, path, attempt)`; with a `secret`,
    /// only requests whose proxy credentials carry it.
    public init(
        shape: LinkShape, secret: String? = nil, connectionLimit: Int = LiveServer.defaultConnectionLimit,
        content: @escaping @Sendable (_ host: String, _ path: String, _ attempt: Int) -> LiveResponse
    ) throws {
        (listener, port) = try Socket.listenOnLoopback()
        self.shape = shape
        link = SharedLink(bytesPerSecond: shape.bytesPerSecond)
        slots = HostSlots(perHost: shape.connectionsPerHost)
        self.content = content
        authorization = secret.map {
            "Basic " + Data("\(Self.proxyUser):\($0)".utf8).base64EncodedString()
        }
        self.connectionLimit = max(1, connectionLimit)
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// Stops accepting connections and shuts down those that have sent no request yet; answers under way
    /// run to their end. A server runs until stopped.
    public func stop() {
        let wasStopped = state.withLock { state in
            defer { state.stopped = true }
            for (connection, since) in state.open where since != nil { Socket.shutDownConnection(connection) }
            return state.stopped
        }
        if !wasStopped { Socket.shutDown(listener) }
    }

    /// Stops the server and ends every answer under way: each open connection is shut down, so a client
    /// still waiting for its answer sees the connection end (a run's time limit).
    public func cut() {
        stop()
        state.withLock { state in
            for connection in state.open.keys { Socket.shutDownConnection(connection) }
        }
    }

    /// Every request answered so far, in the order they arrived.
    public var log: [LiveRequestRecord] {
        state.withLock { $0.log }.sorted { $0.sequence < $1.sequence }
    }

    /// The log once it holds at least `count` requests, or once the server is stopped with no connection
    /// open, or as it is after `limit`.
    public func log(count: Int, within limit: Duration) -> [LiveRequestRecord] {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while clock.now < deadline
            && state.withLock({ $0.log.count < count && !($0.stopped && $0.open.isEmpty) })
        {
            blockThread(for: .milliseconds(5))
        }
        return log
    }

    /// Whether a request is being answered: its head has arrived and its connection is still open (a
    /// connection that has sent no head yet, an idle outsider's say, is not one).
    public var isAnswering: Bool {
        state.withLock { $0.open.values.contains { $0 == nil } }
    }

    private func acceptConnections() {
        var pause = Duration.milliseconds(1)
        while !state.withLock({ $0.stopped }) {
            guard let connection = Socket.accept(on: listener) else {
                // Out of descriptors or memory, or the listener shut down: wait a little and look again.
                blockThread(for: pause)
                pause = min(pause * 2, .milliseconds(100))
                continue
            }
            pause = .milliseconds(1)
            guard admit(connection) else {
                Socket.close(connection)
                continue
            }
            Thread.detachNewThread { [self] in
                answer(connection)
                state.withLock { _ = $0.open.removeValue(forKey: connection) }
                Socket.close(connection)
            }
        }
    }

    /// Registers a new connection, making room under the limit by shutting down the connection that has
    /// waited longest for its request's head (a client of the run sends its head at once, so the oldest
    /// waiting is an idle outsider's); false when every open connection is being answered.
    private func admit(_ connection: Int32) -> Bool {
        state.withLock { state in
            if state.open.count >= connectionLimit {
                let waiting = state.open.compactMap { entry in entry.value.map { (entry.key, $0) } }
                guard let oldest = waiting.min(by: { $0.1 < $1.1 }) else { return false }
                Socket.shutDownConnection(oldest.0)
                state.open[oldest.0] = .some(nil)
            }
            state.open[connection] = .some(ContinuousClock.now)
            return true
        }
    }

    /// Reads one request on `connection` and answers it.
    private func answer(_ connection: Int32) {
        Socket.setReceiveTimeout(connection, seconds: 10)
        var head: [UInt8] = []
        var end: Int?
        while end == nil && head.count <= HTTPRequest.maximumHeadBytes {
            let bytes = Socket.receive(connection, limit: 4096)
            if bytes.isEmpty { break }
            head += bytes
            end = HTTPRequest.endOfHead(in: head)
        }
        state.withLock { $0.open[connection] = .some(nil) }
        let request = end.flatMap { HTTPRequest(head: Array(head[..<$0])) }
        if let authorization, request?.proxyAuthorization != authorization {
            refuseOutsider(connection)
            return
        }
        guard let request else {
            refuse(connection, status: 400)
            return
        }
        guard request.method == "GET" else {
            refuse(connection, status: 405)
            return
        }
        let arrived = ContinuousClock.now
        let (sequence, attempt) = state.withLock { state in
            defer {
                state.nextSequence += 1
                state.attemptsByURL[request.url, default: 0] += 1
            }
            return (state.nextSequence, state.attemptsByURL[request.url, default: 0])
        }
        slots.acquire(request.host)
        defer { slots.release(request.host) }
        var record = (status: 0, sent: 0, outcome: LiveRequestRecord.Outcome.completed)
        defer {
            let entry = LiveRequestRecord(
                sequence: sequence, url: request.url, attempt: attempt, status: record.status,
                rangeStart: request.range?.first, bodyBytesSent: record.sent, outcome: record.outcome,
                arrived: arrived, ended: .now)
            state.withLock { $0.log.append(entry) }
        }
        // The answer is known before the wait: a request held unanswered, or whose latency is past the
        // timeout, waits out the timeout instead (from the moment it has a slot, as the simulator's).
        let response = content(request.host, request.path, attempt)
        let latency = shape.latency(request.url, attempt)
        if response.unanswered == .held || latency > shape.timeout {
            if waitOut(shape.timeout, on: connection) {
                record.outcome = .heldUnanswered
            } else if let given = shape.clientTimeout, ContinuousClock.now - arrived < given - Self.timerSlack
            {
                record.outcome = .cancelled
            } else {
                record.outcome = .abandoned
            }
            return
        }
        if !waitOut(latency, on: connection) {
            record.outcome = .cancelled
            return
        }
        if response.unanswered == .closed {
            record.outcome = .closedUnanswered
            return
        }
        var body = response.body[...]
        var status = response.status
        var headers = ["Content-Type: \(response.contentType)", "Accept-Ranges: bytes"]
        if status == 200, let range = request.range {
            if range.first < body.count {
                let last = min(range.last ?? body.count - 1, body.count - 1)
                headers.append("Content-Range: bytes \(range.first)-\(last)/\(body.count)")
                body = body[range.first...last]
                status = 206
            } else {
                headers = ["Content-Range: bytes */\(body.count)"]
                body = []
                status = 416
            }
        }
        record.status = status
        let statusLine = "HTTP/1.1 \(status) \(Self.reason(status))"
        let lines = [statusLine] + headers + ["Content-Length: \(body.count)", "Connection: close", "", ""]
        guard Socket.send(connection, Array(lines.joined(separator: "\r\n").utf8)[...]) else {
            record.outcome = .cancelled
            return
        }
        let cut = response.truncatedAfter.map { min($0, body.count) } ?? body.count
        var offset = body.startIndex
        while offset < body.startIndex + cut {
            let chunk = body[offset..<min(offset + Self.chunkBytes, body.startIndex + cut)]
            guard waitOut(link.reserve(chunk.count) - ContinuousClock.now, on: connection),
                Socket.send(connection, chunk)
            else {
                record.outcome = .cancelled
                return
            }
            offset += chunk.count
            record.sent += chunk.count
        }
        if cut < body.count { record.outcome = .truncated }
    }

    /// Waits `latency`, watching the connection: false when the client closed it meanwhile.
    private func waitOut(_ latency: Duration, on connection: Int32) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + latency
        while clock.now < deadline {
            if Socket.peerHasClosed(connection) { return false }
            blockThread(for: min(.milliseconds(5), deadline - clock.now))
        }
        return !Socket.peerHasClosed(connection)
    }

    /// Answers a request without the run's secret: 407, neither logged nor counted as an attempt.
    private func refuseOutsider(_ connection: Int32) {
        let answer =
            "HTTP/1.1 407 \(Self.reason(407))\r\nProxy-Authenticate: Basic realm=\"workbook\"\r\n"
            + "Content-Length: 0\r\nConnection: close\r\n\r\n"
        _ = Socket.send(connection, Array(answer.utf8)[...])
    }

    /// Answers a request the server does not serve, and logs it.
    private func refuse(_ connection: Int32, status: Int) {
        let sequence = state.withLock { state in
            defer { state.nextSequence += 1 }
            return state.nextSequence
        }
        let answer =
            "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        _ = Socket.send(connection, Array(answer.utf8)[...])
        let entry = LiveRequestRecord(
            sequence: sequence, url: "", attempt: 0, status: status, rangeStart: nil, bodyBytesSent: 0,
            outcome: .refused, arrived: .now, ended: .now)
        state.withLock { $0.log.append(entry) }
    }

    /// The reason phrase of a status the server sends.
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 206: "Partial Content"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 407: "Proxy Authentication Required"
        case 416: "Range Not Satisfiable"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

/// Each host's connection slots: at most `perHost` of a host's requests are answered at once, and the
/// others wait in the order they asked.
///
/// `@unchecked Sendable`: every stored property is read and written only while `condition` is held.
final class HostSlots: @unchecked Sendable {
    private let perHost: Int
    private let condition = NSCondition()
    private var busy: [String: Int] = [:]
    /// Tickets handed out and tickets served, by host: a request waits until its ticket is next.
    private var issued: [String: Int] = [:]
    private var admitted: [String: Int] = [:]

    init(perHost: Int) {
        self.perHost = perHost
    }

    /// Blocks until a slot of `host` is free and takes it.
    func acquire(_ host: String) {
        condition.lock()
        defer { condition.unlock() }
        let ticket = issued[host, default: 0]
        issued[host] = ticket + 1
        while admitted[host, default: 0] != ticket || busy[host, default: 0] >= perHost {
            condition.wait()
        }
        admitted[host] = ticket + 1
        busy[host, default: 0] += 1
        condition.broadcast()
    }

    /// Gives back a slot of `host`.
    func release(_ host: String) {
        condition.lock()
        busy[host, default: 0] -= 1
        condition.broadcast()
        condition.unlock()
    }
}
