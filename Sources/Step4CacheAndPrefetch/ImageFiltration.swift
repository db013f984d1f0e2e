import Shared

/// Applies the sepia filter to one decoded poster.
///
/// `@unchecked Sendable`, as Swift 6 asks of an `Operation` subclass: the compiler no longer checks what it
/// shares between threads (chapter 2 shows what that lets through).
final class ImageFiltration: Operation, @unchecked Sendable {
    let image: Image
    /// The filtered poster; nil until done.
    private(set) var filteredImage: Image?

    init(image: Image) {
        self.image = image
    }

    override func main() {
        if isCancelled {
            return
        }
        filteredImage = applySepiaFilter(image)
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
