import Foundation

/// `Synchronization.Mutex`'s look-alike, with its `withLock`, over an `NSLock`. On Linux a contended
/// `Mutex` is handed from one thread to the next inside the kernel (a priority-inheriting futex, taken and
/// released in the uninstrumented Synchronization library), so ThreadSanitizer sees nothing ordering the
/// two threads and reports a race on the value the lock guards; `NSLock` is a pthread mutex, which it
/// intercepts. Every live module takes `Mutex` from here: the server, the render thread, the live `Shared`
/// and the steps, which get it through `Shared`.
public struct Mutex<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
    private let lock = NSLock()
    private let storage: Storage

    /// Holds the value, read and written only while `lock` is held.
    private final class Storage {
        var value: Value

        init(_ value: consuming Value) {
            self.value = value
        }
    }

    public init(_ initialValue: consuming sending Value) {
        storage = Storage(initialValue)
    }

    /// Runs `body` on the value while holding the lock.
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage.value)
    }
}
