import Foundation
import LiveLock

/// The simulator's `bytes_wasted`, live: the bytes the server sent that no row showed. Each body the app
/// received whole is kept in the order it arrived; when a row comes to show a URL's poster, the last body
/// of that URL to have arrived counts as shown (as the simulator counts the last completed download of a
/// URL for a poster read back from a disk cache). Whatever else the server sent, cut short, cancelled,
/// never shown, a 404's page, was wasted.
enum LiveWaste {
    private struct Body {
        let bytes: Int
        var shown = false
    }

    private static let state = Mutex((bodies: [String: [Body]](), shownBytes: 0))

    /// Starts counting a run.
    static func start() {
        state.withLock { $0 = ([:], 0) }
    }

    /// A body of `bytes` arrived whole for `address`, the plain `http` URL the app asked for.
    static func received(_ address: URL, bytes: Int) {
        state.withLock { $0.bodies[address.absoluteString, default: []].append(Body(bytes: bytes)) }
    }

    /// A row has come to show the poster of the catalog's `url` (on the frame that just ended: a body
    /// that arrived during it, as step 1's do on the main thread, came before it).
    static func shown(_ url: URL) {
        let key = LiveAddress.plain(url).absoluteString
        state.withLock { state in
            guard let last = state.bodies[key]?.indices.last, state.bodies[key]?[last].shown == false
            else { return }
            state.bodies[key]?[last].shown = true
            state.shownBytes += state.bodies[key]?[last].bytes ?? 0
        }
    }

    /// The bytes of the bodies rows showed.
    static var shownBytes: Int { state.withLock { $0.shownBytes } }
}
