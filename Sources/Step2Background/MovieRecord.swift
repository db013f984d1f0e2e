import Shared

/// Where a movie's poster is in its journey from the network to the screen.
enum MovieRecordState {
    case new, downloaded, filtered, failed
}

/// One row of the list: the movie, its poster so far, and the poster's state.
///
/// The record keeps the catalog row rather than its title and parsed URL, and makes those when asked:
/// a parsed `URL` is about half a kilobyte, and a long scroll would otherwise keep one for every row it
/// ever showed.
final class MovieRecord {
    /// The catalog row this record shows.
    private let movie: Movie
    var name: String { movie.name }
    var url: URL? { movie.url }
    var state = MovieRecordState.new
    /// The placeholder until the download (then the filter) replaces it.
    var image = Image.placeholder

    init(movie: Movie) {
        self.movie = movie
    }
}

/// The list's records, used like an array of them (`movies.count`, `movies[indexPath.row]`), but each
/// made the first time its row is asked for and kept from then on: a catalog of 100,000 rows costs a
/// word a row until a row is shown.
final class MovieRecords {
    /// The catalog's rows, as the phone lists them.
    private let rows: [Movie]
    /// The records made so far, by row.
    private var records: [MovieRecord?]

    init(_ rows: [Movie] = []) {
        self.rows = rows
        records = Array(repeating: nil, count: rows.count)
    }

    var count: Int { rows.count }

    subscript(row: Int) -> MovieRecord {
        if let record = records[row] {
            return record
        }
        let record = MovieRecord(movie: rows[row])
        records[row] = record
        return record
    }
}
