import Foundation
import LiveServer
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live server's shaping, checked only in directions a busy machine cannot fake: a wait is at least
/// as long as configured (a slow machine only lengthens it), a rate at most the cap (a slow machine only
/// lowers it); everything else is counts and order.
@Suite struct LiveServerTests {
    /// A body of `count` bytes that differs for every host and path, so a wrong route shows.
    static func body(host: String, path: String, count: Int) -> [UInt8] {
        let seed = Array("\(host)\(path)".utf8)
        return (0..<count).map { seed[$0 % seed.count] &+ UInt8(truncatingIfNeeded: $0 / seed.count) }
    }

    /// A server answering every path with `body(host:path:count:)`, 404 for paths under `/removed/`.
    static func server(_ shape: LinkShape, bodyBytes: Int = 10_000) throws -> LiveServer {
        try LiveServer(shape: shape) { host, path, _ in
            path.hasPrefix("/removed/")
                ? LiveResponse(status: 404, body: Array("gone".utf8), contentType: "text/plain")
                : LiveResponse(status: 200, body: body(host: host, path: path, count: bodyBytes))
        }
    }

    static let quick = LinkShape.fixed(latency: .zero, bytesPerSecond: 50_000_000, connectionsPerHost: 6)

    @Test func aRequestWaitsAtLeastItsLatencyBeforeTheFirstByte() throws {
        let server = try Self.server(
            .fixed(latency: .milliseconds(150), bytesPerSecond: 50_000_000, connectionsPerHost: 6))
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        let clock = ContinuousClock()
        let start = clock.now
        client.send(["GET /a.png HTTP/1.1", "Host: img1.example"])
        _ = client.read(atLeast: 1)
        #expect(clock.now - start >= .milliseconds(150))
    }

    @Test func theLatencyOfAnAttemptIsTheShapesDrawForThatURLAndAttempt() throws {
        let shape = LinkShape(
            latency: { url, attempt in url.hasSuffix("/slow.png") && attempt == 0 ? .milliseconds(200) : .zero
            },
            bytesPerSecond: 50_000_000, connectionsPerHost: 6)
        let server = try Self.server(shape)
        defer { server.stop() }
        let clock = ContinuousClock()
        var waits: [Duration] = []
        for _ in 0..<2 {
            let client = try RawClient(port: server.port)
            let start = clock.now
            client.send(["GET /slow.png HTTP/1.1", "Host: img1.example"])
            _ = client.readAll()
            waits.append(clock.now - start)
            client.close()
        }
        #expect(waits[0] >= .milliseconds(200))
        #expect(server.log.map(\.attempt) == [0, 1])
    }

    @Test func bodiesFlowingTogetherShareOneLinkNoFasterThanItsCap() throws {
        let cap = 400_000
        let bodyBytes = 100_000
        let server = try Self.server(
            .fixed(latency: .zero, bytesPerSecond: cap, connectionsPerHost: 6), bodyBytes: bodyBytes)
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        let received = Mutex([Int]())
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            guard let client = try? RawClient(port: server.port) else { return }
            client.send(["GET /p\(index).png HTTP/1.1", "Host: img1.example"])
            let count = RawAnswer(client.readAll())?.body.count ?? 0
            client.close()
            received.withLock { $0.append(count) }
        }
        let elapsed = clock.now - start
        let total = received.withLock { $0 }
        #expect(total == [bodyBytes, bodyBytes, bodyBytes, bodyBytes])
        // 400 KB at 400 KB/s takes a second; at the cap plus 5 % it would take 0.952 s.
        #expect(elapsed >= .seconds(Double(4 * bodyBytes) / (Double(cap) * 1.05)))
    }

    @Test func aRangeRequestIsAnsweredWith206AndTheRestOfTheBody() throws {
        let server = try Self.server(Self.quick)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send(["GET /r.png HTTP/1.1", "Host: img2.example", "Range: bytes=9000-"])
        let answer = try #require(RawAnswer(client.readAll()))
        let whole = Self.body(host: "img2.example", path: "/r.png", count: 10_000)
        #expect(answer.status == 206)
        #expect(answer.headers["content-range"] == "bytes 9000-9999/10000")
        #expect(answer.body == Array(whole[9000...]))
        #expect(server.log(count: 1, within: .seconds(5)).first?.rangeStart == 9000)
    }

    @Test func aRangePastTheEndIsAnswered416WithNoBody() throws {
        let server = try Self.server(Self.quick)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send(["GET /r.png HTTP/1.1", "Host: img2.example", "Range: bytes=10000-"])
        let answer = try #require(RawAnswer(client.readAll()))
        #expect(answer.status == 416)
        #expect(answer.body.isEmpty)
    }

    @Test func requestsAreRoutedByTheirHostAsAProxyOrDirectly() throws {
        let server = try Self.server(Self.quick)
        defer { server.stop() }
        var bodies: [[UInt8]] = []
        for head in [
            ["GET http://img1.example/same.png HTTP/1.1", "Host: img1.example"],
            ["GET http://img2.example/same.png HTTP/1.1", "Host: img2.example"],
            ["GET /same.png HTTP/1.1", "Host: IMG2.example:80"],
        ] {
            let client = try RawClient(port: server.port)
            client.send(head)
            bodies.append(try #require(RawAnswer(client.readAll())).body)
            client.close()
        }
        #expect(bodies[0] == Self.body(host: "img1.example", path: "/same.png", count: 10_000))
        #expect(bodies[1] == Self.body(host: "img2.example", path: "/same.png", count: 10_000))
        #expect(bodies[2] == bodies[1])
        #expect(
            server.log.map(\.url) == [
                "http://img1.example/same.png", "http://img2.example/same.png",
                "http://img2.example/same.png",
            ])
    }

    @Test func aClientThatHangsUpMidBodyIsLoggedAsACancelWithTheBytesThatLeft() throws {
        let bodyBytes = 200_000
        let server = try Self.server(
            .fixed(latency: .zero, bytesPerSecond: 100_000, connectionsPerHost: 6), bodyBytes: bodyBytes)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send(["GET /c.png HTTP/1.1", "Host: img1.example"])
        _ = client.read(atLeast: 10_000)
        client.close()
        let record = try #require(server.log(count: 1, within: .seconds(10)).first)
        #expect(record.outcome == .cancelled)
        #expect(record.bodyBytesSent > 0)
        #expect(record.bodyBytesSent < bodyBytes)
    }

    @Test func aClientThatHangsUpDuringTheLatencyIsLoggedAsACancelWithNoBody() throws {
        let server = try Self.server(
            .fixed(latency: .seconds(5), bytesPerSecond: 100_000, connectionsPerHost: 6))
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send(["GET /c.png HTTP/1.1", "Host: img1.example"])
        blockTest(for: .milliseconds(50))
        client.close()
        let record = try #require(server.log(count: 1, within: .seconds(4)).first)
        #expect(record.outcome == .cancelled)
        #expect(record.bodyBytesSent == 0)
    }

    @Test func aHostsRequestsBeyondItsConnectionsWaitTheirTurnInArrivalOrder() throws {
        let server = try Self.server(
            .fixed(latency: .milliseconds(100), bytesPerSecond: 50_000_000, connectionsPerHost: 1))
        defer { server.stop() }
        let clients = try (0..<3).map { _ in try RawClient(port: server.port) }
        for (index, client) in clients.enumerated() {
            client.send(["GET /q\(index).png HTTP/1.1", "Host: img1.example"])
            blockTest(for: .milliseconds(20))
        }
        let clock = ContinuousClock()
        let start = clock.now
        for client in clients {
            _ = client.readAll()
            client.close()
        }
        // One slot: the three answers follow one another, each after its own 100 ms.
        #expect(clock.now - start >= .milliseconds(200))
        #expect(server.log.map(\.url) == (0..<3).map { "http://img1.example/q\($0).png" })
    }

    @Test func aTruncatedBodyFaultClosesTheConnectionMidBody() throws {
        let server = try LiveServer(shape: Self.quick) { _, _, attempt in
            LiveResponse(
                status: 200, body: Array(repeating: 7, count: 5000), truncatedAfter: attempt == 0 ? 1234 : nil
            )
        }
        defer { server.stop() }
        var lengths: [Int] = []
        for _ in 0..<2 {
            let client = try RawClient(port: server.port)
            client.send(["GET /t.png HTTP/1.1", "Host: img1.example"])
            lengths.append(try #require(RawAnswer(client.readAll())).body.count)
            client.close()
        }
        #expect(lengths == [1234, 5000])
        #expect(server.log.map(\.outcome) == [.truncated, .completed])
    }

    @Test func aMalformedRequestIsRefusedWith400() throws {
        let server = try Self.server(Self.quick)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send(["NOT A REQUEST"])
        #expect(RawAnswer(client.readAll())?.status == 400)
        #expect(server.log(count: 1, within: .seconds(5)).map(\.outcome) == [.refused])
    }

    /// The process's `http_proxy` is one for all its threads: the tests that read it run one at a time.
    @Suite(.serialized) struct ThroughURLSession {
        @Test func urlSessionDownloadsFromTheServerWithTheHostItNames() async throws {
            let server = try LiveServerTests.server(LiveServerTests.quick)
            defer { server.stop() }
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/session.png"))
            let (data, response) = try await URLSession(configuration: .ephemeral).data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(
                Array(data) == LiveServerTests.body(host: "127.0.0.1", path: "/session.png", count: 10_000))
        }

        @Test func urlSessionThroughTheServerAsItsProxySendsTheCatalogsOwnURL() async throws {
            let server = try LiveServerTests.server(LiveServerTests.quick)
            defer { server.stop() }
            setenv("http_proxy", "http://127.0.0.1:\(server.port)", 1)
            defer { unsetenv("http_proxy") }
            let url = try #require(URL(string: "http://img3.example/movies/p.png"))
            let (data, response) = try await URLSession(configuration: .ephemeral).data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(
                Array(data)
                    == LiveServerTests.body(host: "img3.example", path: "/movies/p.png", count: 10_000))
            // The server logs an answer once it has sent it, which can be a moment after the client has it.
            #expect(
                server.log(count: 1, within: .seconds(2)).map(\.url) == ["http://img3.example/movies/p.png"])
        }
    }
}

/// Blocks the test's thread for `duration`.
func blockTest(for duration: Duration) {
    let (seconds, attoseconds) = duration.components
    Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
}
