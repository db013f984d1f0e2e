import Shared

/// One row of the list: the movie and its poster's URL. The poster itself lives in the image cache,
/// keyed by URL, so rows that share a URL share one poster.
///
/// The record keeps the catalog row rather than its title and parsed URL, and makes those when asked:
/// a parsed `URL` is about half a kilobyte, and a long scroll would otherwise keep one for every row it
/// ever showed.
final class MovieRecord: RowRecord {
    /// The catalog row this record shows.
    private let movie: Movie
    var name: String { movie.name }
    var url: URL? { movie.url }

    init(movie: Movie) {
        self.movie = movie
    }
}
