import Posters
import Shared
import Synchronization

/// The pixel hashes a row's own poster may show with, computed here from the generated poster with the
/// codec alone (not through the pictures' recipes the screen audit remakes): the full-size decode, the
/// decode at the cell's pixel size (112 × 152, 56 × 76 points at 2×), and each of them in sepia.
final class OwnPosterPixels: Sendable {
    /// One per test process: the hashes depend on the URL alone.
    static let shared = OwnPosterPixels()
    private let hashesByURL = Mutex<[String: Set<String>]>([:])

    /// The hashes a poster served for `url` shows with, at the sizes and stages the steps show.
    func hashes(of url: String) -> Set<String> {
        if let known = hashesByURL.withLock({ $0[url] }) { return known }
        var made: Set<String> = []
        if let full = try? PNGDecoder.decode(PosterMemo.shared.png(for: url)) {
            let size = (width: 112, height: 152)
            let fitted = full.downsampled(toFit: size.width, size.height)
            let sepia = SepiaFilter(intensity: 0.8)
            made = Set([full, sepia.apply(to: full), fitted, sepia.apply(to: fitted)].map(\.contentHash))
        }
        hashesByURL.withLock { $0[url] = made }
        return made
    }
}
