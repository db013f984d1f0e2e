import Shared

/// The hot-movies list, second version: downloads and filters run on two operation queues, and each
/// finished step reloads its row on the main thread.
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
        case .new:
            indicator.startAnimating()
            startDownloadForRecord(movieRecord, indexPath: indexPath)
        case .downloaded:
            indicator.startAnimating()
            startFiltrationForRecord(movieRecord, indexPath: indexPath)
        }
        return cell
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
}
