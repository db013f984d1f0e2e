import Foundation
import Imaging
import LiveLock
import Scenarios

import struct Values.IndexPath

/// A decoded picture: a real one, decoded by the workbook's own PNG decoder and filtered by its sepia
/// filter, on whatever thread asks. Decodes and filters are counted, and a poster's pixels count as image
/// memory while it is alive.
public final class Image: Sendable {
    /// What kind of picture this is.
    public enum Kind: Sendable {
        case poster, placeholder, failure
    }

    /// How a poster was made from its PNG bytes, so that a judge can make the row's own poster the same
    /// way and compare the pixels.
    struct Recipe: Sendable, Hashable {
        /// The pixel box it was scaled down to fit, if any.
        var fitting: (width: Int, height: Int)?
        /// The sepia intensity applied, if any.
        var sepia: Double?

        static func == (lhs: Recipe, rhs: Recipe) -> Bool {
            lhs.fitting?.width == rhs.fitting?.width && lhs.fitting?.height == rhs.fitting?.height
                && lhs.sepia == rhs.sepia
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(fitting?.width)
            hasher.combine(fitting?.height)
            hasher.combine(sepia)
        }
    }

    /// The pixels.
    public let bitmap: Bitmap
    /// What kind of picture this is.
    public let kind: Kind
    /// How a poster was made (unused for the placeholder and the failure image).
    let recipe: Recipe
    /// The launch that made it, whose image memory it counts in.
    private let launch = LiveTally.launch

    private init(bitmap: Bitmap, kind: Kind, recipe: Recipe = Recipe()) {
        self.bitmap = bitmap
        self.kind = kind
        self.recipe = recipe
        if kind == .poster { LiveTally.imageMemory(changedBy: bitmap.rgba.count, launch: launch) }
    }

    deinit {
        if kind == .poster { LiveTally.imageMemory(changedBy: -bitmap.rgba.count, launch: launch) }
    }

    /// Decodes PNG bytes; nil when they are no PNG.
    public convenience init?(data: Data) {
        LiveTally.count(.decodes)
        guard let bitmap = try? PNGDecoder.decode([UInt8](data)) else { return nil }
        self.init(bitmap: bitmap, kind: .poster)
    }

    /// Decodes PNG bytes and scales the picture down to fit `width` × `height` pixels; nil when they are
    /// no PNG.
    public convenience init?(data: Data, fittingPixels width: Int, _ height: Int) {
        LiveTally.count(.decodes)
        guard let bitmap = try? PNGDecoder.decode([UInt8](data)) else { return nil }
        self.init(
            bitmap: bitmap.downsampled(toFit: width, height), kind: .poster,
            recipe: Recipe(fitting: (width, height)))
    }

    /// Bytes the decoded pixels take, a cache's cost for the image.
    public var cost: Int { bitmap.rgba.count }

    /// Whether this is what a row shows when it is done: a filtered poster, or the failure image.
    var isFinal: Bool { kind == .failure || (kind == .poster && recipe.sepia != nil) }

    /// The same picture in sepia at `intensity` (0…1).
    public func applyingSepia(intensity: Double) -> Image {
        LiveTally.count(.filters)
        var recipe = recipe
        recipe.sepia = intensity
        return Image(
            bitmap: SepiaFilter(intensity: intensity).apply(to: bitmap), kind: kind, recipe: recipe)
    }

    /// The grey picture shown while loading.
    public static let placeholder = Image(
        bitmap: Bitmap(width: 1, height: 1, rgba: [200, 200, 200, 255]), kind: .placeholder)
    /// The picture shown when a poster cannot be had.
    public static let failed = Image(
        bitmap: Bitmap(width: 1, height: 1, rgba: [90, 0, 0, 255]), kind: .failure)
}

/// Shows an image in a cell.
public final class ImageView {
    public var image: Image? {
        didSet { LateCompletions.tableMutated() }
    }
}

/// Shows a line of text in a cell.
public final class Label {
    public var text: String?
}

/// A cell's spinner.
public final class ActivityIndicatorView {
    public private(set) var isAnimating = false
    public init() {}
    public func startAnimating() { isAnimating = true }
    public func stopAnimating() { isAnimating = false }
}

/// One row's view, reused as rows come and go.
open class TableViewCell {
    public let reuseIdentifier: String
    public let textLabel = Label()
    public let imageView = ImageView()
    public var accessoryView: ActivityIndicatorView?

    public required init(reuseIdentifier: String) {
        self.reuseIdentifier = reuseIdentifier
    }

    /// Called just before the table hands the cell out for another row.
    open func prepareForReuse() {}
}

/// A one-section table with fixed-height rows, cell reuse and scrolling, driven by the live frame loop:
/// each frame it moves `contentOffset` with the touches that arrived (telling the delegate), then lays the
/// rows out once for the offset the frame ends on, asking the controller for the cells of rows coming on
/// screen (reused ones after `prepareForReuse()`) and telling it of the rows that left
/// (`didEndDisplaying`) and of the rows coming up (`prefetchRowsAt`). Every call it makes into the app is
/// main-thread app work, timed for the report. It does not draw.
public final class TableView {
    public enum RowAnimation: Sendable {
        case none, fade, automatic
    }

    /// Row height in points.
    public var rowHeight: Double { rows.rowHeight }
    /// Viewport height in points.
    public var viewportHeight: Double { rows.viewportHeight }
    /// How far the content is scrolled, in points from the top.
    public var contentOffset: Double { rows.contentOffset }
    public var isDragging = false
    public var isDecelerating = false
    /// How many rows ahead of the visible ones the prefetch callbacks look.
    public var prefetchDistance: Int {
        get { rows.prefetchDistance }
        set { rows.prefetchDistance = newValue }
    }

    weak var controller: TableViewController?
    /// Visible cells by row.
    var visibleCells: [Int: TableViewCell] { rows.visibleCells }
    /// The rows, their cells and the reuse pool.
    private let rows: TableRows<TableViewController>

    init(screen: LiveScreen) {
        rows = TableRows(rowHeight: screen.rowHeight, viewportHeight: screen.height)
    }

    public func register(_ cellClass: TableViewCell.Type, forCellReuseIdentifier identifier: String) {
        rows.register(cellClass, forCellReuseIdentifier: identifier)
    }

    /// A cell for a row: a reused one (after `prepareForReuse()`) if the pool has one, else a new one.
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath)
        -> TableViewCell
    {
        rows.dequeueReusableCell(withIdentifier: identifier)
    }

    /// The rows on screen, top to bottom, after laying them out if the table moved since.
    public var indexPathsForVisibleRows: [IndexPath]? {
        MainThreadChecker.check()
        layoutIfNeeded()
        return visibleCells.keys.sorted().map { IndexPath(row: $0, section: 0) }
    }

    /// The cell showing a row, if that row is on screen (after laying out the rows, as UIKit does).
    public func cellForRow(at indexPath: IndexPath) -> TableViewCell? {
        MainThreadChecker.check()
        layoutIfNeeded()
        return visibleCells[indexPath.row]
    }

    /// UIKit's normal deceleration rate.
    public var decelerationRate: Double { ScrollPhysics.decelerationRate }

    /// The rows with some part between `top` and `bottom`, top to bottom.
    public func indexPathsForRows(from top: Double, to bottom: Double) -> [IndexPath] {
        guard let calls else { return [] }
        return rows.rows(from: top, to: bottom, calls).map { IndexPath(row: $0, section: 0) }
    }

    /// Asks the controller again for the cells of these rows, where they are on screen.
    public func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        MainThreadChecker.check()
        LateCompletions.tableMutated()
        MainThreadWork.measure {
            guard let calls else { return }
            rows.reload(rows: indexPaths.map(\.row), calls)
        }
    }

    /// Reloads everything at the next layout.
    public func reloadData() {
        MainThreadChecker.check()
        LateCompletions.tableMutated()
        rows.needsReload = true
    }

    /// Moves the content as a touch does, clamped to the edges, and tells the delegate; the rows follow at
    /// the next layout.
    func scroll(to offset: Double) {
        guard let calls else { return }
        rows.scroll(to: offset, calls)
    }

    /// Lays out the rows for the current offset: cells leave, new rows get cells, prefetch calls go out.
    func layoutIfNeeded() {
        guard let calls else { return }
        rows.layoutIfNeeded(calls)
    }

    /// The rows' calls into the controller, while there is one.
    private var calls: ControllerCalls? {
        controller.map { ControllerCalls(table: self, controller: $0) }
    }

    /// The table and its controller as its rows call them.
    private struct ControllerCalls: TableRowsDelegate {
        let table: TableView
        let controller: TableViewController
    }
}

extension TableViewCell: ReusableCell {}
extension TableViewController: TableController {}
extension IndexPath: RowIndex {}

/// What the app runs on: its movies, the scenario's rows of the bundled catalog.
public final class Phone: Sendable {
    public let movies: [Movie]

    init(movies: [Movie]) {
        self.movies = movies
    }

    /// The phone of this process, set by the live run before it makes the app.
    static var current: Phone { shared.withLock { $0 } }

    /// Sets the phone the app sees.
    static func use(_ phone: Phone) { shared.withLock { $0 = phone } }

    private static let shared = Mutex(Phone(movies: []))
}

/// A screen that owns a table and answers for it, `UITableViewController`'s look-alike, with the same
/// overridable methods as the simulator's.
open class TableViewController {
    public let tableView = TableView(screen: LiveScreen.current)

    public init() {
        tableView.controller = self
    }

    /// The device the app runs on.
    public var phone: Phone { Phone.current }

    open func viewDidLoad() {}
    open func didReceiveMemoryWarning() {}
    open func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 0 }
    open func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        tableView.dequeueReusableCell(withIdentifier: "CellIdentifier", for: indexPath)
    }
    open func tableView(
        _ tableView: TableView, didEndDisplaying cell: TableViewCell, forRowAt indexPath: IndexPath
    ) {}
    open func tableView(_ tableView: TableView, prefetchRowsAt indexPaths: [IndexPath]) {}
    open func tableView(_ tableView: TableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {}
    open func scrollViewWillBeginDragging(_ scrollView: TableView) {}
    open func scrollViewDidScroll(_ scrollView: TableView) {}
    open func scrollViewWillEndDragging(
        _ scrollView: TableView, withVelocity velocity: Double, targetContentOffset: Double
    ) {}
    open func scrollViewDidEndDragging(_ scrollView: TableView, willDecelerate decelerate: Bool) {}
    open func scrollViewDidEndDecelerating(_ scrollView: TableView) {}
}

/// The main thread checker, live, as Xcode's: a call to the table from a thread other than the main one
/// (`Thread.isMainThread`) is counted (`main_thread_checker_violations`); the call still runs.
enum MainThreadChecker {
    static func check() {
        if !Thread.isMainThread { LiveTally.count(.mainThreadCheckerViolations) }
    }
}
