/// One row's view, reused as rows scroll by: `UITableViewCell`'s look-alike.
///
/// Subclasses may override `prepareForReuse()`, which the table calls just before handing a cell from
/// the reuse pool to a new row.
open class TableViewCell {
    /// The identifier it was dequeued with.
    public let reuseIdentifier: String
    /// The title.
    public let textLabel = Label()
    /// The picture.
    public let imageView = ImageView()
    /// An accessory, such as a spinner.
    public var accessoryView: ActivityIndicatorView?
    /// Set by the table when the picture changes, so the screen can be checked at the next commit.
    package var imageChanged = true

    /// Makes a cell.
    public required init(reuseIdentifier: String) {
        self.reuseIdentifier = reuseIdentifier
        imageView.onChange = { [unowned self] in self.imageChanged = true }
    }

    /// Called before the cell is reused for another row. The default does nothing.
    open func prepareForReuse() {}
}
