import Shared

/// Where a movie's poster is in its journey from the network to the screen.
enum MovieRecordState {
    case new, downloaded, filtered, failed
}

/// One row of the list: the movie, its poster so far, and the poster's state.
final class MovieRecord {
    let name: String
    let url: URL?
    var state = MovieRecordState.new
    /// The placeholder until the download (then the filter) replaces it.
    var image = Image.placeholder

    init(name: String, url: URL?) {
        self.name = name
        self.url = url
    }
}
