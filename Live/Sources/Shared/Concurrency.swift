import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real main actor stands in for the simulated phone's `PhoneMainActor`.
public typealias PhoneMainActor = MainActor

extension MainActor {
    /// Runs `operation` as main-actor code with `object`, after checking that the caller is on the main
    /// thread: the simulator's `PhoneMainActor.assumeIsolated(_:_:)`, for a non-`Sendable` UIKit object
    /// that only the main thread uses.
    public static func assumeIsolated<Object: AnyObject, T>(
        _ object: Object, _ operation: @MainActor (Object) throws -> T,
        file: StaticString = #fileID, line: UInt = #line
    ) rethrows -> T {
        MainActor.shared.preconditionIsolated("Not on the main thread", file: file, line: line)
        // What `MainActor.assumeIsolated` does: the check above makes calling the closure safe.
        return try withoutActuallyEscaping(operation) { isolated in
            try unsafeBitCast(isolated, to: ((Object) throws -> T).self)(object)
        }
    }

    /// Runs `operation` as main-actor code after checking that the caller is on the main thread, as the
    /// simulator's `PhoneMainActor.assumeIsolated(_:)` does: its result may be a non-`Sendable` UIKit
    /// object, made and used on the main thread only.
    public static func assumeIsolated<T>(
        _ operation: @MainActor () throws -> T, file: StaticString = #fileID, line: UInt = #line
    ) rethrows -> T {
        try assumeIsolated(MainActor.shared, { _ in try operation() }, file: file, line: line)
    }
}

/// A clock for the step's timers and backoffs: the continuous clock, in microseconds as the simulator's.
public final class PhoneClock: Clock, Sendable {
    public typealias Instant = PhoneInstant

    private let start = ContinuousClock.now

    public init() {}

    public var now: Instant { Instant(microseconds: PhoneInstant.microseconds(start.duration(to: .now))) }

    public var minimumResolution: Duration { .microseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await Task.sleep(for: now.duration(to: deadline))
    }
}

/// The step's task executor, for real: jobs run on a concurrent dispatch queue. (The name is the
/// simulator's, which the step uses.)
public final class SimulatedTaskExecutor: TaskExecutor, Sendable {
    private let queue: DispatchQueue

    public init(name: String = "Cooperative pool", width: Int = 4) {
        queue = DispatchQueue(label: name, attributes: .concurrent)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { unowned.runSynchronously(on: executor) }
    }
}

/// The async network, for real: a `URLSession` download (`LiveSession.shared`, with the scenario's
/// timeout), cancelled with its task; it throws `CancellationError` when the task is cancelled and
/// `NetworkError` when the request fails, as the simulator's does. It never resumes a
/// transfer yet (`resumeData` is ignored and none is kept).
public final class AsyncNetwork: Sendable {
    public init() {}

    public func data(
        from url: URL, resumeData: ResumeData? = nil,
        keepResumeData: (@Sendable (ResumeData) -> Void)? = nil
    ) async throws -> Data {
        try Task.checkCancellation()
        guard let address = LiveAddress.request(for: url) else { throw NetworkError.invalidURL }
        defer { LiveCounters.requestEnded() }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await LiveSession.shared.data(from: address)
        } catch let error as URLError {
            // A cancelled task's download ends as the simulator's does; any other failure as its
            // `NetworkError`, so that a step's retries see the same transient failures.
            // A transfer its task stopped counts as a cancelled operation, as the simulator's session
            // operation does.
            if error.code == .cancelled || Task.isCancelled {
                LiveTally.count(.operationsCancelled)
                throw CancellationError()
            }
            throw NetworkError(error)
        }
        if let status = (response as? HTTPURLResponse)?.statusCode, status != 200 {
            throw NetworkError.status(status)
        }
        LiveWaste.received(address, bytes: data.count)
        return data
    }
}
