import Runtime

/// The simulated phone's main actor: code isolated to it runs on the phone's main thread, between frames,
/// as `@MainActor` code runs on a real phone's main thread.
///
/// Why not `@MainActor` itself: Swift 6.3 on Linux runs `MainActor` jobs on the process's one main
/// dispatch queue, and the hook to replace the main executor (`ExecutorFactory`, `MainExecutor`) is
/// still `@_spi(ExperimentalCustomExecutors)`, not public API. Even if it were public, it would be one
/// executor for the whole process, while a test process runs many phones at once, each with its own
/// main thread. So this global actor stands in for `@MainActor`: its executor hands every job to the
/// main thread of the phone whose simulated thread enqueues it, where it runs like a main-queue block.
@globalActor
public actor PhoneMainActor {
    /// The one instance; it holds no state of its own (state lives in the phone's objects).
    public static let shared = PhoneMainActor()

    /// The executor that runs this actor's jobs on the simulated main thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        PhoneMainExecutor.shared.asUnownedSerialExecutor()
    }

    /// Runs `operation` as code isolated to the phone's main actor, with `object` (the look-alike UIKit
    /// object a callback was called on), after checking that the caller is on the phone's main thread.
    ///
    /// This is the bridge from the look-alike UIKit, whose classes are not annotated with an actor (steps
    /// 1–4 have none), as `MainActor.assumeIsolated` is for a delegate callback that is not. The check is
    /// at run time, as there; and the object and the result may be non-`Sendable` because the look-alike
    /// UIKit only ever uses them on the main thread, the isolation the real UIKit states with
    /// `@MainActor`. This is the one place the compiler takes the workbook's word for it.
    public static func assumeIsolated<Object: AnyObject, T>(
        _ object: Object, _ operation: @PhoneMainActor (Object) throws -> T,
        file: StaticString = #fileID, line: UInt = #line
    ) rethrows -> T {
        shared.preconditionIsolated("Not on the phone's main thread", file: file, line: line)
        // What `MainActor.assumeIsolated` does: the check above makes calling the closure safe.
        return try withoutActuallyEscaping(operation) { isolated in
            try unsafeBitCast(isolated, to: ((Object) throws -> T).self)(object)
        }
    }

    /// Runs `operation` as code isolated to the phone's main actor, after checking that the caller is on the
    /// phone's main thread: `assumeIsolated(_:_:)` for code that needs no object, such as making the app's
    /// first screen.
    public static func assumeIsolated<T>(
        _ operation: @PhoneMainActor () throws -> T, file: StaticString = #fileID, line: UInt = #line
    ) rethrows -> T {
        try assumeIsolated(shared, { _ in try operation() }, file: file, line: line)
    }
}

/// Runs `PhoneMainActor` jobs on the main thread of the phone that enqueues them.
final class PhoneMainExecutor: SerialExecutor, Sendable {
    static let shared = PhoneMainExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        guard let host = SimulatedThread.currentHost else {
            preconditionFailure("A PhoneMainActor job was enqueued outside a simulated phone.")
        }
        let unowned = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        host.enqueueOnMainThread(BlockOperation { unowned.runSynchronously(on: executor) })
    }

    /// Whether the caller is on the phone's main thread (SE-0471): the runtime asks when no job of this
    /// executor is running, as in a frame's callback, so `Task.immediate` can start right there and
    /// `assumeIsolated` can check.
    func isIsolatingCurrentContext() -> Bool? {
        Self.isOnMainThread
    }

    /// Called when the runtime cannot tell from its own bookkeeping (a frame callback is not a job).
    func checkIsolated() {
        guard Self.isOnMainThread else {
            preconditionFailure("PhoneMainActor code ran off the phone's main thread.")
        }
    }

    private static var isOnMainThread: Bool {
        guard let thread = SimulatedThread.current else { return false }
        return thread.name == "main" && thread.host != nil
    }
}
