import Foundation
import Imaging
import Posters
import Runtime
import Scenarios
import Values

/// The simulated phone's network client and the link it shares: `URLSession.shared`'s look-alike.
///
/// Per request: wait for one of the host's connection slots, then the latency (round trip plus seeded
/// jitter), then the body flows through one bottleneck link shared equally by every transfer whose body
/// is flowing (shares are recomputed at every start, finish and cancel). Two calls block the calling
/// simulated thread until the answer: `data(contentsOf:)`, the articles' blocking download, which nothing
/// can interrupt (a cancelled operation still pays for every byte), and `data(from:cancellingWith:)`,
/// which stops as soon as its operation is cancelled (bytes moved so far are wasted, unless the caller
/// keeps the `ResumeData` it leaves and a later request resumes with it: a range request, which the
/// server answers with 206 and the rest of the body when the body's ETag still matches and the host
/// serves ranges, or with the whole body otherwise).
public final class Network {
    /// The network of the phone whose simulated thread calls this.
    public static var shared: Network {
        guard let host = SimulatedThread.currentHost(as: (any WorldHost).self) else {
            preconditionFailure("Network.shared is only available on a simulated thread of a Phone.")
        }
        return host.network
    }

    private unowned let phone: Phone
    private let server: PosterServer
    private let settings: NetworkSettings
    private let faults: FaultSettings
    private let seed: UInt64
    private var hosts: [String: HostSlots] = [:]
    private var flowing: [Transfer] = []
    private var lastLinkUpdate: Int64 = 0
    private var linkGeneration: UInt64 = 0
    private var attemptsByURL: [String: Int] = [:]
    private var lastFailedByURL: Set<String> = []

    /// Connection slots of one host.
    private final class HostSlots {
        var busy = 0
        var waiting: [Transfer] = []
    }

    /// One request in flight.
    final class Transfer {
        enum Phase { case waitingForSlot, latency, body, done }
        let url: URL
        let urlString: String
        let host: String
        let download: Int
        var phase = Phase.waitingForSlot
        var size = 0
        var remaining = 0.0
        var body: [UInt8] = []
        var status = 200
        var failure: NetworkError?
        var result: Result<Data, NetworkError>?
        var holdsSlot = false
        weak var thread: SimulatedThread?
        /// What an earlier, cancelled transfer of this URL left: the request asks for the rest.
        var resume: ResumeData?
        /// Where this transfer's bytes begin in the body (the resumed bytes, for a 206).
        var offset = 0
        /// The body's ETag.
        var validator = ""
        /// What this transfer leaves behind if it is cancelled, or its connection lost, mid-body.
        var leftover: ResumeData?

        /// Keeps the body received so far, the resumed part and `moved` new bytes, as `leftover`, when
        /// it is a success's body (2xx) and not empty.
        func keepReceived(moved: Int) {
            guard status / 100 == 2, offset + moved > 0 else { return }
            leftover = ResumeData(
                url: url, received: Array(body[..<(offset + moved)]), validator: validator, download: download
            )
        }

        init(url: URL, host: String, download: Int, thread: SimulatedThread) {
            self.url = url
            self.urlString = url.absoluteString
            self.host = host
            self.download = download
            self.thread = thread
        }
    }

    init(phone: Phone, server: PosterServer, settings: NetworkSettings, faults: FaultSettings, seed: UInt64) {
        self.phone = phone
        self.server = server
        self.settings = settings
        self.faults = faults
        self.seed = seed
    }

    /// Whether any request is in flight.
    var isIdle: Bool { flowing.isEmpty && hosts.values.allSatisfy { $0.busy == 0 } }

    /// Downloads a URL's body, blocking the calling simulated thread; nil on any failure.
    ///
    /// Like `Data(contentsOf:)`: nothing can interrupt it, so a cancelled operation still waits for, and
    /// pays for, every byte.
    public func data(contentsOf url: URL) -> Data? {
        try? fetch(url, cancellation: nil).get()
    }

    /// Downloads a URL's body, blocking the calling simulated thread until it arrives, fails, or
    /// `operation` is cancelled, which stops the transfer at once.
    public func data(from url: URL, cancellingWith operation: Runtime.Operation) throws(NetworkError) -> Data
    {
        try fetch(url, cancellation: operation).get()
    }

    /// As `data(from:cancellingWith:)`, resuming from `resumeData` when it is for this URL, and leaving
    /// in it what arrived when the transfer is cancelled, or its connection lost, mid-body (nil otherwise).
    public func data(
        from url: URL, cancellingWith operation: Runtime.Operation, resumeData: inout ResumeData?
    ) throws(NetworkError) -> Data {
        let resume = resumeData?.url == url ? resumeData : nil
        var leftover: ResumeData?
        let result = fetch(url, cancellation: operation, resume: resume, leftover: &leftover)
        resumeData = leftover
        return try result.get()
    }

    private func fetch(_ url: URL, cancellation operation: Operation?) -> Result<Data, NetworkError> {
        var leftover: ResumeData?
        return fetch(url, cancellation: operation, resume: nil, leftover: &leftover)
    }

    private func fetch(
        _ url: URL, cancellation operation: Operation?, resume: ResumeData?, leftover: inout ResumeData?
    ) -> Result<Data, NetworkError> {
        guard let thread = SimulatedThread.current, !thread.isInterrupted else { return .failure(.cancelled) }
        if let operation, operation.isCancelled { return .failure(.cancelled) }
        let urlString = url.absoluteString
        let isRetry = lastFailedByURL.contains(urlString)
        let download = phone.recorder.requestStarted(url: urlString, thread: thread.name, isRetry: isRetry)
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            phone.recorder.requestEnded(url: urlString, status: 0, bytes: 0, download: download, failed: true)
            lastFailedByURL.insert(urlString)
            return .failure(.invalidURL)
        }
        let transfer = Transfer(url: url, host: host, download: download, thread: thread)
        transfer.resume = resume
        operation?.onCancel { [weak self, transfer] in self?.cancel(transfer) }
        begin(transfer)
        thread.park(until: { transfer.result != nil })
        if transfer.result == nil {
            cancel(transfer)  // the thread's app was killed, or the world is ending
        }
        let result = transfer.result ?? .failure(.cancelled)
        leftover = transfer.leftover
        if case .failure(let error) = result, error != .cancelled {
            lastFailedByURL.insert(urlString)
        } else {
            lastFailedByURL.remove(urlString)
        }
        return result
    }

    // MARK: Request phases

    private func begin(_ transfer: Transfer) {
        let slots = hosts[transfer.host] ?? HostSlots()
        hosts[transfer.host] = slots
        if slots.busy < settings.connectionsPerHost {
            slots.busy += 1
            transfer.holdsSlot = true
            startLatency(transfer)
        } else {
            slots.waiting.append(transfer)
        }
    }

    private func startLatency(_ transfer: Transfer) {
        transfer.phase = .latency
        let attempt = attemptsByURL[transfer.urlString, default: 0]
        attemptsByURL[transfer.urlString] = attempt + 1
        let fault = faults.fault(url: transfer.urlString, attempt: attempt, seed: seed)
        // Drawn for this URL and attempt, not in the order requests start: a step that starts the same
        // requests in another order meets the same latencies.
        var jitter = SeededGenerator(
            seed: seed ^ FNV1a64.hash(transfer.urlString) &+ UInt64(attempt), stream: "network-jitter")
        var latency = settings.rttMicroseconds + jitter.below(settings.jitterMicroseconds)
        if let slow = faults.slowHost, slow.host == transfer.host { latency *= Int64(max(1, slow.factor)) }
        if fault == .timeout || latency > settings.timeoutMicroseconds {
            phone.scheduler.schedule(after: settings.timeoutMicroseconds) { [self] in
                guard transfer.phase == .latency else { return }
                finish(transfer, failure: .timedOut)
            }
            return
        }
        phone.scheduler.schedule(after: latency) { [self] in
            guard transfer.phase == .latency else { return }
            respond(transfer, fault: fault)
        }
    }

    private func respond(_ transfer: Transfer, fault: Fault?) {
        if fault == .refused {
            finish(transfer, failure: .connectionRefused)
            return
        }
        var response = server.response(for: transfer.url)
        var bodySize = response.body.count
        switch fault {
        case .serverError:
            response = PosterServer.Response(status: 500, body: Fault.serverErrorBody)
            bodySize = response.body.count
            transfer.failure = .status(500)
        case .truncated:
            bodySize = Fault.truncatedLength(of: response.body.count)
            transfer.failure = .connectionLost
        case .corrupt:
            response = PosterServer.Response(
                status: response.status,
                body: FaultSettings.corrupted(response.body, url: transfer.urlString, seed: seed))
        default:
            break
        }
        if response.status != 200, transfer.failure == nil {
            transfer.failure = .status(response.status)
        }
        transfer.status = response.status
        transfer.body =
            response.status == 200 ? PosterStamp.stamp(response.body, url: transfer.urlString) : response.body
        if transfer.failure == nil { bodySize = transfer.body.count }
        var etag = FNV1a64()
        etag.combine(transfer.body)
        transfer.validator = etag.hexDigest
        // A range request: the rest of the body only, if it is still the same body and the host serves
        // ranges; otherwise the whole body, as for any request.
        if let resume = transfer.resume, transfer.failure == nil, response.status == 200,
            resume.validator == transfer.validator, resume.count < bodySize,
            server.servesRanges(for: transfer.url)
        {
            transfer.status = 206
            transfer.offset = resume.count
            bodySize -= resume.count
            phone.recorder.downloadResumed(transfer.download, from: resume.download)
        }
        transfer.size = bodySize
        transfer.remaining = Double(bodySize)
        phone.recorder.responseStarted(url: transfer.urlString, status: transfer.status, bodyBytes: bodySize)
        transfer.phase = .body
        updateLink()
        flowing.append(transfer)
        rescheduleLink()
    }

    private func finish(_ transfer: Transfer, failure: NetworkError?) {
        guard transfer.phase != .done else { return }
        transfer.phase = .done
        releaseSlot(of: transfer)
        let moved = transfer.size
        phone.recorder.bytesMoved(moved, download: transfer.download)
        if let failure = failure ?? transfer.failure {
            if failure == .connectionLost {
                // What arrived before the connection dropped is good: a retry may ask for the rest only,
                // as URLSession hands back resume data when a download's connection is lost.
                transfer.keepReceived(moved: moved)
            }
            phone.recorder.requestEnded(
                url: transfer.urlString, status: transfer.status / 100 == 2 ? 0 : transfer.status,
                bytes: moved,
                download: transfer.download, failed: true)
            transfer.result = .failure(failure)
        } else {
            // A resumed body (206 on the wire) ends as a whole 200 body for the caller, as URLSession's does.
            phone.recorder.requestEnded(
                url: transfer.urlString, status: 200, bytes: moved, download: transfer.download, failed: false
            )
            let data = Data(transfer.body)
            phone.imageWork.registerDelivery(data, download: transfer.download)
            transfer.result = .success(data)
        }
        transfer.body = []
        transfer.thread?.wake()
    }

    /// Stops a transfer where it is: its bytes so far count, its slot frees, its thread wakes.
    private func cancel(_ transfer: Transfer) {
        guard transfer.phase != .done, transfer.result == nil else { return }
        var moved = 0
        switch transfer.phase {
        case .waitingForSlot:
            hosts[transfer.host]?.waiting.removeAll { $0 === transfer }
        case .latency:
            break
        case .body:
            updateLink()
            flowing.removeAll { $0 === transfer }
            moved = max(0, min(transfer.size, transfer.size - Int(transfer.remaining.rounded(.up))))
            rescheduleLink()
            if transfer.failure == nil {
                transfer.keepReceived(moved: moved)
            }
        case .done:
            return
        }
        transfer.phase = .done
        releaseSlot(of: transfer)
        phone.recorder.bytesMoved(moved, download: transfer.download)
        phone.recorder.requestCancelled(url: transfer.urlString, bytes: moved)
        transfer.body = []
        transfer.result = .failure(.cancelled)
        transfer.thread?.wake()
    }

    private func releaseSlot(of transfer: Transfer) {
        guard transfer.holdsSlot, let slots = hosts[transfer.host] else { return }
        transfer.holdsSlot = false
        slots.busy -= 1
        if !slots.waiting.isEmpty {
            let next = slots.waiting.removeFirst()
            slots.busy += 1
            next.holdsSlot = true
            startLatency(next)
        }
    }

    // MARK: The shared link

    /// Moves every flowing body forward to now at the current equal share.
    private func updateLink() {
        let now = phone.scheduler.now
        let elapsed = now - lastLinkUpdate
        lastLinkUpdate = now
        guard elapsed > 0, !flowing.isEmpty else { return }
        let share =
            Double(settings.bandwidthBytesPerSecond) / 1_000_000 * Double(elapsed) / Double(flowing.count)
        for transfer in flowing {
            transfer.remaining = max(0, transfer.remaining - share)
        }
    }

    /// Schedules the next body completion at the current share.
    private func rescheduleLink() {
        linkGeneration &+= 1
        guard let smallest = flowing.map(\.remaining).min() else { return }
        let perMicrosecond = Double(settings.bandwidthBytesPerSecond) / 1_000_000 / Double(flowing.count)
        let needed = smallest / perMicrosecond
        let delay = needed.isFinite && needed < 1e15 ? max(0, Int64(needed.rounded(.up))) : 1
        let generation = linkGeneration
        phone.scheduler.schedule(after: delay) { [self] in
            guard generation == linkGeneration else { return }
            updateLink()
            let done = flowing.filter { $0.remaining < 0.5 }
            flowing.removeAll { $0.remaining < 0.5 }
            for transfer in done { finish(transfer, failure: nil) }
            rescheduleLink()
        }
    }
}
