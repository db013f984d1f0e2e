import Shared

/// Downloads one movie's poster on a background queue and decodes it.
///
/// `@unchecked Sendable`, as Swift 6 asks of an `Operation` subclass: the compiler no longer checks what it
/// shares between threads (chapter 2 shows what that lets through).
final class ImageDownloader: Operation, @unchecked Sendable {
    let movieRecord: MovieRecord

    init(movieRecord: MovieRecord) {
        self.movieRecord = movieRecord
    }

    override func main() {
        // Check before the heavy work: the row may have scrolled away while this waited in the queue.
        if isCancelled {
            return
        }
        // The blocking download: nothing can interrupt it once it has begun.
        let imageData = movieRecord.url.flatMap { Network.shared.data(contentsOf: $0) }
        // Check again: a cancellation that came during the download is seen here.
        if isCancelled {
            return
        }
        if let imageData, let image = Image(data: imageData) {
            movieRecord.image = image
            movieRecord.state = .downloaded
        } else {
            movieRecord.state = .failed
            movieRecord.image = Image.failed
        }
    }
}
