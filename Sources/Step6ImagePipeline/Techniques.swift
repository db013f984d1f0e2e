import Shared

/// The image libraries' techniques this step adds on top of step 5, with step 5's own (one load per URL,
/// the disk cache, the prefetch), each of which `--without` turns off to measure what it buys (the
/// walkthrough's ablation table).
struct Techniques: OptionSet, Sendable {
    let rawValue: Int

    /// Decode straight to the cell's pixel size instead of the poster's full size.
    static let decodeAtDisplaySize = Techniques(rawValue: 1 << 0)
    /// One load per URL, shared by every row that wants it, cancelled when the last one gives up.
    static let coalescing = Techniques(rawValue: 1 << 1)
    /// A transient failure is tried again after a growing pause.
    static let retries = Techniques(rawValue: 1 << 2)
    /// Downloaded bytes kept on disk, across launches, within a size limit.
    static let diskCache = Techniques(rawValue: 1 << 3)
    /// The next two rows are loaded at low priority once every visible row has its poster and the table
    /// is still, once the user reads on (two short scrolls in one direction, step 4's guess); every
    /// guess is given up when a drag begins.
    static let prefetch = Techniques(rawValue: 1 << 4)
    /// A cancelled download keeps the bytes it received; the next request for the URL asks only for the
    /// rest (a range request), when the server serves ranges.
    static let resumableDownloads = Techniques(rawValue: 1 << 5)

    /// A row that appears mid-scroll with its poster on disk is filled from there at once (no network,
    /// so nothing to hold); without it, it waits for the table to stop, as every other row.
    static let diskWhileScrolling = Techniques(rawValue: 1 << 6)

    /// While the finger drags the table at reading pace (slower than a screen a second), a row that
    /// comes on screen starts its download at once: it will most likely still be on screen when the
    /// table stops. A fast drag or a fling holds downloads until the table stops, as in step 3.
    static let slowDragLoading = Techniques(rawValue: 1 << 7)

    /// On a memory warning, the posters on screen stay in the memory cache (the disk still has the
    /// rest); without it, the cache is emptied, as step 4 empties it.
    static let keepOnScreen = Techniques(rawValue: 1 << 8)

    /// A URL that failed for good shows the failure for the rest of the launch; without it, a later
    /// display of the row tries again, as in step 4.
    static let rememberFailures = Techniques(rawValue: 1 << 9)

    /// When a fling's finger lifts, UIKit tells where the table will come to rest
    /// (`scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`): the rows there start loading
    /// at once, while the table coasts, instead of when it stops. A touch that catches the table first
    /// gives up those not on screen.
    static let loadAtTarget = Techniques(rawValue: 1 << 10)

    /// What the step uses.
    static let all: Techniques = [
        .decodeAtDisplaySize, .coalescing, .retries, .diskCache, .prefetch, .resumableDownloads,
        .diskWhileScrolling, .slowDragLoading, .keepOnScreen, .rememberFailures, .loadAtTarget,
    ]
}

/// The techniques `--without` can turn off in this step, as it names them.
enum Technique: String, CaseIterable {
    case decodeAtDisplaySize = "decode-at-display-size"
    case oneLoadPerURL = "one-load-per-url"
    case retries
    case diskCache = "disk-cache"
    case prefetch
    case resumeDownloads = "resume-downloads"
    case diskWhileScrolling = "disk-while-scrolling"
    case slowDragLoading = "slow-drag-loading"
    case keepOnScreen = "keep-on-screen"
    case rememberFailures = "remember-failures"
    case loadAtTarget = "load-at-target"

    /// The technique in this step's terms.
    var option: Techniques {
        switch self {
        case .decodeAtDisplaySize: .decodeAtDisplaySize
        case .oneLoadPerURL: .coalescing
        case .retries: .retries
        case .diskCache: .diskCache
        case .prefetch: .prefetch
        case .resumeDownloads: .resumableDownloads
        case .diskWhileScrolling: .diskWhileScrolling
        case .slowDragLoading: .slowDragLoading
        case .keepOnScreen: .keepOnScreen
        case .rememberFailures: .rememberFailures
        case .loadAtTarget: .loadAtTarget
        }
    }
}

extension Techniques {
    /// The techniques `--without` names, in this step's terms.
    init(_ named: [String]) {
        self = Techniques(named.compactMap(Technique.init(rawValue:)).map(\.option))
    }
}
