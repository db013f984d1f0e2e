import Runtime

/// One row's view, reused as rows scroll by: `UITableViewCell`'s look-alike.
///
/// Subclasses may override `prepareForReuse()`, which the table calls just before handing a cell from
/// the reuse pool to a new row.
open class TableViewCell {
    /// The identifier it was dequeued with.
    public let reuseIdentifier: String
    /// Shows the row's title.
    public let textLabel = Label()
    /// Shows the row's poster, the placeholder or the failure image.
    public let imageView = ImageView()
    /// An accessory, such as a spinner.
    public var accessoryView: ActivityIndicatorView?
    /// Set by the table when the picture changes, so the screen can be checked at the next commit.
    package var imageChanged = true

    public required init(reuseIdentifier: String) {
        self.reuseIdentifier = reuseIdentifier
        imageView.onChange = { [unowned self] in self.imageChanged = true }
    }

    /// Called before the cell is reused for another row. The default does nothing.
    open func prepareForReuse() {}
}

/// A view that shows one image: `UIImageView`'s look-alike.
public final class ImageView {
    /// The picture shown; nil shows the grey placeholder.
    public var image: Image? {
        didSet {
            onChange?()
            SimulatedThread.uiKitHost?.tableMutated()
        }
    }
    var onChange: (() -> Void)?

    init() {}
}

/// A line of text: `UILabel`'s look-alike.
public final class Label {
    public var text: String?

    init() {}
}

/// A spinner: `UIActivityIndicatorView`'s look-alike.
public final class ActivityIndicatorView {
    /// Whether the spinner is turning.
    public private(set) var isAnimating = false

    /// Makes a stopped spinner.
    public init() {}

    public func startAnimating() { isAnimating = true }

    public func stopAnimating() { isAnimating = false }
}
