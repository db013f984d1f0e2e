import Shared

/// A row's cell that owns the task loading its poster, and cancels it when it is reused.
@PhoneMainActor
final class MovieCell: TableViewCell {
    /// The task loading this cell's poster, if any.
    var loadTask: Task<Void, Never>?

    nonisolated override func prepareForReuse() {
        super.prepareForReuse()
        PhoneMainActor.assumeIsolated(self) { cell in
            // The row this cell showed is gone: its poster is no longer wanted here.
            cell.loadTask?.cancel()
            cell.loadTask = nil
            cell.imageView.image = nil
        }
    }
}
