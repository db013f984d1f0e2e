import Shared

/// Applies the sepia filter to one downloaded poster on a background queue.
///
/// `@unchecked Sendable`, as Swift 6 asks of an `Operation` subclass: the compiler no longer checks what it
/// shares between threads (chapter 2 shows what that lets through).
final class ImageFiltration: Operation, @unchecked Sendable {
    let movieRecord: MovieRecord

    init(movieRecord: MovieRecord) {
        self.movieRecord = movieRecord
    }

    override func main() {
        if isCancelled {
            return
        }
        if movieRecord.state != .downloaded {
            return
        }
        if let filteredImage = applySepiaFilter(movieRecord.image) {
            movieRecord.image = filteredImage
            movieRecord.state = .filtered
        }
    }

    /// The articles' CoreImage sepia tone at intensity 0.8; nil when cancelled meanwhile.
    func applySepiaFilter(_ image: Image) -> Image? {
        if isCancelled {
            return nil
        }
        let outputImage = image.applyingSepia(intensity: 0.8)
        if isCancelled {
            return nil
        }
        return outputImage
    }
}
