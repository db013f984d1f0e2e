import Runtime

extension Phone: AppHost {
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
}
