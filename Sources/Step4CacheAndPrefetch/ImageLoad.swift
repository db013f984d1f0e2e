import Shared

/// One row's wish for a poster (a visible cell's, or a prefetch's): the token a late completion checks.
final class ImageLoad {
    let url: URL
    let indexPath: IndexPath
    /// The cell waiting for the poster (nil for a prefetch).
    weak var cell: MovieCell?
    /// Whether this load only warms the cache for a row not yet on screen.
    let isPrefetch: Bool
    private(set) var isCancelled = false
    private let onCancel: (ImageLoad) -> Void

    init(url: URL, indexPath: IndexPath, isPrefetch: Bool, onCancel: @escaping (ImageLoad) -> Void) {
        self.url = url
        self.indexPath = indexPath
        self.isPrefetch = isPrefetch
        self.onCancel = onCancel
    }

    /// Gives the wish up; the download stops when no other row still wants the URL.
    func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        onCancel(self)
    }
}
