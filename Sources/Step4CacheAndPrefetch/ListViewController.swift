import Shared

/// The hot-movies list, fourth version: as the third, plus a memory cache and a disk cache, one
/// operation per URL, five downloads at once, cells that give their load up when reused (with a guard so
/// a late answer never draws into the wrong cell), and a prefetch of the next rows when the table stops.
///
/// `@unchecked Sendable` as UIKit's view controllers are `Sendable`, by being isolated to the main actor:
/// its operations' completion blocks carry it to the main queue, and only the main thread uses it.
final class ListViewController: TableViewController, @unchecked Sendable {
    var movies = RowRecords<MovieRecord>()
    /// The parts that are on (all, unless `--without` turns some off).
    let techniques: Set<Technique>
    let movieOperations: MovieOperations
    /// Filtered posters in memory, by URL, within a cost limit.
    let imageCache: ImageCache
    /// Downloaded posters on disk, kept across launches.
    lazy var diskCache: DiskCache? =
        techniques.contains(.diskCache)
        ? DiskCache(directory: Disk.shared.cachesDirectory.appendingPathComponent("Posters")) : nil
    /// Every row's wish for a poster whose work is under way, by URL.
    var loadsInProgress: [URL: [ImageLoad]] = [:]
    /// The prefetches under way: loads for rows just past the screen, with no cell.
    var prefetchLoads: [ImageLoad] = []
    /// How many rows past the screen are prefetched when the table stops.
    let prefetchDistance = 2

    /// `concurrency`, when given, overrides the five downloads at once.
    init(techniques: Set<Technique>, concurrency: Int?) {
        self.techniques = techniques
        movieOperations = MovieOperations(
            concurrency: concurrency ?? (techniques.contains(.extraConcurrency) ? 5 : 1))
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
        // As the multi-image article: empty the memory cache and cancel every operation. Posters already
        // in cells stay there; rows still waiting start again at the next stop.
        imageCache.removeAll()
        movieOperations.downloadQueue.cancelAllOperations()
        movieOperations.filtrationQueue.cancelAllOperations()
        movieOperations.downloadsInProgress.removeAll()
        movieOperations.filtrationsInProgress.removeAll()
        for load in loadsInProgress.values.joined() where load.cell?.imageLoad === load {
            load.cell?.imageLoad = nil
        }
        loadsInProgress.removeAll()
        prefetchLoads.removeAll()
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
        guard let url = movieRecord.url else { return nil }
        let load = ImageLoad(url: url, indexPath: indexPath, isPrefetch: cell == nil) { [unowned self] load in
            self.loadCancelled(load)
        }
        load.cell = cell
        cell?.imageLoad = load
        loadsInProgress[url, default: []].append(load)
        if techniques.contains(.oneLoadPerURL) {
            // One operation per URL: a row that wants a poster already on its way joins it.
            if movieOperations.downloadsInProgress[url] != nil
                || movieOperations.filtrationsInProgress[url] != nil
            {
                return load
            }
        }
        startDownloadForURL(url, priority: priority)
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
                guard let image = downloader.image else {
                    // Fault tolerance: the operation is gone, so a later display of the row tries again.
                    self.finishLoads(for: url, with: nil)
                    return
                }
                self.startFiltrationForURL(url, image: image, priority: downloader.queuePriority)
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

    /// Caches the poster and shows it (or the failure image) in every cell still waiting for it.
    func finishLoads(for url: URL, with image: Image?) {
        if let image {
            imageCache.setImage(image, forKey: url)
        }
        for load in loadsInProgress[url] ?? [] {
            // The guard against late answers: draw only into a cell that still waits for this very load,
            // not one reused since for another row.
            guard let cell = load.cell, cell.imageLoad === load || !techniques.contains(.cancelOnReuse)
            else { continue }
            cell.imageLoad = nil
            cell.imageView.image = image ?? Image.failed
            cell.accessoryView?.stopAnimating()
            if image == nil {
                cell.textLabel.text = "Failed to load"
            }
        }
        loadsInProgress.removeValue(forKey: url)
        prefetchLoads.removeAll { $0.url == url }
    }

    /// A row gave its wish up: when no row wants the URL any more, its work is cancelled.
    func loadCancelled(_ load: ImageLoad) {
        guard let loads = loadsInProgress[load.url], loads.allSatisfy(\.isCancelled) else { return }
        loadsInProgress.removeValue(forKey: load.url)
        movieOperations.downloadsInProgress.removeValue(forKey: load.url)?.cancel()
        movieOperations.filtrationsInProgress.removeValue(forKey: load.url)?.cancel()
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
        // Every row with a load pending for its cell (prefetches aside).
        let pendingLoads = loadsInProgress.keys.sorted { $0.absoluteString < $1.absoluteString }
            .flatMap { loadsInProgress[$0] ?? [] }.filter { !$0.isPrefetch && !$0.isCancelled }
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
            // Cached while the row waited (another row, or a prefetch, brought it).
            if let url = movies[indexPath.row].url, let image = imageCache.image(forKey: url) {
                cell.imageView.image = image
                cell.accessoryView?.stopAnimating()
                continue
            }
            startOperationsForMovieRecord(movies[indexPath.row], indexPath: indexPath, cell: cell)
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
        for load in loads {
            load.cancel()
        }
    }
}
