/// What the runtime's queues and operations ask of the device the app runs on: its launches, its main
/// thread, its app threads and the record of operations.
///
/// The device is handed to every app thread it starts (`SimulatedThread.host`), as swift-clocks hands a
/// clock to the code that sleeps on it, so the runtime knows nothing of the world around it.
package protocol AppHost: AnyObject {
    /// Which launch of the app is running: 1, then one more at every relaunch.
    var launch: Int { get }
    /// The main thread's queue of the running launch.
    var mainQueue: OperationQueue! { get }
    /// The main queue's operations: the running block, then the waiting ones in order.
    var mainQueueOperations: [Operation] { get }
    /// Queues an operation to run on the main thread at its next turn.
    func enqueueOnMainThread(_ operation: Operation)
    /// Dispatches a finished operation's completion block to a completion thread of the app.
    func dispatchCompletion(_ block: @escaping () -> Void, of operation: Operation)
    /// Registers a queue the app made, so the host can tell when it is idle and kill it at a relaunch.
    func register(queue: OperationQueue)
    /// Starts a thread that belongs to the running launch of the app (killed at a relaunch).
    func startAppThread(name: String, body: @escaping (SimulatedThread) -> Void) -> SimulatedThread
    /// Records that an operation was cancelled.
    func operationCancelled(_ operation: Operation)
    /// Records that a queue's worker started an operation.
    func operationStarted(_ name: String, thread: String)
    /// Records that a queue's worker finished an operation.
    func operationFinished(_ name: String, thread: String, cancelled: Bool)
}
