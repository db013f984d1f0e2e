import Foundation
import Shared
import TestSupport
import Testing

@testable import Report
@testable import Runtime
@testable import World

/// The simulated network: latency, one bottleneck link shared equally, connection slots per host,
/// cancellable and uncancellable transfers, 404s and invalid URLs.
extension WorldTests {
    /// What one download saw: when it began and ended (virtual µs) and how many bytes it got.
    struct Fetch {
        let label: String
        let start: Int64
        let end: Int64
        let size: Int
    }

    /// Starts one blocking download per URL, all at the same moment, each on its own worker thread of
    /// one queue, and returns what each saw.
    func fetchTogether(
        _ urls: [String], rtt: Int64 = 100_000, bandwidth: Int64, connections: Int = 6
    ) throws -> (result: RunResult, fetches: [Fetch]) {
        let log = Log()
        nonisolated(unsafe) var fetches: [Fetch] = []
        let scenario = testScenario(
            "fetch", rows: 10, rtt: rtt, jitter: 0, bandwidth: bandwidth, connections: connections)
        let result = try play(scenario, log: log) { _ in
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = urls.count
            for (index, url) in urls.enumerated() {
                queue.addOperation {
                    let start = Phone.current!.now
                    let data = Network.shared.data(contentsOf: URL(string: url)!)
                    fetches.append(
                        Fetch(
                            label: "\(index)", start: start, end: Phone.current!.now,
                            size: data?.count ?? -1))
                }
            }
        }
        return (result, fetches.sorted { $0.label < $1.label })
    }

    /// Microseconds for `bytes` at `bandwidth` bytes per second.
    func bodyTime(_ bytes: Int, _ bandwidth: Int64) -> Double {
        Double(bytes) * 1_000_000 / Double(bandwidth)
    }

    static let posterA = "http://posters.test/p/a.png"
    static let posterB = "http://posters.test/p/a-poster-with-a-longer-name.png"

    @Test("One transfer takes the latency plus its bytes over the bandwidth")
    func oneTransferTakesLatencyPlusBytes() throws {
        let (result, fetches) = try fetchTogether([Self.posterA], bandwidth: 200_000)
        let fetch = try #require(fetches.first)
        #expect(fetch.size > 1_000)
        let expected = 100_000 + bodyTime(fetch.size, 200_000)
        #expect(abs(Double(fetch.end - fetch.start) - expected) <= 2)
        #expect(result.metrics.bytesDownloaded == fetch.size)
        #expect(result.metrics.requestsStarted == 1 && result.metrics.requestsCompleted == 1)
    }

    @Test("Two equal transfers started together share the link and finish together, twice as slow")
    func equalTransfersShareLink() throws {
        let (_, single) = try fetchTogether([Self.posterA], bandwidth: 200_000)
        let (result, pair) = try fetchTogether([Self.posterA, Self.posterA], bandwidth: 200_000)
        let one = try #require(single.first)
        try #require(pair.count == 2)
        #expect(pair[0].start == pair[1].start)
        #expect(pair.allSatisfy { $0.size == one.size })
        #expect(abs(pair[0].end - pair[1].end) <= 1)
        // Body time doubles: each gets half the link for the whole body.
        let singleBody = Double(one.end - one.start) - 100_000
        let pairBody = Double(pair[0].end - pair[0].start) - 100_000
        #expect(abs(pairBody - 2 * singleBody) <= 3)
        #expect(abs(pairBody - 2 * bodyTime(one.size, 200_000)) <= 3)
        #expect(result.metrics.bytesDownloaded == 2 * one.size)
    }

    @Test("Unequal transfers: the smaller ends at half speed, then the larger gets the whole link")
    func unequalTransfersShareThenHandOver() throws {
        let (_, pair) = try fetchTogether([Self.posterA, Self.posterB], bandwidth: 200_000)
        try #require(pair.count == 2)
        let sizes = pair.map(\.size).sorted()
        try #require(sizes[0] != sizes[1])
        let start = Double(pair[0].start)
        let ends = pair.map { Double($0.end) }.sorted()
        // Until the smaller is done both get half: 2·small/bw; the rest of the larger at full speed.
        let firstEnd = start + 100_000 + 2 * bodyTime(sizes[0], 200_000)
        let secondEnd = start + 100_000 + bodyTime(sizes[0] + sizes[1], 200_000)
        #expect(abs(ends[0] - firstEnd) <= 3)
        #expect(abs(ends[1] - secondEnd) <= 3)
    }

    @Test("With one connection per host, two requests to that host run one after the other")
    func oneConnectionSerialisesAHost() throws {
        let (result, pair) = try fetchTogether(
            [Self.posterA, Self.posterB], bandwidth: 200_000, connections: 1)
        try #require(pair.count == 2)
        #expect(pair[0].start == pair[1].start)
        let (first, second) = pair[0].end <= pair[1].end ? (pair[0], pair[1]) : (pair[1], pair[0])
        let start = Double(first.start)
        // Each pays the full latency and has the link to itself.
        let firstEnd = start + 100_000 + bodyTime(first.size, 200_000)
        let secondEnd = firstEnd + 100_000 + bodyTime(second.size, 200_000)
        #expect(abs(Double(first.end) - firstEnd) <= 2)
        #expect(abs(Double(second.end) - secondEnd) <= 3)
        // The second request starts (in the trace) when asked, but waits for the slot.
        #expect(result.events("request_start").count == 2)
    }

    @Test("With one connection per host, requests to two hosts still overlap")
    func oneConnectionPerHostStillOverlapsHosts() throws {
        let (_, pair) = try fetchTogether(
            [Self.posterA, "http://other.test/p/a.png"], bandwidth: 200_000, connections: 1)
        try #require(pair.count == 2)
        // Shared link: both end by latency + (both bodies)/bw, far earlier than two latencies in a row would.
        let start = Double(pair[0].start)
        let bothBodies = bodyTime(pair[0].size + pair[1].size, 200_000)
        for fetch in pair {
            #expect(Double(fetch.end) <= start + 100_000 + bothBodies + 3)
        }
    }

    @Test("Cancelling a cancellable transfer mid-body stops its bytes at once")
    func cancellingStopsBytes() throws {
        let (blocking, blockingLog) = try cancelMidBody(cancellable: false)
        let (result, log) = try cancelMidBody(cancellable: true)
        let size = try #require(blockingLog.first("data")).value
        let start = try #require(log.first("start")).time
        let cancel = try #require(log.first("cancel")).time
        let stopped = try #require(log.first("cancelled"))
        #expect(log.first("data") == nil)
        #expect(log.first("sees cancel") != nil)
        // The thread wakes the moment the operation is cancelled.
        #expect(stopped.time == cancel)
        // Bytes that flowed: from the end of the latency to the cancel, at 100 KB/s.
        let flowed = Double(cancel - start - 100_000) * 100_000 / 1_000_000
        #expect(flowed > 1_000)
        #expect(abs(Double(result.metrics.bytesDownloaded) - flowed) <= 2)
        #expect(Double(result.metrics.bytesDownloaded) < size / 2)
        let event = try #require(result.events("request_cancel").first)
        #expect(event.number("bytes") == result.metrics.bytesDownloaded)
        #expect(event.time == cancel)
        #expect(result.metrics.requestsCancelled == 1)
        #expect(result.metrics.operationsCancelled == 1)
        #expect(result.metrics.bytesWasted == result.metrics.bytesDownloaded)
        #expect(result.events("request_end").isEmpty)
        _ = blocking
    }

    @Test("The blocking download in a cancelled operation still moves every byte")
    func blockingDownloadMovesEveryByte() throws {
        let (result, log) = try cancelMidBody(cancellable: false)
        let start = try #require(log.first("start")).time
        let cancel = try #require(log.first("cancel")).time
        let data = try #require(log.first("data"))
        let size = Int(data.value)
        #expect(size > 1_000)
        #expect(cancel < data.time)
        // It ends when the whole body has arrived, as if nobody had cancelled, and then sees the cancel.
        #expect(abs(Double(data.time - start) - (100_000 + bodyTime(size, 100_000))) <= 2)
        #expect(log.first("sees cancel") != nil)
        #expect(result.metrics.bytesDownloaded == size)
        #expect(result.metrics.requestsCancelled == 0)
        #expect(result.metrics.requestsCompleted == 1)
        #expect(result.metrics.operationsCancelled == 1)
        #expect(result.events("request_cancel").isEmpty)
    }

    @Test("A removed poster answers 404 and an invalid URL fails at once with no traffic")
    func removedPosterAndInvalidURL() throws {
        let log = Log()
        let removed = "http://posters.test/removed/gone.png"
        let result = try play(testScenario("errors", rows: 10, rtt: 100_000, bandwidth: 100_000), log: log) {
            _ in
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            var operation: Operation!
            operation = BlockOperation.simulator {
                do throws(NetworkError) {
                    _ = try Network.shared.data(
                        from: URL(string: removed)!, cancellingWith: operation)
                    log.note("404 succeeded")
                } catch {
                    log.note(error == .status(404) ? "404" : "404 wrong error \(error)")
                }
                let blocking = Network.shared.data(contentsOf: URL(string: removed)!)
                log.note(blocking == nil ? "404 nil" : "404 data")
                log.note("invalid start")
                do throws(NetworkError) {
                    _ = try Network.shared.data(
                        from: URL(string: "NO URL")!, cancellingWith: operation)
                    log.note("invalid succeeded")
                } catch {
                    log.note(error == .invalidURL ? "invalid" : "invalid wrong error \(error)")
                }
                let ftp = Network.shared.data(contentsOf: URL(string: "ftp://posters.test/p/a.png")!)
                log.note(ftp == nil ? "ftp nil" : "ftp data")
            }
            queue.addOperation(operation)
        }
        for text in ["404", "404 nil", "invalid", "ftp nil"] {
            #expect(log.first(text) != nil, "\(text)")
        }
        let ends = result.events("request_end")
        try #require(ends.count == 4)
        // Two 404s, each with the server's short page as the body.
        #expect(ends[0].number("status") == 404 && ends[1].number("status") == 404)
        let pageBytes = try #require(ends[0].number("bytes"))
        #expect(pageBytes > 0 && pageBytes < 1_000)
        // The invalid URLs: no status, no bytes, no time spent.
        let invalidStart = try #require(log.first("invalid start")).time
        #expect(try #require(log.first("invalid")).time == invalidStart)
        for end in ends[2...] {
            #expect(end.number("status") == 0)
            #expect(end.number("bytes") == 0)
            #expect(end.time == invalidStart)
        }
        #expect(result.metrics.requestsFailed == 4)
        #expect(result.metrics.requestsCompleted == 0)
        #expect(result.metrics.bytesDownloaded == 2 * Int(pageBytes))
    }

    /// Downloads poster A on a worker, cancelling its operation from the main thread 150 ms after launch
    /// (50 ms into the body); `cancellable` picks the client call.
    func cancelMidBody(cancellable: Bool) throws -> (RunResult, Log) {
        let log = Log()
        let scenario = testScenario("cancel", rows: 10, rtt: 100_000, jitter: 0, bandwidth: 100_000)
        let result = try play(scenario, log: log) { _ in
            let downloads = OperationQueue()
            let timer = OperationQueue()
            let url = URL(string: Self.posterA)!
            nonisolated(unsafe) var download: Operation!
            download = BlockOperation {
                log.note("start")
                if cancellable {
                    do throws(NetworkError) {
                        let data = try Network.shared.data(from: url, cancellingWith: download)
                        log.note("data", Double(data.count))
                    } catch {
                        log.note(error == .cancelled ? "cancelled" : "error \(error)")
                    }
                } else {
                    let data = Network.shared.data(contentsOf: url)
                    log.note("data", Double(data?.count ?? -1))
                }
                log.note(download.isCancelled ? "sees cancel" : "sees no cancel")
            }
            downloads.addOperation(download)
            timer.addOperation {
                SimulatedThread.current!.sleep(for: 150_000)
                OperationQueue.main.addOperation {
                    log.note("cancel")
                    download.cancel()
                }
            }
        }
        return (result, log)
    }

}
