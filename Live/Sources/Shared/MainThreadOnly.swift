/// A step's own state that the articles keep on the main thread (the in-progress maps), watched by the
/// main thread checker as the table is: a read or write off the main thread is counted
/// (`main_thread_checker_violations`); the access still happens.
@propertyWrapper
public struct MainThreadOnly<Value> {
    private var value: Value

    /// `name` is the property's, as the simulator's checker reports it.
    public init(wrappedValue: Value, _ name: String) {
        value = wrappedValue
    }

    public var wrappedValue: Value {
        get {
            MainThreadChecker.check()
            return value
        }
        set {
            MainThreadChecker.check()
            value = newValue
        }
    }
}
