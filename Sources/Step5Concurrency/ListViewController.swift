import Shared

/// The hot-movies list, fifth version: step 4's app in Swift concurrency. A memory cache and a disk
/// cache, one load per URL (an actor's), five downloads at once, a task per cell that reuse cancels
/// (with a guard so a late answer never draws into the wrong cell), and a prefetch of the next rows
/// when the table stops.
///
/// `@unchecked Sendable` as UIKit's view controllers are `Sendable`, by being isolated to the main actor:
/// its tasks carry it back to the main actor, and only the main thread uses it.
final class ListViewController: TableViewController, @unchecked Sendable {
    var movies = RowRecords<MovieRecord>()
    /// The parts that are on (all, unless `--without` turns some off).
    let techniques: Set<Technique>
    let concurrency: Int
    /// Filtered posters in memory, by URL, within a cost limit.
    let imageCache: ImageCache
    /// Downloaded posters on disk, kept across launches.
    lazy var diskCache: DiskCache? =
        techniques.contains(.diskCache)
        ? DiskCache(directory: Disk.shared.cachesDirectory.appendingPathComponent("Posters")) : nil
    /// The loads in progress, one per URL, and their queues.
    lazy var imageLoader = ImageLoader(
        concurrency: concurrency, diskCache: diskCache, oneLoadPerURL: techniques.contains(.oneLoadPerURL))
    /// Every visible row's task whose work is under way, by row.
    var loadsInProgress: [IndexPath: Task<Void, Never>] = [:]
    /// The prefetches under way: tasks for rows just past the screen, with no cell.
    var prefetchLoads: [Task<Void, Never>] = []
    /// How many rows past the screen are prefetched when the table stops.
    let prefetchDistance = 2

    /// `concurrency`, when given, overrides the five downloads at once.
    init(techniques: Set<Technique>, concurrency: Int?) {
        self.techniques = techniques
        self.concurrency = concurrency ?? (techniques.contains(.extraConcurrency) ? 5 : 1)
        imageCache = ImageCache(totalCostLimit: techniques.contains(.memoryCache) ? 5_000_000 : 0)
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(MovieCell.self, forCellReuseIdentifier: "CellIdentifier")
        fetchMovieDetails()
    }

    /// Reads the bundled movie list into records.
    func fetchMovieDetails() {
        movies = RowRecords(phone.movies)
        tableView.reloadData()
    }

    override func didReceiveMemoryWarning() {
        super.didReceiveMemoryWarning()
        // As the multi-image article: empty the memory cache and cancel every task. Posters already
        // in cells stay there; rows still waiting start again at the next stop.
        imageCache.removeAll()
        for indexPath in loadsInProgress.keys.sorted() {
            loadsInProgress.removeValue(forKey: indexPath)?.cancel()
            (tableView.cellForRow(at: indexPath) as? MovieCell)?.loadTask = nil
        }
        cancelPrefetching()
    }

    override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        movies.count
    }

    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell =
            tableView.dequeueReusableCell(withIdentifier: "CellIdentifier", for: indexPath) as! MovieCell
        // A spinner tells the user the poster is on its way.
        if cell.accessoryView == nil {
            cell.accessoryView = ActivityIndicatorView()
        }
        let indicator = cell.accessoryView!
        cell.cancelsLoadOnReuse = techniques.contains(.cancelOnReuse)
        let movieRecord = movies[indexPath.row]
        cell.textLabel.text = movieRecord.name
        guard let url = movieRecord.url else {
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
        // The placeholder first: a reused cell must not go on showing its last row's poster.
        cell.imageView.image = Image.placeholder
        indicator.startAnimating()
        // Only start work while the table is still; scrolling rows may never be looked at.
        if !tableView.isDragging && !tableView.isDecelerating {
            startLoad(for: movieRecord, indexPath: indexPath, cell: cell)
        }
        return cell
    }

    /// Starts a row's task: it waits for the poster (joining the URL's load if one is under way) and
    /// comes back to the main actor with it.
    @discardableResult
    func startLoad(
        for movieRecord: MovieRecord, indexPath: IndexPath, cell: MovieCell?, priority: TaskPriority = .medium
    ) -> Task<Void, Never>? {
        guard let url = movieRecord.url else { return nil }
        let imageLoader = imageLoader
        let task = Task(executorPreference: imageLoader.executor, priority: priority) {
            let image: Image?
            do {
                image = try await imageLoader.image(for: url)
            } catch {
                // Cancelled, and the load with it: nothing to show.
                return
            }
            await self.finishLoad(for: url, with: image, at: indexPath, cell: cell)
        }
        if let cell {
            cell.loadTask = task
            loadsInProgress[indexPath] = task
        }
        return task
    }

    /// Caches the poster and shows it (or the failure image) in the row's cell, if it has one: the row's
    /// task comes to the main actor for it, where step 4's completion blocks hopped to the main queue.
    @PhoneMainActor
    func finishLoad(for url: URL, with image: Image?, at indexPath: IndexPath, cell: MovieCell?) {
        // The guard against late answers: a task cancelled while it waited (its cell reused, its row
        // gone) draws nothing, even when the load went on for another row.
        guard !Task.isCancelled || !techniques.contains(.cancelOnReuse) else { return }
        if let image, !imageCache.contains(url) {
            imageCache.setImage(image, forKey: url)
        }
        guard let cell else { return }
        loadsInProgress.removeValue(forKey: indexPath)
        cell.loadTask = nil
        cell.imageView.image = image ?? Image.failed
        cell.accessoryView?.stopAnimating()
        if image == nil {
            cell.textLabel.text = "Failed to load"
        }
    }

    override func scrollViewWillBeginDragging(_ scrollView: TableView) {
        // The user is looking for something: hold all work until the table stops, and give the
        // prefetches up, as the prefetcher does when dragging begins.
        suspendAllOperations()
        cancelPrefetching()
    }

    override func scrollViewDidEndDragging(_ scrollView: TableView, willDecelerate decelerate: Bool) {
        // No deceleration means the table has stopped under the finger.
        if !decelerate {
            loadImagesForOnscreenCells()
            resumeAllOperations()
        } else {
            // Deceleration begins: no prefetch while the table moves.
            cancelPrefetching()
        }
    }

    override func scrollViewDidEndDecelerating(_ scrollView: TableView) {
        loadImagesForOnscreenCells()
        resumeAllOperations()
    }

    func suspendAllOperations() {
        imageLoader.downloadQueue.isSuspended = true
        imageLoader.filtrationQueue.isSuspended = true
    }

    func resumeAllOperations() {
        imageLoader.downloadQueue.isSuspended = false
        imageLoader.filtrationQueue.isSuspended = false
    }

    /// Cancels the tasks of rows that left the screen, starts a task for each visible row not yet
    /// pending, then prefetches the next rows.
    func loadImagesForOnscreenCells() {
        guard let pathsArray = tableView.indexPathsForVisibleRows else { return }
        // Every row with a task pending for its cell (prefetches aside).
        let allPendingOperations = Set(loadsInProgress.filter { !$0.value.isCancelled }.keys)
        // Pending rows that are no longer visible: their tasks are cancelled.
        let visiblePaths = Set(pathsArray)
        let toBeCancelled = allPendingOperations.subtracting(visiblePaths)
        // Visible rows with nothing pending: their work starts.
        let toBeStarted = visiblePaths.subtracting(allPendingOperations)
        // Sets have no order; sorting keeps every run the same.
        for indexPath in toBeCancelled.sorted() {
            loadsInProgress.removeValue(forKey: indexPath)?.cancel()
        }
        for indexPath in toBeStarted.sorted() {
            guard let cell = tableView.cellForRow(at: indexPath) as? MovieCell, cell.loadTask == nil,
                cell.imageView.image?.kind == .placeholder
            else { continue }
            // Cached while the row waited (another row, or a prefetch, brought it).
            if let url = movies[indexPath.row].url, let image = imageCache.image(forKey: url) {
                cell.imageView.image = image
                cell.accessoryView?.stopAnimating()
                continue
            }
            startLoad(for: movies[indexPath.row], indexPath: indexPath, cell: cell)
        }
        prefetchImages(after: pathsArray)
    }

    /// The prefetcher: loads the posters of the next rows at low priority, so the next short scroll
    /// finds them in the cache; the visible rows' work goes first.
    func prefetchImages(after visibleRows: [IndexPath]) {
        cancelPrefetching()
        guard techniques.contains(.prefetch), let last = visibleRows.last?.row else { return }
        for row in (last + 1)..<min(movies.count, last + 1 + prefetchDistance) {
            guard let url = movies[row].url, !imageCache.contains(url) else { continue }
            let indexPath = IndexPath(row: row, section: 0)
            if let load = startLoad(for: movies[row], indexPath: indexPath, cell: nil, priority: .low) {
                prefetchLoads.append(load)
            }
        }
    }

    /// Gives up every prefetch that has not finished.
    func cancelPrefetching() {
        let loads = prefetchLoads
        prefetchLoads = []
        for load in loads {
            load.cancel()
        }
    }
}
