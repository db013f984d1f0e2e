import Shared

/// A row's cell that remembers which load it waits for, and gives it up when it is reused.
final class MovieCell: TableViewCell {
    /// The poster load this cell waits for, if any.
    var imageLoad: ImageLoad?
    /// Whether reuse gives the load up (always, unless `--without cancel-on-reuse`).
    var cancelsLoadOnReuse = true

    override func prepareForReuse() {
        super.prepareForReuse()
        if cancelsLoadOnReuse {
            // The row this cell showed is gone: its poster is no longer wanted here.
            imageLoad?.cancel()
            imageLoad = nil
        }
        imageView.image = nil
    }
}
