import Foundation
import LiveServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server's answer to each fault a response can carry, as the live run asks for it with the
/// simulator's draws (`LiveRun.answer`): here the first attempt of a URL carries the fault and the second
/// is answered whole, so each test also checks that the fault follows the attempt.
@Suite struct LiveServerFaultTests {
    static let poster = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }

    /// A server whose first attempt at any URL is answered as `fault` says, and every later one whole.
    static func server(
        timeout: Duration = .seconds(30), fault: @escaping @Sendable (inout LiveResponse) -> Void
    ) throws -> LiveServer {
        let shape = LinkShape.fixed(
            latency: .zero, bytesPerSecond: 50_000_000, connectionsPerHost: 6, timeout: timeout)
        return try LiveServer(shape: shape) { _, _, attempt in
            var response = LiveResponse(status: 200, body: poster)
            if attempt == 0 { fault(&response) }
            return response
        }
    }

    /// Sends one request for `/f.png` and reads until the server closes.
    static func fetch(_ server: LiveServer) throws -> [UInt8] {
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send(["GET /f.png HTTP/1.1", "Host: img1.example"])
        return client.readAll()
    }

    @Test func aServerErrorIsAnswered500WithItsPageAndTheNextAttemptWhole() throws {
        let page = Array("<html><body>500 Internal Server Error</body></html>".utf8)
        let server = try Self.server { $0 = LiveResponse(status: 500, body: page, contentType: "text/html") }
        defer { server.stop() }
        let first = try #require(RawAnswer(Self.fetch(server)))
        let second = try #require(RawAnswer(Self.fetch(server)))
        #expect(first.status == 500)
        #expect(first.body == page)
        #expect(second.status == 200)
        #expect(second.body == Self.poster)
        #expect(server.log(count: 2, within: .seconds(5)).map(\.status) == [500, 200])
    }

    @Test func aCorruptBodyArrivesWholeWithExactlyTheBytesTheResponseFlipped() throws {
        let flipped = [70, 1234, 4999]
        let server = try Self.server { response in
            for index in flipped { response.body[index] ^= 0xa5 }
        }
        defer { server.stop() }
        let first = try #require(RawAnswer(Self.fetch(server)))
        #expect(first.status == 200)
        #expect(first.body.count == Self.poster.count)
        let differing = first.body.indices.filter { first.body[$0] != Self.poster[$0] }
        #expect(differing == flipped)
        #expect(try RawAnswer(Self.fetch(server))?.body == Self.poster)
    }

    @Test func aRefusedConnectionIsClosedBeforeAnyStatusLine() throws {
        let server = try Self.server { $0.unanswered = .closed }
        defer { server.stop() }
        #expect(try Self.fetch(server).isEmpty)
        #expect(try RawAnswer(Self.fetch(server))?.status == 200)
        let log = server.log(count: 2, within: .seconds(5))
        #expect(log.map(\.outcome) == [.closedUnanswered, .completed])
        #expect(log.first?.status == 0)
        #expect(log.first?.bodyBytesSent == 0)
    }

    @Test func aTimedOutRequestGetsNothingUntilTheClientGivesUp() throws {
        let server = try Self.server { $0.unanswered = .held }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send(["GET /f.png HTTP/1.1", "Host: img1.example"])
        // Nothing for 400 ms (a whole answer takes under a millisecond here), and the server still holds
        // the request: its log has nothing yet.
        #expect(Self.bytesArrive(on: client.descriptor, within: .milliseconds(400)) == false)
        #expect(server.log.isEmpty)
        client.close()
        let log = server.log(count: 1, within: .seconds(5))
        #expect(log.map(\.outcome) == [.abandoned])
        #expect(log.first?.status == 0)
        #expect(try RawAnswer(Self.fetch(server))?.status == 200)
    }

    @Test func aHeldRequestIsClosedByTheServerAfterTheShapesTimeout() throws {
        let server = try Self.server(timeout: .milliseconds(300)) { $0.unanswered = .held }
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try Self.fetch(server).isEmpty)
        #expect(clock.now - start >= .milliseconds(300))
        #expect(server.log(count: 1, within: .seconds(5)).map(\.outcome) == [.heldUnanswered])
    }

    @Test func aLatencyPastTheTimeoutIsHeldUnansweredAsATimeout() throws {
        let shape = LinkShape.fixed(
            latency: .seconds(20), bytesPerSecond: 50_000_000, connectionsPerHost: 6,
            timeout: .milliseconds(200))
        let server = try LiveServer(shape: shape) { _, _, _ in LiveResponse(status: 200, body: Self.poster) }
        defer { server.stop() }
        #expect(try Self.fetch(server).isEmpty)
        #expect(server.log(count: 1, within: .seconds(5)).map(\.outcome) == [.heldUnanswered])
    }

    /// Whether any byte (or the end of the stream) arrives on `descriptor` within `limit`.
    static func bytesArrive(on descriptor: Int32, within limit: Duration) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000)
        return poll(&entry, 1, milliseconds) > 0
    }
}

/// What the steps' clients see of each fault: URLSession (steps 4 and 5) a status or the `URLError` code
/// that the live network turns into the simulator's `NetworkError`, `Data(contentsOf:)` (steps 1 to 3)
/// bytes or none. In the suite whose tests set the process's `http_proxy`, so that they run one at a
/// time: a request to 127.0.0.1 made while one of them has it set would go to that test's server.
extension LiveServerTests.ThroughURLSession {
    /// The error code or status a data task ends with on the first attempt of a faulty server.
    static func firstAttempt(
        timeout: Double = 30, fault: @escaping @Sendable (inout LiveResponse) -> Void
    ) async throws -> (status: Int?, code: URLError.Code?) {
        let server = try LiveServerFaultTests.server(fault: fault)
        defer { server.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/f.png"))
        do {
            let (_, response) = try await URLSession(configuration: configuration).data(from: url)
            return ((response as? HTTPURLResponse)?.statusCode, nil)
        } catch let error as URLError {
            return (nil, error.code)
        }
    }

    @Test func urlSessionSeesEachFaultAsTheSimulatorsClientDoes() async throws {
        let serverError = try await Self.firstAttempt {
            $0 = LiveResponse(status: 500, body: [1, 2, 3], contentType: "text/html")
        }
        let truncated = try await Self.firstAttempt { $0.truncatedAfter = 3000 }
        let refused = try await Self.firstAttempt { $0.unanswered = .closed }
        let timedOut = try await Self.firstAttempt(timeout: 0.5) { $0.unanswered = .held }
        #expect(serverError.status == 500)
        #expect(timedOut.code == .timedOut)
        // A closed connection with no status line: on loopback, only the refused fault gives it.
        #expect(refused.code == .badServerResponse)
        // Cut mid-body: a failure of its own (`.unknown` on Linux), told apart from the others.
        let other: Set<URLError.Code> = [.timedOut, .cancelled, .badServerResponse]
        #expect(truncated.code.map { !other.contains($0) } == true, "\(String(describing: truncated.code))")
    }

    /// What `Data(contentsOf:)`, the client of live steps 1 to 3, gives on the first attempt.
    static func contentsOf(
        timeout: Duration = .seconds(30), fault: @escaping @Sendable (inout LiveResponse) -> Void
    ) throws -> Data? {
        let server = try LiveServerFaultTests.server(timeout: timeout, fault: fault)
        defer { server.stop() }
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/f.png"))
        return try? Data(contentsOf: url)
    }

    @Test func dataContentsOfGetsNoPosterForAnyFaultButCorrupt() throws {
        let serverError = try Self.contentsOf {
            $0 = LiveResponse(status: 500, body: Array("<html>500</html>".utf8), contentType: "text/html")
        }
        #expect(serverError == nil)
        #expect(try Self.contentsOf { $0.truncatedAfter = 3000 } == nil)
        #expect(try Self.contentsOf { $0.unanswered = .closed } == nil)
        #expect(try Self.contentsOf(timeout: .milliseconds(300)) { $0.unanswered = .held } == nil)
        let corrupt = Array(try #require(try Self.contentsOf { $0.body[100] ^= 0xa5 }))
        let poster = LiveServerFaultTests.poster
        #expect(corrupt.count == poster.count)
        #expect(corrupt.indices.filter { corrupt[$0] != poster[$0] } == [100])
    }
}
