import Catalog
import Foundation
import Report
import Scenarios
import UI

/// What the user sees, checked at every commit: the picture each visible cell shows (traced), wrong
/// pictures (judged by their pixels: a poster is right when it shows what its row's URL serves from the
/// run's poster source, made the way it was made, whatever URL is stamped in its bytes), the time rows spend on a placeholder, and the stops (from the table coming to
/// rest until a presented frame shows every visible row's final content, or the user leaves).
///
/// The phone tells it when a launch begins, when the table comes to rest and when main-thread work is
/// committed; it reports to the recorder.
final class ScreenAudit {
    private let recorder: Recorder
    private let movies: [Movie]
    /// What each row's URL serves: the pixels a row's poster must show.
    private let server: PosterServer
    private let keepsStopSnapshots: Bool
    /// When the table came to rest on the scenario's timeline (or the app launched), while no presented
    /// frame has yet shown every visible row's final content.
    private var openStop: Int64?
    private var lastCommit: Int64 = 0
    private var placeholderRowsShown = 0
    /// The image each visible row showed at the last commit.
    private var shown = ShownPictures()
    /// The screen at each stop, kept when asked for (`--screens`, `--export`).
    private(set) var stopSnapshots: [ScreenSnapshot] = []

    init(recorder: Recorder, movies: [Movie], server: PosterServer, keepsStopSnapshots: Bool) {
        self.recorder = recorder
        self.movies = movies
        self.server = server
        self.keepsStopSnapshots = keepsStopSnapshots
    }

    /// A launch began at `now`: nothing is shown yet, and the first screen is a stop.
    func launched(at now: Int64) {
        shown = ShownPictures()
        openStop = now
        lastCommit = now
        placeholderRowsShown = 0
    }

    /// The table came to rest at `time` on the scenario's timeline, which opens a stop.
    func tableCameToRest(at time: Int64) {
        openStop = time
    }

    /// Counts the placeholder rows of the last commit as shown until `now` (a relaunch, the end).
    func countPlaceholders(until now: Int64) {
        recorder.placeholderRows(placeholderRowsShown, for: now - lastCommit)
    }

    /// Checks the screen after main-thread work that will be presented at `presented`: records changed
    /// cells and wrong pictures, and fills the open stop if every visible row shows its final content
    /// (unless `fingerDown`: the finger landed before that frame was shown, so the user had left the stop).
    func commit(table: TableView, now: Int64, presented: Int64, fingerDown: Bool) {
        countPlaceholders(until: now)
        lastCommit = now
        let rows = table.visibleCells.keys.sorted()
        let cells = rows.compactMap { row in table.visibleCells[row].map { (row: row, cell: $0) } }
        let looked = shown.look(
            at: cells.map { row, cell in
                let image = cell.imageView.image
                let kind = image?.kind ?? .placeholder
                return ShownPictures.Row(
                    row: row, picture: image.map { ObjectIdentifier($0) },
                    isPlaceholder: kind == .placeholder,
                    isFinal: kind == .failure || (kind == .poster && image?.isFiltered == true),
                    isNewCell: cell.imageChanged)
            })
        let (placeholders, allFinal) = (looked.placeholders, looked.allFinal)
        for row in looked.newlyShown {
            guard let cell = table.visibleCells[row] else { continue }
            cell.imageChanged = false
            let image = cell.imageView.image
            recordShown(image, kind: image?.kind ?? .placeholder, row: row)
        }
        placeholderRowsShown = placeholders
        if let stop = openStop, allFinal, !rows.isEmpty, !fingerDown {
            let filled = max(stop, presented)
            recorder.stopFilled(from: stop, to: filled)
            openStop = nil
            if keepsStopSnapshots {
                var shown = snapshot(
                    label: "stop at \(MetricValue.milliseconds(stop).formatted) ms", table: table, now: now,
                    stoppedAt: stop)
                shown.time = filled
                stopSnapshots.append(shown)
            }
        }
    }

    /// The user left the open stop at `time` before it filled: a touch-down, a relaunch, the end of the run.
    /// A finger that lands at the very moment the table comes to rest leaves no stop at all: the table was
    /// never at rest.
    func leaveOpenStop(at time: Int64, table: TableView?, now: Int64) {
        guard let stop = openStop else { return }
        openStop = nil
        guard time > stop else { return }
        recorder.stopUnfilled(from: stop, to: time)
        if keepsStopSnapshots {
            var left = snapshot(
                label: "stop at \(MetricValue.milliseconds(stop).formatted) ms, left unfilled", table: table,
                now: now, stoppedAt: stop)
            left.time = time
            left.isUnfilled = true
            stopSnapshots.append(left)
        }
    }

    /// The visible rows as the user sees them at `now`.
    func snapshot(label: String, table: TableView?, now: Int64, stoppedAt: Int64? = nil) -> ScreenSnapshot {
        guard let table else {
            return ScreenSnapshot(label: label, time: now, rows: [], stoppedAt: stoppedAt)
        }
        let rows = table.visibleCells.keys.sorted().compactMap { row -> ScreenRow? in
            guard let cell = table.visibleCells[row] else { return nil }
            let image = cell.imageView.image
            let kind = image?.kind ?? .placeholder
            var shown = ScreenRow(
                row: row, title: movies[row].name, shows: Self.shows(kind),
                imageHash: kind == .placeholder ? nil : image?.contentHash, url: movies[row].urlString,
                spinning: cell.accessoryView?.isAnimating ?? false,
                pixels: kind == .poster ? image?.pixelMaker : nil)
            if kind == .poster, let image, !showsOwnPoster(image, row: row) {
                shown.wrongPosterOf = Self.owner(of: image, in: movies, row: row)
            }
            return shown
        }
        return ScreenSnapshot(label: label, time: now, rows: rows, stoppedAt: stoppedAt)
    }

    private func recordShown(_ image: Image?, kind: Image.Kind, row: Int) {
        if recorder.keepsTrace {
            recorder.event(
                .cellImage(
                    row: row, shows: Self.shows(kind), url: image?.sourceURL,
                    imageHash: kind == .placeholder ? nil : image?.contentHash))
        }
        guard kind == .poster, let image else { return }
        if !showsOwnPoster(image, row: row) {
            recorder.wrongImage(row: row, url: image.sourceURL)
        }
        recorder.posterShown(download: image.downloadID, url: image.sourceURL)
    }

    /// Whether a poster shows the pixels its row's URL serves, at the size and in the filter it was made
    /// with; for a picture that holds its pixels itself (nothing to make again), whether its stamp names the
    /// row's URL.
    private func showsOwnPoster(_ image: Image, row: Int) -> Bool {
        let movie = movies[row]
        return image.shows(pixelsOf: movie.url.flatMap { server.servedPNG(for: $0) })
            ?? (image.sourceURL == movie.urlString)
    }

    /// Whose poster a wrong picture is, for the screens: the row its stamp names, or, when the stamp
    /// names the row itself, the row's title marked as other pixels (a cache file from another source,
    /// forged bytes).
    private static func owner(of image: Image, in movies: [Movie], row: Int) -> String {
        guard let source = image.sourceURL, source != movies[row].urlString else {
            return "\(movies[row].name) (other pixels)"
        }
        return movies.first { $0.urlString == source }?.name ?? source
    }

    /// How the trace and the screens name what a cell shows.
    private static func shows(_ kind: Image.Kind) -> String {
        switch kind {
        case .poster: return "image"
        case .placeholder: return "placeholder"
        case .failure: return "failed"
        }
    }
}
