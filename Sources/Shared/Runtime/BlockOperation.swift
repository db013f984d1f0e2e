/// An operation that runs a closure.
public final class BlockOperation: Operation {
    private var block: (() -> Void)?

    /// Makes an operation that runs `block`.
    public init(block: @escaping () -> Void) {
        self.block = block
    }

    /// Runs the block once, then lets it go.
    override public func main() {
        let work = block
        block = nil
        work?()
    }
}
