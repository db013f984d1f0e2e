/// Carries a non-Sendable value to another real thread; safe here because only the baton holder runs.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
