/// A line of text: `UILabel`'s look-alike.
public final class Label {
    /// The text shown.
    public var text: String?

    init() {}
}
