import Foundation
import Imaging
import Report
import Runtime
import UI

// The runtime's look-alikes, named plainly here though Foundation (which files here import) has its own.
package typealias Operation = Runtime.Operation
package typealias OperationQueue = Runtime.OperationQueue
package typealias BlockOperation = Runtime.BlockOperation

/// What the app's code finds of its device through `Network.shared` and `Disk.shared`, as the runtime finds
/// its `AppHost`: the host handed to each simulated thread of the app (`SimulatedThread.host`).
package protocol WorldHost: AppHost {
    /// The network the app downloads through.
    var network: Network! { get }
    /// The storage the app caches on.
    var disk: Disk! { get }
}

extension Phone: AppHost, RecordingHost, UIKitHost, WorldHost {
    package var launch: Int { process.launch }

    package var mainQueue: OperationQueue! { process.mainQueue }

    package var mainQueueOperations: [Operation] { mainLoop.blocks.operations }

    package func enqueueOnMainThread(_ operation: Operation) {
        let caller = SimulatedThread.current
        if caller?.isKilled == true { return }
        mainLoop.enqueue(operation, origin: caller?.runningOperation)
    }

    package func dispatchCompletion(_ block: @escaping () -> Void, of operation: Operation) {
        process.dispatchCompletion(block, of: operation)
    }

    package func register(queue: OperationQueue) { process.register(queue: queue) }

    package func startAppThread(name: String, body: @escaping (SimulatedThread) -> Void) -> SimulatedThread {
        process.startThread(name: name, on: self, body: body)
    }

    package func operationCancelled(_ operation: Operation) { recorder.operationCancelled(operation) }

    package func operationStarted(_ name: String, thread: String) {
        recorder.operationStarted(name, thread: thread)
    }

    package func operationFinished(_ name: String, thread: String, cancelled: Bool) {
        recorder.operationFinished(name, thread: thread, cancelled: cancelled)
    }

    package var rowHeight: Double { Double(scenario.screen.rowHeight) }

    package var screenHeight: Double { Double(scenario.screen.height) }

    package var cellForRowCost: Int64 { costs.cellForRow }

    package var reloadRowsCost: Int64 { costs.reloadRows }

    package func tableMutated() { mainLoop.tableMutated() }

    package func calledOffMainThread(_ method: String, thread: String) {
        recorder.mainThreadViolation(method: method, thread: thread)
    }

    package func visibleRowsChanged(first: Int, last: Int) {
        recorder.event(.visibleRows(first: first, last: last))
    }

    package func decode(_ data: Data) -> DecodedPicture? { imageWork.decode(data) }

    package func decode(_ data: Data, fittingPixels width: Int, _ height: Int) -> DecodedPicture? {
        imageWork.decode(data, fittingPixels: width, height)
    }

    package func filter(pixels: Int, intensity: Double, sourceURL: String?) {
        imageWork.filter(pixels: pixels, intensity: intensity, sourceURL: sourceURL)
    }
}

extension TableViewController {
    /// The phone the app runs on: its movies, network and disk.
    public var phone: Phone {
        guard let phone = host.device(as: Phone.self) else {
            preconditionFailure("A TableViewController runs on a phone.")
        }
        return phone
    }
}
