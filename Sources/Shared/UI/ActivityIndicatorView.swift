/// A spinner: `UIActivityIndicatorView`'s look-alike.
public final class ActivityIndicatorView {
    /// Whether the spinner is turning.
    public private(set) var isAnimating = false

    /// Makes a stopped spinner.
    public init() {}

    /// Starts the spinner.
    public func startAnimating() { isAnimating = true }

    /// Stops the spinner.
    public func stopAnimating() { isAnimating = false }
}
