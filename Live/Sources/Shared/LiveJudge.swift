import Dispatch
import Foundation
import LiveLock
import Posters
import Scenarios

/// Judges what the live table shows, frame by frame, as the simulator's screen audit does at each commit:
/// wrong pictures by their pixels, the time visible rows spend on the placeholder, and the stops (from
/// the table coming to rest on the scenario's timeline, or a launch, until the first presented frame on
/// which every visible row shows its final content, or until the user leaves).
///
/// `LiveRun` starts it with the run's clock and timeline, tells it of each launch, calls `frame` once a
/// frame on the main thread (after the app's work for that frame and outside its measured stretches),
/// and `finish` at the end. A poster that newly shows in a row is judged on a background queue: the row's
/// own poster, as the server serves it, is made the way the shown one was made (decoded, scaled to the
/// same box, filtered alike), and the two pictures' pixel hashes must match.
enum LiveJudge {
    /// What the judge saw over the run.
    struct Verdict: Sendable {
        /// Each stop's wait in microseconds, filled or left.
        var timesToVisible: [Int64] = []
        var stopsUnfilled = 0
        /// Visible-row microseconds on the placeholder.
        var placeholderRowMicroseconds: Int64 = 0
        /// Rows that came to show a poster whose pixels are not their row's poster.
        var wrongImages = 0
        /// Requests the app had started when each relaunch happened, in order.
        var requestsStartedAtRelaunches: [Int] = []
        /// Whether the last frame showed every visible row's final content (a filtered poster or the
        /// failure image).
        var finalAtEnd = false
    }

    private struct State {
        var clock = RunClock()
        var period = 1_000_000 / 60.0
        /// Each gesture's touch-down and the moment it comes to rest, on the scenario's timeline.
        var gestures: [(start: Int64, end: Int64)] = []
        var nextGesture = 0
        var gestureBegun = false
        var openStop: Int64?
        var lastCommit: Int64 = 0
        var placeholderRows = 0
        /// The picture each visible row showed at the last frame, by identity: the judge holds no picture,
        /// so that the image memory it measures is the app's alone.
        var shown = ShownPictures()
        var verdict = Verdict()
    }

    private static let state = Mutex(State())
    private static let wrongImages = Mutex(0)
    /// Judges posters off the main thread, one at a time.
    private static let pixelQueue = DispatchQueue(label: "live-judge", qos: .utility)
    /// The pixel hash of each row URL's poster made each way, once.
    private static let expectedHashes = Mutex([ExpectedKey: String?]())

    private struct ExpectedKey: Hashable {
        let url: String
        let recipe: Image.Recipe
    }

    /// Starts judging a run on `clock`, whose gestures follow `timeline` and whose frames come every
    /// `period` microseconds.
    static func start(clock: RunClock, timeline: GestureTimeline, period: Double) {
        state.withLock { state in
            state = State()
            state.clock = clock
            state.period = period
            state.gestures = timeline.gestures.map { ($0.start, $0.end) }
        }
    }

    /// A launch at `time` on the scenario's timeline: the open stop is left, nothing is shown yet, the
    /// launch is a stop, and gestures that began before it are never taken in.
    static func launched(at time: Int64) {
        let started = LiveCounters.requestsStarted
        if time > 0 { LiveTally.relaunched() }
        state.withLock { state in
            advance(&state, to: time)
            leaveOpenStop(&state, at: time)
            countPlaceholders(&state, until: time)
            if time > 0 { state.verdict.requestsStartedAtRelaunches.append(started) }
            state.shown = ShownPictures()
            state.placeholderRows = 0
            state.openStop = time
            state.nextGesture = state.gestures.firstIndex { $0.start >= time } ?? state.gestures.count
            state.gestureBegun = false
        }
    }

    /// Judges the screen as the frame that began at `time` leaves it.
    static func frame(_ table: TableView?, at time: Int64) {
        guard let table else { return }
        let movies = Phone.current.movies
        var newlyShown: [(row: Int, bitmap: Bitmap, recipe: Image.Recipe)] = []
        state.withLock { state in
            advance(&state, to: time)
            countPlaceholders(&state, until: time)
            let rows = table.visibleCells.keys.sorted()
            let cells = rows.compactMap { row in table.visibleCells[row].map { (row: row, cell: $0) } }
            let looked = state.shown.look(
                at: cells.map { row, cell in
                    let image = cell.imageView.image
                    return ShownPictures.Row(
                        row: row, picture: image.map(ObjectIdentifier.init),
                        isPlaceholder: image == nil || image?.kind == .placeholder,
                        isFinal: image?.isFinal ?? false)
                })
            let (placeholders, allFinal) = (looked.placeholders, looked.allFinal)
            for row in looked.newlyShown {
                if let image = table.visibleCells[row]?.imageView.image, image.kind == .poster {
                    newlyShown.append((row, image.bitmap, image.recipe))
                }
            }
            state.placeholderRows = placeholders
            state.verdict.finalAtEnd = allFinal && !rows.isEmpty
            // The frame is presented at the next vsync; a finger that lands before then has left the stop.
            let now = state.clock.now
            let presented = Int64((Double(now) / state.period).rounded(.up) * state.period)
            let fingerDown =
                !state.gestureBegun && state.nextGesture < state.gestures.count
                && state.gestures[state.nextGesture].start <= presented
            if let stop = state.openStop, allFinal, !rows.isEmpty, !fingerDown {
                state.verdict.timesToVisible.append(max(stop, presented) - stop)
                state.openStop = nil
            }
        }
        for (row, bitmap, recipe) in newlyShown where row < movies.count {
            if let url = movies[row].url { LiveWaste.shown(url) }
            let url = movies[row].url?.absoluteString
            pixelQueue.async {
                if !shows(bitmap, madeBy: recipe, posterOf: url) { wrongImages.withLock { $0 += 1 } }
            }
        }
    }

    /// Ends the run at `time`: the open stop is left, the placeholders counted, every poster judged.
    static func finish(at time: Int64) -> Verdict {
        pixelQueue.sync {}
        return state.withLock { state in
            advance(&state, to: time)
            leaveOpenStop(&state, at: time)
            countPlaceholders(&state, until: time)
            var verdict = state.verdict
            verdict.wrongImages = wrongImages.withLock { $0 }
            return verdict
        }
    }

    /// Takes in the touch-downs and rests of the gestures up to `time`, as the frame loop delivered them.
    private static func advance(_ state: inout State, to time: Int64) {
        while state.nextGesture < state.gestures.count {
            let gesture = state.gestures[state.nextGesture]
            if !state.gestureBegun {
                guard gesture.start <= time else { return }
                state.gestureBegun = true
                leaveOpenStop(&state, at: gesture.start)
            }
            guard gesture.end <= time else { return }
            state.nextGesture += 1
            state.gestureBegun = false
            state.openStop = gesture.end
        }
    }

    /// The user left the open stop at `time`; a finger that lands the moment the table comes to rest
    /// leaves no stop at all.
    private static func leaveOpenStop(_ state: inout State, at time: Int64) {
        guard let stop = state.openStop else { return }
        state.openStop = nil
        guard time > stop else { return }
        state.verdict.stopsUnfilled += 1
        state.verdict.timesToVisible.append(time - stop)
    }

    /// Counts the placeholder rows of the last frame as shown until `time`.
    private static func countPlaceholders(_ state: inout State, until time: Int64) {
        state.verdict.placeholderRowMicroseconds +=
            Int64(state.placeholderRows) * max(0, time - state.lastCommit)
        state.lastCommit = max(state.lastCommit, time)
    }

    /// Whether a poster shows the pixels of the poster the server serves for `url`, made the same way.
    private static func shows(_ bitmap: Bitmap, madeBy recipe: Image.Recipe, posterOf url: String?) -> Bool {
        guard let url else { return false }
        let key = ExpectedKey(url: url, recipe: recipe)
        let expected: String?
        if let known = expectedHashes.withLock({ $0[key] }) {
            expected = known
        } else {
            expected = expectedHash(url: url, recipe: recipe)
            expectedHashes.withLock { $0[key] = .some(expected) }
        }
        guard let expected else { return false }
        return PosterMemo.shared.hash(of: bitmap) == expected
    }

    /// The pixel hash of `url`'s served poster made by `recipe`; nil when the server serves no poster.
    private static func expectedHash(url: String, recipe: Image.Recipe) -> String? {
        guard !url.contains("/removed/"),
            var bitmap = PosterMemo.shared.decode(Data(PosterMemo.shared.png(for: url)))
        else { return nil }
        if let box = recipe.fitting {
            bitmap = PosterMemo.shared.fitted(bitmap, toFit: box.width, box.height)
        }
        if let intensity = recipe.sepia { bitmap = PosterMemo.shared.sepia(bitmap, intensity: intensity) }
        return PosterMemo.shared.hash(of: bitmap)
    }
}
