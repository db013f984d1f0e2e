import Shared

/// One row of the list: the movie and its poster's URL. The poster itself lives in the image cache,
/// keyed by URL, so rows that share a URL share one poster.
final class MovieRecord {
    let name: String
    let url: URL?

    init(name: String, url: URL?) {
        self.name = name
        self.url = url
    }
}
