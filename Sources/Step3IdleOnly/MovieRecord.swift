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
final class MovieRecord: RowRecord {
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
