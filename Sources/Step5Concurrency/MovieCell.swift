import Shared

/// A row's cell that owns the task loading its poster, and cancels it when it is reused.
///
/// `@unchecked Sendable` as UIKit's views are `Sendable`, by being isolated to the main actor: a row's
/// task carries its cell back to the main actor, and only the main thread uses it.
final class MovieCell: TableViewCell, @unchecked Sendable {
    /// The task loading this cell's poster, if any.
    var loadTask: Task<Void, Never>?
    /// Whether reuse cancels the task (always, unless `--without cancel-on-reuse`).
    var cancelsLoadOnReuse = true

    override func prepareForReuse() {
        super.prepareForReuse()
        if cancelsLoadOnReuse {
            // The row this cell showed is gone: its poster is no longer wanted here.
            loadTask?.cancel()
            loadTask = nil
        }
        imageView.image = nil
    }
}
