import Shared

/// The hot-movies list, fifth version: step 4's app in Swift concurrency. Each cell's poster loads in a
/// `Task` the cell cancels when it is reused; an actor keeps one load per URL; prefetching is a task
/// group at low priority; posters are decoded at the cell's pixel size.
///
/// The controller is isolated to `PhoneMainActor`, the simulated phone's stand-in for `@MainActor`.
/// The look-alike UIKit in `Shared` is not annotated (steps 1–4 have no actors), so each callback enters
/// the actor with `PhoneMainActor.assumeIsolated`, as code does for a callback that is not annotated.
@PhoneMainActor
final class ListViewController: TableViewController {
    /// The cell's image view, 56 × 76 points, in pixels at the phone's 2× scale.
    static let posterPixels = (width: 112, height: 152)

    var movies: [MovieRecord] = []
    let imageLoader: ImageLoader
    /// The memory cache, the failed URLs and the cells, where the tasks bring their answers.
    private(set) lazy var display = PosterDisplay(
        tableView: tableView,
        // Filtered posters in memory: about 25 of them, as many as step 4's 5 MB holds at full size.
        imageCache: ImageCache(
            totalCostLimit: techniques.contains(.decodeAtDisplaySize) ? 1_540_000 : 5_000_000))
    var imageCache: ImageCache { display.imageCache }
    /// URLs that failed in this launch: not tried again until the next one.
    var failedURLs: Set<URL> { display.failedURLs }
    /// How many rows past the screen to prefetch when the table stops.
    let prefetchDistance = 5
    let techniques: Techniques
    private var lastStopOffset = 0.0
    /// The task group prefetching rows past the screen, if any.
    private var prefetchTask: Task<Void, Never>?
    /// The task loading each row's poster for a cell.
    private var loadTasks: [IndexPath: Task<Void, Never>] = [:]
    /// The rows that task group is prefetching.
    private var prefetchedRows: ClosedRange<Int>?

    init(concurrency: Int, techniques: Techniques) {
        self.techniques = techniques
        imageLoader = ImageLoader(
            executor: SimulatedTaskExecutor(), techniques: techniques, displayPixels: Self.posterPixels,
            concurrency: concurrency,
            diskCache: DiskCache(
                directory: Disk.shared.cachesDirectory.appendingPathComponent("Posters"),
                sizeLimit: 20_000_000),
            clock: PhoneClock())
        super.init()
    }

    nonisolated override func viewDidLoad() {
        super.viewDidLoad()
        PhoneMainActor.assumeIsolated(self) { controller in
            controller.tableView.register(MovieCell.self, forCellReuseIdentifier: "CellIdentifier")
            controller.fetchMovieDetails()
        }
    }

    /// Reads the bundled movie list into records.
    func fetchMovieDetails() {
        movies = phone.movies.map { MovieRecord(name: $0.name, url: $0.url) }
        tableView.reloadData()
    }

    nonisolated override func didReceiveMemoryWarning() {
        super.didReceiveMemoryWarning()
        PhoneMainActor.assumeIsolated(self) { controller in controller.trimCaches() }
    }

    /// Keeps only the posters on screen (the disk still has the rest) and drops the guesses.
    func trimCaches() {
        let onScreen = (tableView.indexPathsForVisibleRows ?? []).compactMap { movies[$0.row].url }
        imageCache.removeAll(keeping: Set(onScreen))
        cancelPrefetching()
    }

    nonisolated override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        PhoneMainActor.assumeIsolated(self) { controller in controller.movies.count }
    }

    nonisolated override func tableView(
        _ tableView: TableView, cellForRowAt indexPath: IndexPath
    ) -> TableViewCell {
        PhoneMainActor.assumeIsolated(self) { controller in controller.configuredCell(at: indexPath) }
    }

    func configuredCell(at indexPath: IndexPath) -> MovieCell {
        let cell =
            tableView.dequeueReusableCell(withIdentifier: "CellIdentifier", for: indexPath) as! MovieCell
        // A spinner tells the user the poster is on its way.
        if cell.accessoryView == nil {
            cell.accessoryView = ActivityIndicatorView()
        }
        let indicator = cell.accessoryView!
        let movieRecord = movies[indexPath.row]
        cell.textLabel.text = movieRecord.name
        guard let url = movieRecord.url, !failedURLs.contains(url) else {
            indicator.stopAnimating()
            cell.textLabel.text = "Failed to load"
            cell.imageView.image = Image.failed
            return cell
        }
        // A poster in memory shows at once, even mid-scroll.
        if let image = imageCache.image(forKey: url) {
            indicator.stopAnimating()
            cell.imageView.image = image
            return cell
        }
        cell.imageView.image = Image.placeholder
        indicator.startAnimating()
        // Only start work while the table is still; scrolling rows may never be looked at.
        if !tableView.isDragging && !tableView.isDecelerating {
            startLoad(for: cell, url: url, at: indexPath)
        }
        return cell
    }

    /// Starts the task that loads a cell's poster; the cell keeps it, to cancel it when reused.
    func startLoad(for cell: MovieCell, url: URL, at indexPath: IndexPath) {
        let imageLoader = imageLoader
        let display = display
        // The task runs on the phone's cooperative pool (its executor preference) and holds only
        // `Sendable` things; it comes to the main actor once, to show its answer.
        let task = Task(executorPreference: imageLoader.executor, priority: .userInitiated) {
            let result: Result<Image, any Error>
            do {
                result = .success(try await imageLoader.image(for: url))
            } catch {
                result = .failure(error)
            }
            // Cancelled while the poster was on its way: nothing to show, no trip to the main actor.
            guard !Task.isCancelled else { return }
            await display.show(result, for: url, at: indexPath)
        }
        cell.loadTask = task
        loadTasks[indexPath] = task
    }

    nonisolated override func scrollViewWillBeginDragging(_ scrollView: TableView) {
        PhoneMainActor.assumeIsolated(self) { controller in
            // The user is looking for something: hold the downloads not yet started, and drop the
            // guesses (unless they may still come true: then they are dropped only if their rows leave
            // the window, as the table scrolls).
            controller.imageLoader.suspendDownloads(true)
            if !controller.techniques.contains(.directionAwarePrefetch) {
                controller.cancelPrefetching()
            }
        }
    }

    nonisolated override func scrollViewDidScroll(_ scrollView: TableView) {
        PhoneMainActor.assumeIsolated(self) { controller in controller.cancelPrefetchingOutsideWindow() }
    }

    nonisolated override func scrollViewDidEndDragging(
        _ scrollView: TableView, willDecelerate decelerate: Bool
    ) {
        // No deceleration means the table has stopped under the finger.
        if !decelerate {
            PhoneMainActor.assumeIsolated(self) { controller in controller.tableStopped() }
        }
    }

    nonisolated override func scrollViewDidEndDecelerating(_ scrollView: TableView) {
        PhoneMainActor.assumeIsolated(self) { controller in controller.tableStopped() }
    }

    /// The table is at rest: the visible rows' loads go first, then the held downloads may start.
    func tableStopped() {
        loadImagesForOnscreenCells()
        imageLoader.suspendDownloads(false)
    }

    /// Cancels the tasks of rows that left the screen, starts a task for each visible row still
    /// waiting, then prefetches the next rows.
    func loadImagesForOnscreenCells() {
        guard let pathsArray = tableView.indexPathsForVisibleRows else { return }
        let visiblePaths = Set(pathsArray)
        // Sorted, so every run cancels in the same order.
        for indexPath in loadTasks.keys.sorted() where !visiblePaths.contains(indexPath) {
            loadTasks.removeValue(forKey: indexPath)?.cancel()
        }
        for indexPath in pathsArray {
            guard let cell = tableView.cellForRow(at: indexPath) as? MovieCell, cell.loadTask == nil,
                cell.imageView.image?.kind == .placeholder, let url = movies[indexPath.row].url
            else { continue }
            if let image = imageCache.image(forKey: url) {
                cell.imageView.image = image
                cell.accessoryView?.stopAnimating()
                continue
            }
            startLoad(for: cell, url: url, at: indexPath)
        }
        if techniques.contains(.prefetch) {
            prefetchRows(after: pathsArray)
        }
    }

    // MARK: Prefetching

    /// Warms the memory cache for the rows just past the screen in the direction the user was scrolling,
    /// as a task group at low priority: visible rows' loads go first.
    func prefetchRows(after visibleRows: [IndexPath]) {
        guard let first = visibleRows.first?.row, let last = visibleRows.last?.row else { return }
        let scrollingDown = tableView.contentOffset >= lastStopOffset
        lastStopOffset = tableView.contentOffset
        let rows =
            scrollingDown
            ? Array((last + 1)..<min(movies.count, last + 1 + prefetchDistance))
            : Array(stride(from: first - 1, through: max(0, first - prefetchDistance), by: -1))
        let urls = rows.compactMap { movies[$0].url }.filter {
            !failedURLs.contains($0) && !imageCache.contains($0)
        }
        guard !urls.isEmpty else { return }
        // The new group joins its loads before the old one leaves, so a row in both keeps its load.
        let previousPrefetch = prefetchTask
        defer { previousPrefetch?.cancel() }
        let imageLoader = imageLoader
        let display = display
        // The visible rows' loads go first: the guesses start once those are done.
        let visibleLoads = visibleRows.compactMap { loadTasks[$0] }
        prefetchTask = Task(executorPreference: imageLoader.executor, priority: .low) {
            for load in visibleLoads { await load.value }
            await withTaskGroup(of: (URL, Image?).self) { group in
                for url in urls {
                    group.addTask(priority: .low) { (url, try? await imageLoader.image(for: url)) }
                }
                for await (url, image) in group where !Task.isCancelled {
                    await display.prefetched(image, for: url)
                }
            }
        }
        prefetchedRows = rows.min()!...rows.max()!
    }

    /// Cancels the prefetch once its rows are no longer within `prefetchDistance` of the screen: a
    /// drag toward them keeps it (they are about to show), a drag away or a fling past them ends it.
    func cancelPrefetchingOutsideWindow() {
        guard let rows = prefetchedRows, let visible = tableView.indexPathsForVisibleRows,
            let first = visible.first?.row, let last = visible.last?.row
        else { return }
        let window = max(0, first - prefetchDistance)...(last + prefetchDistance)
        if !window.overlaps(rows) {
            cancelPrefetching()
        }
    }

    /// Gives up every prefetch that has not finished.
    func cancelPrefetching() {
        prefetchTask?.cancel()
        prefetchTask = nil
        prefetchedRows = nil
    }
}
