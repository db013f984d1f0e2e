import Shared

/// The hot-movies list, fourth version: as the third, plus a memory cache and a disk cache, one load
/// per URL, cells that give up their load when reused (with a token so a late answer never draws into
/// the wrong cell), and prefetching of the next rows while the table is still. As in step 3, work is
/// started and given up when the table stops, not while it moves.
final class ListViewController: TableViewController {
    var movies = RowRecords<MovieRecord>()
    /// Which techniques are on (all, unless `--without` turns some off).
    let configuration: Configuration
    let movieOperations: MovieOperations
    /// Filtered posters in memory: at most about 25 of them (none without a memory cache).
    let imageCache: ImageCache
    /// Downloaded posters on disk, kept across launches (nil without a disk cache).
    lazy var diskCache: DiskCache? =
        configuration.isDiskCacheEnabled
        ? DiskCache(directory: Disk.shared.cachesDirectory.appendingPathComponent("Posters")) : nil
    /// Every row's wish for a poster whose work is under way, by URL; a wish given up stays listed until
    /// the work ends or every wish for the URL is given up.
    var loadsInProgress: [URL: [ImageLoad]] = [:]
    /// What cancelled downloads received, by URL: a later download asks only for the rest.
    var resumeData: [URL: ResumeData] = [:]
    /// URLs that failed in this launch: not tried again until the next one.
    var failedURLs: Set<URL> = []
    /// How many rows past the screen to prefetch when the table stops: one. Every prefetched poster the
    /// user never scrolls to is wasted bandwidth, and a reader's next scroll shows the next row first.
    let prefetchDistance = 1
    /// How many short scrolls in one direction, in a row, make a reader: only then is the next row a
    /// good enough guess to spend bytes on.
    let scrollsThatMakeAReader = 4
    private var lastStopOffset = 0.0
    /// The scroll that led to the last stop: its direction, and whether it was short (reading).
    private var lastScroll = (isDown: true, isShort: true)
    /// How many short scrolls in `lastScroll`'s direction led, one after another, to the last stop.
    private var shortScrollsInARow = 0

    init(configuration: Configuration) {
        self.configuration = configuration
        movieOperations = MovieOperations(concurrency: configuration.maxConcurrentOperationCount)
        imageCache =
            configuration.isMemoryCacheEnabled
            ? ImageCache(totalCostLimit: 5_000_000) : ImageCache(totalCostLimit: 0)
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
        guard configuration.keepsOnScreenPostersOnMemoryWarning else {
            // The article's way: empty the cache and give every load up; visible rows wait for the next stop.
            imageCache.removeAll(keeping: [])
            cancelPrefetching()
            for url in loadsInProgress.keys.sorted(by: { $0.absoluteString < $1.absoluteString }) {
                for load in loadsInProgress[url] ?? [] {
                    load.cell?.imageLoad = nil
                    load.cancel()
                }
            }
            cancelAllWork()
            return
        }
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
        cell.cancelsLoadOnReuse = configuration.isCancelOnReuseEnabled
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
        // Only start work while the table is still; scrolling rows may never be looked at. Work already
        // under way for the poster is joined, and a poster already on disk costs no network, so both
        // happen even mid-scroll.
        if !tableView.isDragging && !tableView.isDecelerating {
            startOperationsForMovieRecord(movieRecord, indexPath: indexPath, cell: cell)
        } else if configuration.isOneLoadPerURLEnabled, movieOperations.hasWork(for: url) {
            startOperationsForMovieRecord(movieRecord, indexPath: indexPath, cell: cell)
        } else if configuration.isReadingDiskWhileScrolling, let diskCache,
            Disk.shared.fileExists(at: diskCache.fileURL(for: url))
        {
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
        let sharesWork = configuration.isOneLoadPerURLEnabled
        if sharesWork, let downloader = movieOperations.downloadsInProgress[url] {
            // One download per URL: a visible row raises a prefetch's priority instead of starting another.
            if priority.rawValue > downloader.queuePriority.rawValue { downloader.queuePriority = priority }
        } else if !sharesWork || movieOperations.filtrationsInProgress[url] == nil {
            startDownloadForURL(
                url, priority: priority, readingDiskOnly: tableView.isDragging || tableView.isDecelerating)
        }
        return load
    }

    /// Starts the URL's download; `readingDiskOnly` (while the table scrolls) reads the disk cache only,
    /// on its own queue, which a drag does not suspend. `retries` counts the tries that failed before.
    func startDownloadForURL(
        _ url: URL, priority: Operation.QueuePriority, readingDiskOnly: Bool = false, retries: Int = 0
    ) {
        let downloader = ImageDownloader(
            url: url, diskCache: diskCache,
            resumeData: readingDiskOnly ? nil : resumeData.removeValue(forKey: url),
            readsDiskOnly: readingDiskOnly, retries: retries)
        downloader.queuePriority = priority
        downloader.completionBlock = {
            if downloader.isCancelled {
                // Keep what arrived before the cancel, for the next download of this poster.
                if let partial = downloader.resumeData, self.configuration.isResumingDownloads {
                    OperationQueue.main.addOperation { self.resumeData[url] = partial }
                }
                return
            }
            OperationQueue.main.addOperation {
                // Cancelled after the hop was queued: nobody wants this poster any more.
                if downloader.isCancelled {
                    return
                }
                self.movieOperations.downloadsInProgress.removeValue(forKey: url)
                if let image = downloader.image {
                    self.showUnfilteredPoster(image, for: url)
                    self.startFiltrationForURL(
                        url, image: image, priority: downloader.queuePriority,
                        fromDisk: downloader.readsDiskOnly)
                    self.storeOnDisk(downloader.downloadedData, for: url)
                } else if downloader.readsDiskOnly {
                    // Not on disk after all: download it, once the table stops.
                    self.startDownloadForURL(url, priority: downloader.queuePriority)
                } else if downloader.failedTransiently {
                    self.retryDownload(downloader)
                } else {
                    self.finishLoads(for: url, with: nil)
                }
            }
        }
        movieOperations.downloadsInProgress[url] = downloader
        let queue = readingDiskOnly ? movieOperations.diskReadQueue : movieOperations.downloadQueue
        queue.addOperation(downloader)
    }

    /// Keeps downloaded bytes on disk, one write at a time, once the poster is on its way to the screen.
    func storeOnDisk(_ data: Data?, for url: URL) {
        guard let data, let diskCache else { return }
        movieOperations.diskWriteQueue.addOperation(BlockOperation { diskCache.store(data, for: url) })
    }

    func startFiltrationForURL(
        _ url: URL, image: Image, priority: Operation.QueuePriority, fromDisk: Bool = false
    ) {
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
        // A poster read from disk mid-scroll is filtered there too, so it shows before the table stops.
        let queue = fromDisk ? movieOperations.diskReadQueue : movieOperations.filtrationQueue
        queue.addOperation(filterer)
    }

    /// Shows a downloaded poster before its filter in every cell still waiting for it, as steps 2 and 3
    /// show a record's `.downloaded` image; the filtered poster replaces it. Mid-drag, when the filters
    /// wait, this is what fills the row.
    func showUnfilteredPoster(_ image: Image, for url: URL) {
        for load in loadsInProgress[url] ?? [] {
            guard let cell = load.cell, cell.imageLoad === load || !configuration.isCancelOnReuseEnabled
            else { continue }
            cell.imageView.image = image
        }
    }

    /// Tries a transiently failed download again, behind every first try: the retry goes on the queue at
    /// low priority, so it takes a slot and a share of the link only when no other row's poster is
    /// waiting for its first try. What arrived before a dropped connection is asked for no more.
    func retryDownload(_ failed: ImageDownloader) {
        let url = failed.url
        if let partial = failed.resumeData, configuration.isResumingDownloads {
            resumeData[url] = partial
        }
        showFailureWhileRetrying(for: url)
        startDownloadForURL(url, priority: .low, retries: failed.retries + 1)
    }

    /// Shows the failure image in every cell still waiting for a URL whose download failed and is about
    /// to be tried again: the row says at once that its poster did not come (the spinner goes on), and a
    /// retry that succeeds replaces the failure with the poster.
    func showFailureWhileRetrying(for url: URL) {
        for load in loadsInProgress[url] ?? [] {
            guard let cell = load.cell, cell.imageLoad === load || !configuration.isCancelOnReuseEnabled
            else { continue }
            cell.imageView.image = Image.failed
        }
    }

    /// Caches the poster (or remembers the failure) and shows it in every cell still waiting for it.
    func finishLoads(for url: URL, with image: Image?) {
        if let image {
            imageCache.setImage(image, forKey: url)
        } else if configuration.remembersFailedURLs {
            failedURLs.insert(url)
        }
        for load in loadsInProgress.removeValue(forKey: url) ?? [] {
            // The guard: draw only into a cell that still waits for this very load, not one reused since
            // (a row that gave its load up stays listed while another row still wants the poster).
            guard let cell = load.cell, cell.imageLoad === load || !configuration.isCancelOnReuseEnabled
            else {
                continue
            }
            cell.imageLoad = nil
            cell.imageView.image = image ?? Image.failed
            cell.accessoryView?.stopAnimating()
            if image == nil {
                cell.textLabel.text = "Failed to load"
            }
        }
        prefetchIfScreenIsFilled()
    }

    /// A row gave up its wish: when no row wants the URL any more, its work is cancelled, or, while the
    /// table moves, at the next stop (the user may stop on the row again before then).
    func loadCancelled(_ load: ImageLoad) {
        guard let loads = loadsInProgress[load.url], loads.allSatisfy(\.isCancelled) else { return }
        if configuration.cancelsOnlyRowsLeavingWindow && (tableView.isDragging || tableView.isDecelerating) {
            return
        }
        cancelWork(for: load.url)
    }

    /// Forgets the loads given up for a URL and cancels its download or filter, unless the work has
    /// started: then it finishes into the caches. Its request is already sent, so sending it again later
    /// would cost another round trip, and the user, who just left the row, may well come back to it.
    func cancelWork(for url: URL) {
        loadsInProgress.removeValue(forKey: url)
        if configuration.letsStartedWorkFinish {
            let started = [
                movieOperations.downloadsInProgress[url], movieOperations.filtrationsInProgress[url],
            ]
            .contains { $0?.isExecuting == true }
            if started { return }
        }
        movieOperations.downloadsInProgress.removeValue(forKey: url)?.cancel()
        movieOperations.filtrationsInProgress.removeValue(forKey: url)?.cancel()
    }

    /// Cancels every download and filter, started or not, as the article's memory warning cancels all
    /// operations.
    func cancelAllWork() {
        let byAddress = { (a: URL, b: URL) in a.absoluteString < b.absoluteString }
        for url in movieOperations.downloadsInProgress.keys.sorted(by: byAddress) {
            movieOperations.downloadsInProgress.removeValue(forKey: url)?.cancel()
        }
        for url in movieOperations.filtrationsInProgress.keys.sorted(by: byAddress) {
            movieOperations.filtrationsInProgress.removeValue(forKey: url)?.cancel()
        }
        loadsInProgress.removeAll()
    }

    override func scrollViewWillBeginDragging(_ scrollView: TableView) {
        // The user is looking for something: hold all work until the table stops. Prefetches already
        // flowing go on; those for rows that leave the prefetch window are given up at the next stop.
        suspendAllOperations()
        if !configuration.cancelsOnlyRowsLeavingWindow {
            cancelPrefetching()
        }
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
            if let url = movies[indexPath.row].url, let image = imageCache.image(forKey: url) {
                cell.imageView.image = image
                cell.accessoryView?.stopAnimating()
                continue
            }
            startOperationsForMovieRecord(movies[indexPath.row], indexPath: indexPath, cell: cell)
        }
        // Work that went on while the table moved, for rows no longer wanted: given up now.
        let unwanted = loadsInProgress.keys.filter { loadsInProgress[$0]!.allSatisfy(\.isCancelled) }
        for url in unwanted.sorted(by: { $0.absoluteString < $1.absoluteString }) {
            cancelWork(for: url)
        }
        updatePrefetchWindow(after: pathsArray)
        prefetchIfScreenIsFilled()
    }

    // MARK: Prefetching

    /// Prefetch loads under way.
    private var prefetchLoads: [ImageLoad] = []

    /// The rows to prefetch once the screen has its posters: the next rows in the scroll direction.
    private var prefetchWindow: [Int] = []

    /// Moves the prefetch window to the rows just past the screen in the direction the user was
    /// scrolling, and gives up the prefetches of rows that left it; those still in it go on.
    ///
    /// The window guesses where a reader goes next, so it is empty unless the user reads on: at least
    /// `scrollsThatMakeAReader` scrolls of at most a screen each, one after another in one direction.
    /// After a longer scroll the user is searching, and after a turn back they are looking for
    /// something; the next rows are a poor guess either way.
    func updatePrefetchWindow(after visibleRows: [IndexPath]) {
        guard configuration.isPrefetchingEnabled, let first = visibleRows.first?.row,
            let last = visibleRows.last?.row
        else { return }
        let scrolled = tableView.contentOffset - lastStopOffset
        // A touch that did not move the table changes no guess.
        guard scrolled != 0 else { return }
        let scroll = (isDown: scrolled > 0, isShort: abs(scrolled) <= tableView.viewportHeight)
        let goesOn = scroll.isShort && lastScroll.isShort && scroll.isDown == lastScroll.isDown
        shortScrollsInARow = !scroll.isShort ? 0 : goesOn ? shortScrollsInARow + 1 : 1
        let readsOn = shortScrollsInARow >= scrollsThatMakeAReader
        let distance = readsOn ? prefetchDistance : 0
        lastStopOffset = tableView.contentOffset
        lastScroll = scroll
        prefetchWindow =
            scroll.isDown
            ? Array((last + 1)..<min(movies.count, last + 1 + distance))
            : Array(stride(from: first - 1, through: max(0, first - distance), by: -1))
        let window = Set(prefetchWindow)
        for load in prefetchLoads where !window.contains(load.indexPath.row) {
            load.cancel()
        }
        // Keep the prefetches still under way; the finished and the given-up ones are done with.
        prefetchLoads.removeAll { load in
            load.isCancelled || !(loadsInProgress[load.url] ?? []).contains { $0 === load }
        }
    }

    /// Warms the caches for the prefetch window, but only once every visible row has its poster and the
    /// table is still: a guess never takes bandwidth from the rows the user is looking at.
    func prefetchIfScreenIsFilled() {
        let waitingForScreen = loadsInProgress.values.contains { loads in
            loads.contains { !$0.isPrefetch && !$0.isCancelled }
        }
        guard !waitingForScreen, !tableView.isDragging, !tableView.isDecelerating else { return }
        let rows = prefetchWindow
        prefetchWindow = []
        for row in rows where !prefetchLoads.contains(where: { $0.indexPath.row == row }) {
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
