/// A line of text: `UILabel`'s look-alike.
public final class Label {
    public var text: String?

    init() {}
}
