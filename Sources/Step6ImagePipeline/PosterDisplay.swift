import Shared

/// The main-actor side of the posters: the memory cache, the URLs that failed, and the table's cells
/// the tasks show their answers in.
///
/// It is a class of its own, not part of the controller, because a task that runs off the main actor
/// may only keep `Sendable` things: isolated to the main actor, this class is `Sendable`, while the
/// controller, a subclass of the look-alike `UITableViewController` that is not annotated, is not. So
/// a cell's task waits on the cooperative pool and comes to the main actor once, with its answer.
@PhoneMainActor
final class PosterDisplay {
    let imageCache: ImageCache
    /// URLs that failed in this launch: not tried again until the next one.
    var failedURLs: Set<URL> = []
    /// Whether a failure goes into `failedURLs` (`Techniques.rememberFailures`).
    var remembersFailures = true
    private unowned let tableView: TableView
    /// Told when a visible row's task has shown its answer (the controller may start prefetching).
    var loadEnded: (@PhoneMainActor (IndexPath) -> Void)?
    /// Told when a row's prefetch has cached its answer.
    var prefetchEnded: (@PhoneMainActor (Int) -> Void)?
    /// Told when a target row's load, started before the row had a cell, has cached its answer.
    var targetEnded: (@PhoneMainActor (IndexPath) -> Void)?

    init(tableView: TableView, imageCache: ImageCache) {
        self.tableView = tableView
        self.imageCache = imageCache
    }

    /// Caches the poster (or remembers the failure) and shows it in the row's cell, unless the calling
    /// task was cancelled (the cell was reused, or the row left the screen).
    func show(_ result: Result<Image, any Error>, for url: URL, at indexPath: IndexPath) {
        guard !Task.isCancelled else { return }
        if case .success(let image) = result {
            imageCache.setImage(image, forKey: url)
        } else if remembersFailures {
            failedURLs.insert(url)
        }
        defer { loadEnded?(indexPath) }
        guard let cell = tableView.cellForRow(at: indexPath) as? MovieCell else { return }
        cell.loadTask = nil
        cell.accessoryView?.stopAnimating()
        switch result {
        case .success(let image):
            cell.imageView.image = image
        case .failure:
            cell.imageView.image = Image.failed
            cell.textLabel.text = "Failed to load"
        }
    }

    /// Shows a decoded poster before its filter in the row's cell, while it still shows the placeholder;
    /// the filtered poster replaces it. (The cell at the index path shows that row, so it is the row's
    /// own poster, whichever task brings it.)
    func preview(_ image: Image, at indexPath: IndexPath) {
        guard let cell = tableView.cellForRow(at: indexPath) as? MovieCell, cell.loadTask != nil,
            cell.imageView.image?.kind == .placeholder
        else { return }
        cell.imageView.image = image
    }

    /// A prefetched poster goes into the memory cache (a failure is remembered), unless prefetching was
    /// cancelled meanwhile.
    func prefetched(_ image: Image?, for url: URL, row: Int) {
        guard !Task.isCancelled else { return }
        defer { prefetchEnded?(row) }
        keep(image, for: url)
    }

    /// A target row's poster, loaded before the row had a cell, goes into the memory cache (a failure
    /// is remembered), unless the load was given up meanwhile. Its cell, if it has one by now, waits on
    /// the same load and shows it.
    func loadedAhead(_ image: Image?, for url: URL, at indexPath: IndexPath) {
        guard !Task.isCancelled else { return }
        defer { targetEnded?(indexPath) }
        keep(image, for: url)
    }

    private func keep(_ image: Image?, for url: URL) {
        if let image {
            imageCache.setImage(image, forKey: url)
        } else if remembersFailures {
            failedURLs.insert(url)
        }
    }
}
