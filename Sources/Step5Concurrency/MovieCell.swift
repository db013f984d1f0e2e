import Shared

/// A row's cell that owns the task loading its poster, and cancels it when it is reused.
///
/// `@unchecked Sendable` as UIKit's views are `Sendable`, by being isolated to the main actor, so that a
/// row's task may carry its cell there.
@PhoneMainActor
final class MovieCell: TableViewCell, @unchecked Sendable {
    /// The task loading this cell's poster, if any.
    var loadTask: Task<Void, Never>?
    /// Whether reuse cancels the task (always, unless `--without cancel-on-reuse`).
    var cancelsLoadOnReuse = true

    nonisolated override func prepareForReuse() {
        super.prepareForReuse()
        PhoneMainActor.assumeIsolated(self) { cell in
            if cell.cancelsLoadOnReuse {
                // The row this cell showed is gone: its poster is no longer wanted here.
                cell.loadTask?.cancel()
                cell.loadTask = nil
            }
            cell.imageView.image = nil
        }
    }
}
