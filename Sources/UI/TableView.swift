import Runtime
import Scenarios
import Values

/// A one-section table with fixed-height rows, cell reuse and scrolling: `UITableView`'s look-alike.
///
/// The phone drives it: each frame it moves `contentOffset` with every touch that arrived, with the
/// scroll-delegate callbacks, then lays out the rows once for the offset the frame ends on (asking the
/// controller for cells of rows coming on screen, which come from the reuse pool after
/// `prepareForReuse()`). The controller calls it back to dequeue cells, find visible rows and cells, and
/// reload rows.
public final class TableView {
    /// Row height in points.
    public let rowHeight: Double
    /// Viewport height in points.
    public let viewportHeight: Double
    /// How far the content is scrolled, in points from the top.
    public internal(set) var contentOffset = 0.0
    /// Whether the user's finger is dragging the table.
    public package(set) var isDragging = false
    /// Whether the table is coasting after a fling.
    public package(set) var isDecelerating = false
    /// How many rows ahead of the visible ones the prefetch callbacks look.
    public var prefetchDistance = 5

    unowned let host: any UIKitHost
    weak var controller: TableViewController?
    private(set) var numberOfRows = 0
    package var needsReload = true
    /// Visible cells by row.
    package private(set) var visibleCells: [Int: TableViewCell] = [:]
    private var reusePool: [String: [TableViewCell]] = [:]
    private var registeredClasses: [String: TableViewCell.Type] = [:]
    private var reportedRange: ClosedRange<Int>?
    private var prefetchWindow = PrefetchWindow()
    private var lastScrollDirection = 1.0
    /// Set while rows are being laid out, so a controller that asks for visible rows from inside
    /// `cellForRowAt` gets the rows as they stand.
    private var isLayingOut = false

    init(host: any UIKitHost) {
        self.host = host
        rowHeight = host.rowHeight
        viewportHeight = host.screenHeight
    }

    /// Registers the cell class to make for a reuse identifier.
    public func register(_ cellClass: TableViewCell.Type, forCellReuseIdentifier identifier: String) {
        registeredClasses[identifier] = cellClass
    }

    /// A cell for a row: a reused one (after `prepareForReuse()`) if the pool has one, else a new one.
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath)
        -> TableViewCell
    {
        if var pool = reusePool[identifier], !pool.isEmpty {
            let cell = pool.removeLast()
            reusePool[identifier] = pool
            cell.prepareForReuse()
            return cell
        }
        let cellClass = registeredClasses[identifier] ?? TableViewCell.self
        return cellClass.init(reuseIdentifier: identifier)
    }

    /// The index paths of the rows on screen, top to bottom. As UIKit's, it lays the rows out first if
    /// the table moved since its last layout.
    public var indexPathsForVisibleRows: [IndexPath]? {
        checkMainThread("indexPathsForVisibleRows")
        layoutIfNeeded()
        return visibleCells.keys.sorted().map { IndexPath(row: $0, section: 0) }
    }

    /// UIKit's deceleration rate: a coasting table's velocity is multiplied by it every millisecond.
    public var decelerationRate: Double { ScrollPhysics.decelerationRate }

    /// The index paths of the rows with some part between `top` and `bottom` (points from the top of the
    /// content), top to bottom: UIKit's `indexPathsForRows(in:)` for a rectangle as wide as the table.
    public func indexPathsForRows(from top: Double, to bottom: Double) -> [IndexPath] {
        guard let controller else { return [] }
        reloadIfNeeded(controller: controller)
        let top = max(0, top)
        guard bottom > top,
            let rows = GestureTimeline.visibleRows(
                at: top, rowHeight: rowHeight, viewport: bottom - top, rowCount: numberOfRows)
        else { return [] }
        return rows.map { IndexPath(row: $0, section: 0) }
    }

    /// The cell showing a row, if that row is on screen (after laying out the rows, as UIKit does).
    public func cellForRow(at indexPath: IndexPath) -> TableViewCell? {
        checkMainThread("cellForRow(at:)")
        layoutIfNeeded()
        return visibleCells[indexPath.row]
    }

    /// How a reload is animated (accepted for fidelity; the simulation does not animate).
    public enum RowAnimation: Sendable {
        case none, fade, automatic
    }

    /// Asks the controller again for the cells of these rows, where they are on screen.
    public func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        checkMainThread("reloadRows(at:with:)")
        host.tableMutated()
        SimulatedThread.current?.sleep(for: host.reloadRowsCost)
        for row in Set(indexPaths.map(\.row)).sorted() {
            guard let old = visibleCells[row], let controller else { continue }
            visibleCells[row] = nil
            controller.tableView(self, didEndDisplaying: old, forRowAt: IndexPath(row: row, section: 0))
            enqueueForReuse(old)
            visibleCells[row] = makeCell(row: row, controller: controller)
        }
    }

    /// Reloads everything at the next layout.
    public func reloadData() {
        checkMainThread("reloadData()")
        needsReload = true
        host.tableMutated()
    }

    /// The main thread checker, as Xcode's: a call from a simulated thread other than the main one is
    /// recorded (the method and the thread); the call still runs.
    private func checkMainThread(_ method: String) {
        guard let thread = SimulatedThread.current, thread.name != "main" else { return }
        host.calledOffMainThread(method, thread: thread.name)
    }

    /// Rows on screen at an offset.
    func visibleRange(at offset: Double) -> ClosedRange<Int>? {
        GestureTimeline.visibleRows(
            at: offset, rowHeight: rowHeight, viewport: viewportHeight, rowCount: numberOfRows)
    }

    /// Moves the content as a touch does, clamped to the edges, and tells the delegate; the rows follow at
    /// the next layout (the frame's commit, or a caller that asks which rows are visible).
    package func scroll(to offset: Double) {
        guard let controller else { return }
        reloadIfNeeded(controller: controller)
        let maxOffset = max(0, Double(numberOfRows) * rowHeight - viewportHeight)
        let clamped = min(max(0, offset), maxOffset)
        guard clamped != contentOffset else { return }
        lastScrollDirection = clamped > contentOffset ? 1 : -1
        contentOffset = clamped
        controller.scrollViewDidScroll(self)
    }

    /// Lays out the rows for the current offset, as UIKit does at a commit or when asked for visible rows:
    /// cells leave, new rows get cells, prefetch calls go out. Does nothing when the rows already match.
    package func layoutIfNeeded() {
        guard let controller, !isLayingOut else { return }
        isLayingOut = true
        defer { isLayingOut = false }
        reloadIfNeeded(controller: controller)
        let range = visibleRange(at: contentOffset)
        for row in visibleCells.keys.sorted() where !(range?.contains(row) ?? false) {
            removeCell(row: row, controller: controller)
        }
        if let range {
            for row in range where visibleCells[row] == nil {
                visibleCells[row] = makeCell(row: row, controller: controller)
            }
        }
        if range != reportedRange {
            reportedRange = range
            if let range {
                host.visibleRowsChanged(first: range.lowerBound, last: range.upperBound)
            }
            updatePrefetching(visible: range, controller: controller)
        }
    }

    private func reloadIfNeeded(controller: TableViewController) {
        guard needsReload else { return }
        needsReload = false
        numberOfRows = controller.tableView(self, numberOfRowsInSection: 0)
        for row in visibleCells.keys.sorted() { removeCell(row: row, controller: controller) }
    }

    private func makeCell(row: Int, controller: TableViewController) -> TableViewCell {
        SimulatedThread.current?.sleep(for: host.cellForRowCost)
        let cell = controller.tableView(self, cellForRowAt: IndexPath(row: row, section: 0))
        cell.imageChanged = true
        return cell
    }

    private func removeCell(row: Int, controller: TableViewController) {
        guard let cell = visibleCells.removeValue(forKey: row) else { return }
        controller.tableView(self, didEndDisplaying: cell, forRowAt: IndexPath(row: row, section: 0))
        enqueueForReuse(cell)
    }

    private func enqueueForReuse(_ cell: TableViewCell) {
        reusePool[cell.reuseIdentifier, default: []].append(cell)
    }

    /// Tells the controller which rows are coming up in the scroll direction, and which no longer are.
    private func updatePrefetching(visible: ClosedRange<Int>?, controller: TableViewController) {
        let (added, cancelled) = prefetchWindow.update(
            visible: visible, distance: prefetchDistance, downward: lastScrollDirection > 0,
            rowCount: numberOfRows)
        if !cancelled.isEmpty {
            controller.tableView(
                self, cancelPrefetchingForRowsAt: cancelled.map { IndexPath(row: $0, section: 0) })
        }
        if !added.isEmpty {
            controller.tableView(self, prefetchRowsAt: added.map { IndexPath(row: $0, section: 0) })
        }
    }
}
