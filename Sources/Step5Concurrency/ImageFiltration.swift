import Shared

/// Applies the sepia filter to one decoded poster.
///
/// A `Sendable` struct run by a task, where step 4 had an `Operation` subclass: the compiler checks what
/// it shares between threads (the image, which is `Sendable`).
struct ImageFiltration: Sendable {
    let image: Image

    /// The filtered poster. Throws `CancellationError` when its task is cancelled.
    func main() throws -> Image {
        try applySepiaFilter(image)
    }

    /// The articles' CoreImage sepia tone at intensity 0.8.
    func applySepiaFilter(_ image: Image) throws -> Image {
        try Task.checkCancellation()
        let outputImage = image.applyingSepia(intensity: 0.8)
        try Task.checkCancellation()
        return outputImage
    }
}
