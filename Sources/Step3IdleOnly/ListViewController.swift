import Shared

/// The hot-movies list, third version: as the second, but nothing starts while the table is dragging
/// or decelerating; when it stops, work for rows that left the screen is cancelled and the visible
/// rows' work starts.
///
/// `@unchecked Sendable` as UIKit's view controllers are `Sendable`, by being isolated to the main actor:
/// its operations' completion blocks carry it to the main queue, and only the main thread uses it.
final class ListViewController: TableViewController, @unchecked Sendable {
    var movies = RowRecords<MovieRecord>()
    let movieOperations: MovieOperations

    init(concurrency: Int) {
        movieOperations = MovieOperations(concurrency: concurrency)
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        fetchMovieDetails()
    }

    /// Reads the bundled movie list into records.
    func fetchMovieDetails() {
        movies = RowRecords(phone.movies)
        tableView.reloadData()
    }

    override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        movies.count
    }

    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "CellIdentifier", for: indexPath)
        // A spinner tells the user the poster is on its way.
        if cell.accessoryView == nil {
            cell.accessoryView = ActivityIndicatorView()
        }
        let indicator = cell.accessoryView!
        let movieRecord = movies[indexPath.row]
        cell.textLabel.text = movieRecord.name
        cell.imageView.image = movieRecord.image
        switch movieRecord.state {
        case .filtered:
            indicator.stopAnimating()
        case .failed:
            indicator.stopAnimating()
            cell.textLabel.text = "Failed to load"
        case .new, .downloaded:
            indicator.startAnimating()
            // Only start work while the table is still; scrolling rows may never be looked at.
            if !tableView.isDragging && !tableView.isDecelerating {
                startOperationsForMovieRecord(movieRecord, indexPath: indexPath)
            }
        }
        return cell
    }

    func startOperationsForMovieRecord(_ movieRecord: MovieRecord, indexPath: IndexPath) {
        switch movieRecord.state {
        case .new:
            startDownloadForRecord(movieRecord, indexPath: indexPath)
        case .downloaded:
            startFiltrationForRecord(movieRecord, indexPath: indexPath)
        default:
            break
        }
    }

    func startDownloadForRecord(_ movieRecord: MovieRecord, indexPath: IndexPath) {
        // Already queued or running for this row: nothing to do.
        if movieOperations.downloadsInProgress[indexPath] != nil {
            return
        }
        let downloader = ImageDownloader(movieRecord: movieRecord)
        downloader.completionBlock = {
            if downloader.isCancelled {
                return
            }
            OperationQueue.main.addOperation {
                self.movieOperations.downloadsInProgress.removeValue(forKey: indexPath)
                self.tableView.reloadRows(at: [indexPath], with: .fade)
            }
        }
        movieOperations.downloadsInProgress[indexPath] = downloader
        movieOperations.downloadQueue.addOperation(downloader)
    }

    func startFiltrationForRecord(_ movieRecord: MovieRecord, indexPath: IndexPath) {
        if movieOperations.filtrationsInProgress[indexPath] != nil {
            return
        }
        let filterer = ImageFiltration(movieRecord: movieRecord)
        filterer.completionBlock = {
            if filterer.isCancelled {
                return
            }
            OperationQueue.main.addOperation {
                self.movieOperations.filtrationsInProgress.removeValue(forKey: indexPath)
                self.tableView.reloadRows(at: [indexPath], with: .fade)
            }
        }
        movieOperations.filtrationsInProgress[indexPath] = filterer
        movieOperations.filtrationQueue.addOperation(filterer)
    }

    override func scrollViewWillBeginDragging(_ scrollView: TableView) {
        // The user is looking for something: hold all work until the table stops.
        suspendAllOperations()
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

    /// Cancels work for rows that left the screen and starts work for visible rows not yet pending.
    func loadImagesForOnscreenCells() {
        guard let pathsArray = tableView.indexPathsForVisibleRows else { return }
        // Every row with work waiting or running, on either queue.
        var allPendingOperations = Set(movieOperations.downloadsInProgress.keys)
        allPendingOperations.formUnion(movieOperations.filtrationsInProgress.keys)
        // Pending rows that are no longer visible: their work is cancelled.
        let visiblePaths = Set(pathsArray)
        let toBeCancelled = allPendingOperations.subtracting(visiblePaths)
        // Visible rows with nothing pending: their work starts.
        let toBeStarted = visiblePaths.subtracting(allPendingOperations)
        // Sets have no order; sorting keeps every run the same.
        for indexPath in toBeCancelled.sorted() {
            if let pendingDownload = movieOperations.downloadsInProgress[indexPath] {
                pendingDownload.cancel()
            }
            movieOperations.downloadsInProgress.removeValue(forKey: indexPath)
            if let pendingFiltration = movieOperations.filtrationsInProgress[indexPath] {
                pendingFiltration.cancel()
            }
            movieOperations.filtrationsInProgress.removeValue(forKey: indexPath)
        }
        for indexPath in toBeStarted.sorted() {
            let recordToProcess = movies[indexPath.row]
            startOperationsForMovieRecord(recordToProcess, indexPath: indexPath)
        }
    }
}
