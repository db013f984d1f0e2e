import Foundation
import Imaging

/// A decoded picture: a real one, decoded by the workbook's own PNG decoder and filtered by its sepia
/// filter, on whatever thread asks.
public final class Image: Sendable {
    /// What kind of picture this is.
    public enum Kind: Sendable {
        case poster, placeholder, failed
    }

    /// The pixels.
    public let bitmap: Bitmap
    /// What kind of picture this is.
    public let kind: Kind

    private init(bitmap: Bitmap, kind: Kind) {
        self.bitmap = bitmap
        self.kind = kind
    }

    /// Decodes PNG bytes; nil when they are no PNG.
    public convenience init?(data: Data) {
        guard let bitmap = try? PNGDecoder.decode([UInt8](data)) else { return nil }
        self.init(bitmap: bitmap, kind: .poster)
    }

    /// Decodes PNG bytes and scales the picture down to fit `width` × `height` pixels; nil when they are
    /// no PNG.
    public convenience init?(data: Data, fittingPixels width: Int, _ height: Int) {
        guard let bitmap = try? PNGDecoder.decode([UInt8](data)) else { return nil }
        self.init(bitmap: bitmap.downsampled(toFit: width, height), kind: .poster)
    }

    /// Bytes the decoded pixels take, a cache's cost for the image.
    public var cost: Int { bitmap.rgba.count }

    /// The same picture in sepia at `intensity` (0…1).
    public func applyingSepia(intensity: Double) -> Image {
        Image(bitmap: SepiaFilter(intensity: intensity).apply(to: bitmap), kind: kind)
    }

    /// The grey picture shown while loading.
    public static let placeholder = Image(
        bitmap: Bitmap(width: 1, height: 1, rgba: [200, 200, 200, 255]), kind: .placeholder)
    /// The picture shown when a poster cannot be had.
    public static let failed = Image(
        bitmap: Bitmap(width: 1, height: 1, rgba: [90, 0, 0, 255]), kind: .failed)
}

/// Shows an image in a cell.
public final class ImageView {
    public var image: Image?
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

/// A table's state and its cells. Compile twin: it keeps its cells and scroll flags, but lays nothing
/// out and scrolls nowhere; no live mode drives it yet.
public final class TableView {
    public enum RowAnimation: Sendable {
        case none, fade
    }

    public let rowHeight = 88.0
    public let viewportHeight = 667.0
    public var contentOffset = 0.0
    public var isDragging = false
    public var isDecelerating = false
    public var prefetchDistance = 5
    private var cellClasses: [String: TableViewCell.Type] = [:]
    private var cells: [IndexPath: TableViewCell] = [:]

    public func register(_ cellClass: TableViewCell.Type, forCellReuseIdentifier identifier: String) {
        cellClasses[identifier] = cellClass
    }

    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath)
        -> TableViewCell
    {
        let cell = (cellClasses[identifier] ?? TableViewCell.self).init(reuseIdentifier: identifier)
        cells[indexPath] = cell
        return cell
    }

    public var indexPathsForVisibleRows: [IndexPath]? { cells.keys.sorted() }

    public func cellForRow(at indexPath: IndexPath) -> TableViewCell? { cells[indexPath] }

    /// UIKit's normal deceleration rate.
    public var decelerationRate: Double { 0.998 }

    /// The rows with some part between `top` and `bottom`, for fixed-height rows and no row count.
    public func indexPathsForRows(from top: Double, to bottom: Double) -> [IndexPath] {
        let first = max(0, Int((max(0, top) / rowHeight).rounded(.down)))
        let last = Int((bottom / rowHeight).rounded(.up)) - 1
        return first <= last ? (first...last).map { IndexPath(row: $0, section: 0) } : []
    }

    public func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}

    public func reloadData() {}
}

/// What the app runs on: its movies.
public final class Phone: Sendable {
    public let movies: [Movie]

    init(movies: [Movie]) {
        self.movies = movies
    }

    static let current = Phone(movies: (try? MovieCatalog.bundled().rows(200)) ?? [])
}

/// A screen that owns a table and answers for it, `UITableViewController`'s look-alike, with the same
/// overridable methods as the simulator's.
open class TableViewController {
    public let tableView = TableView()

    public init() {}

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
