import Foundation

/// A value behind a lock, as `Synchronization.Mutex` keeps one, but with a lock ThreadSanitizer can see.
///
/// On Linux a contended `Mutex` is handed from one thread to the next inside the kernel (a
/// priority-inheriting futex, taken and released in the uninstrumented Synchronization library), so
/// ThreadSanitizer sees nothing ordering the two threads and reports a race on the value the mutex
/// guards. `NSLock` is a pthread mutex, which ThreadSanitizer intercepts. The server's threads contend
/// for its log and its link on every request, so they use this.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    /// Read and written only while `lock` is held.
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value while holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
