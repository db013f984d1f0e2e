import Runtime

/// A step's own state that the articles keep on the main thread, beside the table's (the in-progress
/// maps): the main thread checker watches it as it watches the table, recording each read or write from
/// another simulated thread with the property's name and the thread; the access still happens.
@propertyWrapper
public struct MainThreadOnly<Value> {
    private var value: Value
    /// The property's name, as the checker reports it.
    private let name: String

    public init(wrappedValue: Value, _ name: String) {
        value = wrappedValue
        self.name = name
    }

    public var wrappedValue: Value {
        get {
            check()
            return value
        }
        set {
            check()
            value = newValue
        }
    }

    private func check() {
        guard let thread = SimulatedThread.current, thread.name != "main" else { return }
        SimulatedThread.uiKitHost?.calledOffMainThread(name, thread: thread.name)
    }
}
