import Runtime

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
