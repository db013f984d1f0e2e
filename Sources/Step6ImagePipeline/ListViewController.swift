import Shared

import func Foundation.log

/// The hot-movies list, sixth version: step 5's app with what image libraries add. Each cell's poster
/// loads in a `Task` the cell cancels when it is reused; an actor keeps one load per URL; posters are
/// decoded at the cell's pixel size. Rows that a slow drag brings on screen load at once, the rows a
/// fling will stop on load from the moment the finger lifts, and a reader's next rows are prefetched
/// once the screen is filled.
///
/// The controller is isolated to `PhoneMainActor`, the simulated phone's stand-in for `@MainActor`.
/// The look-alike UIKit in `Shared` is not annotated (steps 1–4 have no actors), so each callback enters
/// the actor with `PhoneMainActor.assumeIsolated`, as code does for a callback that is not annotated.
@PhoneMainActor
final class ListViewController: TableViewController {
    /// The cell's image view, 56 × 76 points, in pixels at the phone's 2× scale.
    nonisolated static let posterPixels = (width: 112, height: 152)

    var movies = RowRecords<MovieRecord>()
    let imageLoader: ImageLoader
    /// The memory cache, the failed URLs and the cells, where the tasks bring their answers.
    private(set) lazy var display = PosterDisplay(
        tableView: tableView,
        // Filtered posters in memory: about 25 of them, as many as step 4's 5 MB holds at full size.
        imageCache: ImageCache(
            totalCostLimit: techniques.contains(.decodeAtDisplaySize) ? 1_450_000 : 5_000_000))
    var imageCache: ImageCache { display.imageCache }
    /// URLs that failed in this launch: not tried again until the next one.
    var failedURLs: Set<URL> { display.failedURLs }
    /// How many rows past the screen to prefetch when the table stops, as in step 4.
    let prefetchDistance = 2
    /// How many short scrolls in one direction, in a row, make a reader whose next rows are worth a guess.
    let scrollsThatMakeAReader = 2
    /// The scroll that led to the last stop: its direction, and whether it was short (reading).
    private var lastScroll = (isDown: true, isShort: true)
    /// How many short scrolls in `lastScroll`'s direction led, one after another, to the last stop.
    private var shortScrollsInARow = 0
    let techniques: Techniques
    private var lastStopOffset = 0.0
    /// The task loading each visible row's poster for a cell, until it ends.
    private var loadTasks: [IndexPath: Task<Void, Never>] = [:]
    /// The task prefetching each row of the prefetch window, until it ends.
    private var prefetchTasks: [Int: Task<Void, Never>] = [:]
    /// Virtual time, to tell how fast the finger drags.
    let clock = PhoneClock()
    /// Where the table was at the last scroll callback of a drag, and when.
    private var lastDragSample: (offset: Double, time: PhoneClock.Instant)?
    /// Whether the finger drags at reading pace: rows it brings on screen load at once.
    private(set) var isDraggingSlowly = false
    /// The rows a fling will come to rest on, from the finger's lift until the table stops or a touch
    /// catches it: their downloads start while the table coasts.
    private var targetRows: Set<IndexPath> = []
    /// The task loading each target row's poster before the row has a cell, until it ends.
    private var targetTasks: [IndexPath: Task<Void, Never>] = [:]

    init(concurrency: Int, techniques: Techniques) {
        self.techniques = techniques
        imageLoader = ImageLoader(
            executor: SimulatedTaskExecutor(), techniques: techniques, displayPixels: Self.posterPixels,
            concurrency: concurrency,
            diskCache: DiskCache(
                directory: Disk.shared.cachesDirectory.appendingPathComponent("Posters"),
                sizeLimit: 20_000_000),
            clock: clock)
        super.init()
    }

    nonisolated override func viewDidLoad() {
        super.viewDidLoad()
        PhoneMainActor.assumeIsolated(self) { controller in
            controller.tableView.register(MovieCell.self, forCellReuseIdentifier: "CellIdentifier")
            controller.display.remembersFailures = controller.techniques.contains(.rememberFailures)
            controller.display.loadEnded = { [unowned controller] in controller.loadEnded(at: $0) }
            controller.display.prefetchEnded = { [unowned controller] in controller.prefetchEnded(row: $0) }
            controller.display.targetEnded = { [unowned controller] in controller.targetTasks[$0] = nil }
            controller.fetchMovieDetails()
        }
    }

    /// Reads the bundled movie list into records.
    func fetchMovieDetails() {
        movies = RowRecords(phone.movies)
        tableView.reloadData()
    }

    nonisolated override func didReceiveMemoryWarning() {
        super.didReceiveMemoryWarning()
        PhoneMainActor.assumeIsolated(self) { controller in controller.trimCaches() }
    }

    /// Keeps only the posters on screen (the disk still has the rest) and drops the guesses.
    func trimCaches() {
        let onScreen = (tableView.indexPathsForVisibleRows ?? []).compactMap { movies[$0.row].url }
        imageCache.removeAll(keeping: techniques.contains(.keepOnScreen) ? Set(onScreen) : [])
        cancelPrefetching()
        cancelTargetLoads(keeping: [])
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
        // Start work while the table is still, or while the finger drags at reading pace; rows flown
        // past may never be looked at. A poster already on disk costs no network, so it is read even
        // mid-scroll.
        if !tableView.isDragging && !tableView.isDecelerating {
            startLoad(for: cell, url: url, at: indexPath)
        } else if techniques.contains(.diskWhileScrolling), imageLoader.isOnDisk(url) {
            startLoad(for: cell, url: url, at: indexPath)
        } else if isDraggingSlowly {
            // Reading pace: the row will most likely be on screen when the table stops.
            startLoad(for: cell, url: url, at: indexPath)
        } else if targetRows.contains(indexPath) {
            // The table will stop here: join the load its lift started.
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
                result = .success(
                    try await imageLoader.image(for: url) { decoded in
                        await display.preview(decoded, at: indexPath)
                    })
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
            // The user is looking for something: hold the downloads not yet started, and give up the
            // guesses.
            controller.imageLoader.suspendDownloads(true)
            controller.cancelPrefetching()
            // A touch that catches a coasting table proves its target wrong.
            let onScreen = Set(controller.tableView.indexPathsForVisibleRows ?? [])
            controller.cancelTargetLoads(keeping: onScreen)
            controller.lastDragSample = (controller.tableView.contentOffset, controller.clock.now)
        }
    }

    nonisolated override func scrollViewDidScroll(_ scrollView: TableView) {
        PhoneMainActor.assumeIsolated(self) { controller in
            if controller.techniques.contains(.slowDragLoading) {
                controller.measureDragPace()
            }
        }
    }

    // MARK: Loading at reading pace

    /// Tells from the finger's speed since the last scroll callback whether it drags at reading pace
    /// (at most a screen a second), and lets visible rows' downloads start while it does.
    func measureDragPace() {
        var isSlow = false
        let now = clock.now
        if tableView.isDragging, let last = lastDragSample {
            let seconds = Double(now.microseconds - last.time.microseconds) / 1_000_000
            let distance = abs(tableView.contentOffset - last.offset)
            isSlow = seconds > 0 && distance <= tableView.viewportHeight * seconds
        }
        lastDragSample = tableView.isDragging ? (tableView.contentOffset, now) : nil
        guard isSlow != isDraggingSlowly else { return }
        isDraggingSlowly = isSlow
        imageLoader.letVisibleRowsStart(isSlow || !targetRows.isEmpty)
    }

    // MARK: Loading at the fling's target

    nonisolated override func scrollViewWillEndDragging(
        _ scrollView: TableView, withVelocity velocity: Double, targetContentOffset: Double
    ) {
        guard velocity != 0 else { return }
        PhoneMainActor.assumeIsolated(self) { controller in
            if controller.techniques.contains(.loadAtTarget) {
                controller.loadImagesForTargetCells(at: targetContentOffset, movingDown: velocity > 0)
            }
        }
    }

    /// The finger lifts on a fling: the rows the table will stop on start loading now, while it
    /// coasts, and then the rows it creeps past on the way in (at a quarter of a screen a second or
    /// slower, nearest first), which the user sees for a while. UIKit's deceleration multiplies the
    /// velocity by `decelerationRate` every millisecond, so a table at a speed has `speed / -ln(rate)`
    /// points left to go. A row on screen already loads for its cell; the others load into the memory
    /// cache, and the cell each gets on the way joins its load. The rows flown past still wait.
    func loadImagesForTargetCells(at targetContentOffset: Double, movingDown: Bool) {
        let height = tableView.viewportHeight
        let crawl = height / 4000
        let approach = crawl / -log(tableView.decelerationRate)
        let atRest = tableView.indexPathsForRows(from: targetContentOffset, to: targetContentOffset + height)
        let onTheWay =
            movingDown
            ? tableView.indexPathsForRows(from: targetContentOffset - approach, to: targetContentOffset)
                .reversed()
            : tableView.indexPathsForRows(
                from: targetContentOffset + height, to: targetContentOffset + height + approach)
        let targets = atRest + onTheWay.filter { !atRest.contains($0) }
        targetRows = Set(targets)
        let imageLoader = imageLoader
        let display = display
        for indexPath in targets where targetTasks[indexPath] == nil {
            guard let url = movies[indexPath.row].url, !failedURLs.contains(url), !imageCache.contains(url)
            else { continue }
            if let cell = tableView.cellForRow(at: indexPath) as? MovieCell {
                if cell.loadTask == nil { startLoad(for: cell, url: url, at: indexPath) }
                continue
            }
            targetTasks[indexPath] = Task(executorPreference: imageLoader.executor, priority: .userInitiated)
            {
                let image = try? await imageLoader.image(for: url)
                guard !Task.isCancelled else { return }
                await display.loadedAhead(image, for: url, at: indexPath)
            }
        }
        imageLoader.letVisibleRowsStart(true)
    }

    /// Gives up the target rows' loads but those for `rows` (a cell that joined one keeps it going),
    /// and holds the visible rows' downloads again unless the finger drags slowly.
    func cancelTargetLoads(keeping rows: Set<IndexPath>) {
        for indexPath in targetTasks.keys.sorted() where !rows.contains(indexPath) {
            targetTasks.removeValue(forKey: indexPath)?.cancel()
        }
        guard !targetRows.isEmpty else { return }
        targetRows = []
        if !isDraggingSlowly { imageLoader.letVisibleRowsStart(false) }
    }

    // MARK: The table at rest

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
        let onScreen = Set(tableView.indexPathsForVisibleRows ?? [])
        cancelTargetLoads(keeping: onScreen)
        if isDraggingSlowly {
            isDraggingSlowly = false
            imageLoader.letVisibleRowsStart(false)
        }
        loadImagesForOnscreenCells()
        imageLoader.suspendDownloads(false)
    }

    /// Cancels the tasks of rows that left the screen, starts a task for each visible row still
    /// waiting, then moves the prefetch window.
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
            updatePrefetchWindow(after: pathsArray)
            prefetchIfScreenIsFilled()
        }
    }

    /// A visible row's task ended (with a poster, a failure, or cancelled): it no longer holds up the
    /// prefetch.
    func loadEnded(at indexPath: IndexPath) {
        loadTasks[indexPath] = nil
        if techniques.contains(.prefetch) {
            prefetchIfScreenIsFilled()
        }
    }

    // MARK: Prefetching

    /// The rows to prefetch once the screen has its posters: the next rows in the scroll direction.
    private var prefetchWindow: [Int] = []

    /// Moves the prefetch window to the row just past the screen in the direction the user was
    /// scrolling, and cancels the prefetch tasks of rows that left it; those still in it go on. The
    /// window is empty unless the user reads on (step 4's rule): `scrollsThatMakeAReader` scrolls of at
    /// most a screen each, one after another in one direction.
    func updatePrefetchWindow(after visibleRows: [IndexPath]) {
        guard let first = visibleRows.first?.row, let last = visibleRows.last?.row else { return }
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
        for row in prefetchTasks.keys.sorted() where !window.contains(row) {
            prefetchTasks.removeValue(forKey: row)?.cancel()
        }
    }

    /// Warms the memory cache for the prefetch window, one low-priority task per row, but only once
    /// every visible row has its poster and the table is still: a guess never takes bandwidth from the
    /// rows the user is looking at.
    func prefetchIfScreenIsFilled() {
        let waitingForScreen = loadTasks.values.contains { !$0.isCancelled }
        guard !waitingForScreen, !tableView.isDragging, !tableView.isDecelerating else { return }
        let rows = prefetchWindow
        prefetchWindow = []
        let imageLoader = imageLoader
        let display = display
        for row in rows where prefetchTasks[row] == nil {
            guard let url = movies[row].url, !failedURLs.contains(url), !imageCache.contains(url) else {
                continue
            }
            prefetchTasks[row] = Task(executorPreference: imageLoader.executor, priority: .low) {
                let image = try? await imageLoader.image(for: url)
                guard !Task.isCancelled else { return }
                await display.prefetched(image, for: url, row: row)
            }
        }
    }

    /// A row's prefetch ended.
    func prefetchEnded(row: Int) {
        prefetchTasks[row] = nil
    }

    /// Gives up every prefetch that has not finished.
    func cancelPrefetching() {
        for row in prefetchTasks.keys.sorted() {
            prefetchTasks.removeValue(forKey: row)?.cancel()
        }
        prefetchWindow = []
    }
}
