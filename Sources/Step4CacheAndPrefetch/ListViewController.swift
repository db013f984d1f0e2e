import Shared

/// The hot-movies list, fourth version: as the third, plus a memory cache and a disk cache, one load
/// per URL, cells that give up their load when reused (with a token so a late answer never draws into
/// the wrong cell), and prefetching of the next rows while the table is still.
final class ListViewController: TableViewController {
    var movies: [MovieRecord] = []
    let movieOperations: MovieOperations
    /// Filtered posters in memory: at most about 25 of them.
    let imageCache = ImageCache(totalCostLimit: 5_000_000)
    /// Downloaded posters on disk, kept across launches.
    lazy var diskCache = DiskCache(directory: Disk.shared.cachesDirectory.appendingPathComponent("Posters"))
    /// Every row's wish for a poster that is not fulfilled yet, by URL.
    var loadsInProgress: [URL: [ImageLoad]] = [:]
    /// URLs that failed in this launch: not tried again until the next one.
    var failedURLs: Set<URL> = []
    /// How many rows past the screen to prefetch when the table stops.
    let prefetchDistance = 5
    private var lastStopOffset = 0.0

    init(concurrency: Int) {
        movieOperations = MovieOperations(concurrency: concurrency)
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(MovieCell.self, forCellReuseIdentifier: "CellIdentifier")
        fetchMovieDetails()
    }

    /// Reads the bundled movie list into records.
    func fetchMovieDetails() {
        movies = phone.movies.map { MovieRecord(name: $0.name, url: $0.url) }
        tableView.reloadData()
    }

    override func didReceiveMemoryWarning() {
        super.didReceiveMemoryWarning()
        // Keep only the posters on screen; the disk still has the rest.
        let onScreen = (tableView.indexPathsForVisibleRows ?? []).compactMap { movies[$0.row].url }
        imageCache.removeAll(keeping: Set(onScreen))
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
            startOperationsForMovieRecord(movieRecord, indexPath: indexPath, cell: cell)
        }
        return cell
    }

    /// Records a row's wish for its poster and starts the URL's work unless it is already under way.
    @discardableResult
    func startOperationsForMovieRecord(
        _ movieRecord: MovieRecord, indexPath: IndexPath, cell: MovieCell?,
        priority: Operation.QueuePriority = .normal
    ) -> ImageLoad? {
        guard let url = movieRecord.url, !failedURLs.contains(url) else { return nil }
        let load = ImageLoad(url: url, indexPath: indexPath, isPrefetch: cell == nil) { [unowned self] load in
            self.loadCancelled(load)
        }
        load.cell = cell
        cell?.imageLoad = load
        loadsInProgress[url, default: []].append(load)
        if let downloader = movieOperations.downloadsInProgress[url] {
            // One download per URL: a visible row raises a prefetch's priority instead of starting another.
            if priority.rawValue > downloader.queuePriority.rawValue { downloader.queuePriority = priority }
        } else if movieOperations.filtrationsInProgress[url] == nil {
            startDownloadForURL(url, priority: priority)
        }
        return load
    }

    func startDownloadForURL(_ url: URL, priority: Operation.QueuePriority) {
        let downloader = ImageDownloader(url: url, diskCache: diskCache)
        downloader.queuePriority = priority
        downloader.completionBlock = {
            if downloader.isCancelled {
                return
            }
            OperationQueue.main.addOperation {
                // Cancelled after the hop was queued: nobody wants this poster any more.
                if downloader.isCancelled {
                    return
                }
                self.movieOperations.downloadsInProgress.removeValue(forKey: url)
                if let image = downloader.image {
                    self.startFiltrationForURL(url, image: image, priority: downloader.queuePriority)
                } else {
                    self.finishLoads(for: url, with: nil)
                }
            }
        }
        movieOperations.downloadsInProgress[url] = downloader
        movieOperations.downloadQueue.addOperation(downloader)
    }

    func startFiltrationForURL(_ url: URL, image: Image, priority: Operation.QueuePriority) {
        let filterer = ImageFiltration(image: image)
        filterer.queuePriority = priority
        filterer.completionBlock = {
            if filterer.isCancelled {
                return
            }
            OperationQueue.main.addOperation {
                if filterer.isCancelled {
                    return
                }
                self.movieOperations.filtrationsInProgress.removeValue(forKey: url)
                self.finishLoads(for: url, with: filterer.filteredImage)
            }
        }
        movieOperations.filtrationsInProgress[url] = filterer
        movieOperations.filtrationQueue.addOperation(filterer)
    }

    /// Caches the poster (or remembers the failure) and shows it in every cell still waiting for it.
    func finishLoads(for url: URL, with image: Image?) {
        if let image {
            imageCache.setImage(image, forKey: url)
        } else {
            failedURLs.insert(url)
        }
        for load in loadsInProgress.removeValue(forKey: url) ?? [] {
            // The guard: draw only into a cell that still waits for this very load, not one reused since.
            guard let cell = load.cell, cell.imageLoad === load else {
                continue
            }
            cell.imageLoad = nil
            cell.imageView.image = image ?? Image.failed
            cell.accessoryView?.stopAnimating()
            if image == nil {
                cell.textLabel.text = "Failed to load"
            }
        }
    }

    /// A row gave up its wish: when no row wants the URL any more, its work is cancelled.
    func loadCancelled(_ load: ImageLoad) {
        guard var loads = loadsInProgress[load.url] else { return }
        loads.removeAll { $0 === load }
        if !loads.isEmpty {
            loadsInProgress[load.url] = loads
            return
        }
        loadsInProgress.removeValue(forKey: load.url)
        movieOperations.downloadsInProgress.removeValue(forKey: load.url)?.cancel()
        movieOperations.filtrationsInProgress.removeValue(forKey: load.url)?.cancel()
    }

    override func scrollViewWillBeginDragging(_ scrollView: TableView) {
        // The user is looking for something: hold all work until the table stops, and drop guesses.
        suspendAllOperations()
        cancelPrefetching()
    }

    override func scrollViewDidEndDragging(_ scrollView: TableView, willDecelerate decelerate: Bool) {
        // No deceleration means the table has stopped under the finger.
        if !decelerate {
            loadImagesForOnscreenCells()
            resumeAllOperations()
        }
    }

    override func scrollViewDidEndDecelerating(_ scrollView: TableView) {
        loadImagesForOnscreenCells()
        resumeAllOperations()
    }

    func suspendAllOperations() {
        movieOperations.downloadQueue.isSuspended = true
        movieOperations.filtrationQueue.isSuspended = true
    }

    func resumeAllOperations() {
        movieOperations.downloadQueue.isSuspended = false
        movieOperations.filtrationQueue.isSuspended = false
    }

    /// Cancels work for rows that left the screen, starts work for visible rows not yet pending, then
    /// prefetches the next rows.
    func loadImagesForOnscreenCells() {
        guard let pathsArray = tableView.indexPathsForVisibleRows else { return }
        // Every row with a load pending for a cell (prefetches aside).
        let pendingLoads = loadsInProgress.keys.sorted { $0.absoluteString < $1.absoluteString }
            .flatMap { loadsInProgress[$0] ?? [] }.filter { !$0.isPrefetch }
        let allPendingOperations = Set(pendingLoads.map(\.indexPath))
        // Pending rows that are no longer visible: their loads are given up.
        let visiblePaths = Set(pathsArray)
        let toBeCancelled = allPendingOperations.subtracting(visiblePaths)
        // Visible rows with nothing pending: their work starts.
        let toBeStarted = visiblePaths.subtracting(allPendingOperations)
        for load in pendingLoads where toBeCancelled.contains(load.indexPath) {
            load.cancel()
        }
        // Sets have no order; sorting keeps every run the same.
        for indexPath in toBeStarted.sorted() {
            guard let cell = tableView.cellForRow(at: indexPath) as? MovieCell, cell.imageLoad == nil,
                cell.imageView.image?.kind == .placeholder
            else { continue }
            if let url = movies[indexPath.row].url, let image = imageCache.image(forKey: url) {
                cell.imageView.image = image
                cell.accessoryView?.stopAnimating()
                continue
            }
            startOperationsForMovieRecord(movies[indexPath.row], indexPath: indexPath, cell: cell)
        }
        prefetchRows(after: pathsArray)
    }

    // MARK: Prefetching

    /// Prefetch loads under way.
    private var prefetchLoads: [ImageLoad] = []

    /// Warms the caches for the rows just past the screen in the direction the user was scrolling.
    func prefetchRows(after visibleRows: [IndexPath]) {
        guard let first = visibleRows.first?.row, let last = visibleRows.last?.row else { return }
        let scrollingDown = tableView.contentOffset >= lastStopOffset
        lastStopOffset = tableView.contentOffset
        let rows =
            scrollingDown
            ? Array((last + 1)..<min(movies.count, last + 1 + prefetchDistance))
            : Array(stride(from: first - 1, through: max(0, first - prefetchDistance), by: -1))
        for row in rows {
            guard let url = movies[row].url, !failedURLs.contains(url), !imageCache.contains(url) else {
                continue
            }
            let indexPath = IndexPath(row: row, section: 0)
            if let load = startOperationsForMovieRecord(
                movies[row], indexPath: indexPath, cell: nil, priority: .low)
            {
                prefetchLoads.append(load)
            }
        }
    }

    /// Gives up every prefetch that has not finished.
    func cancelPrefetching() {
        let loads = prefetchLoads
        prefetchLoads = []
        for load in loads { load.cancel() }
    }
}
