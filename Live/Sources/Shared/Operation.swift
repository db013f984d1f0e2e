import Foundation

import struct Synchronization.Atomic

/// Foundation's `Operation` as Apple's Foundation behaves: the completion block is let go once it begins
/// running, so a block that captures its own operation (as the articles' blocks do) does not keep it and
/// its pictures alive forever, which swift-corelibs-foundation's does. It also counts the simulator's
/// `operations_cancelled`: the first `cancel()` of an operation that has not finished, and runs its work
/// and its completion block as itself (`LateCompletions`). Steps subclass it as they subclass the
/// simulator's look-alike.
open class Operation: Foundation.Operation, @unchecked Sendable {
    private let cancelCounted = Atomic(false)

    open override func cancel() {
        if !isFinished,
            cancelCounted.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        {
            LiveTally.count(.operationsCancelled)
        }
        super.cancel()
    }

    open override func start() {
        LateCompletions.run(as: self) { super.start() }
    }

    open override var completionBlock: (@Sendable () -> Void)? {
        get { super.completionBlock }
        set {
            guard let block = newValue else {
                super.completionBlock = nil
                return
            }
            super.completionBlock = { [weak self] in
                guard let self else { return block() }
                letGoOfCompletionBlock()
                LateCompletions.run(as: self, block)
            }
        }
    }

    private func letGoOfCompletionBlock() {
        super.completionBlock = nil
    }
}
