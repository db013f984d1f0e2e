import Runtime

extension Phone: AppHost {
    package func operationCancelled(_ operation: Operation) { recorder.operationCancelled(operation) }

    package func operationStarted(_ name: String, thread: String) {
        recorder.operationStarted(name, thread: thread)
    }

    package func operationFinished(_ name: String, thread: String, cancelled: Bool) {
        recorder.operationFinished(name, thread: thread, cancelled: cancelled)
    }
}
