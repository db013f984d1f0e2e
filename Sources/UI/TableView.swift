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
    public var rowHeight: Double { rows.rowHeight }
    /// Viewport height in points.
    public var viewportHeight: Double { rows.viewportHeight }
    /// How far the content is scrolled, in points from the top.
    public var contentOffset: Double { rows.contentOffset }
    /// Whether the user's finger is dragging the table.
    public package(set) var isDragging = false
    /// Whether the table is coasting after a fling.
    public package(set) var isDecelerating = false
    /// How many rows ahead of the visible ones the prefetch callbacks look.
    public var prefetchDistance: Int {
        get { rows.prefetchDistance }
        set { rows.prefetchDistance = newValue }
    }

    unowned let host: any UIKitHost
    weak var controller: TableViewController?
    /// Whether the next layout asks the controller for its rows again.
    package var needsReload: Bool {
        get { rows.needsReload }
        set { rows.needsReload = newValue }
    }
    /// Visible cells by row.
    package var visibleCells: [Int: TableViewCell] { rows.visibleCells }
    /// The rows, their cells and the reuse pool.
    private let rows: TableRows<TableViewController>

    init(host: any UIKitHost) {
        self.host = host
        rows = TableRows(rowHeight: host.rowHeight, viewportHeight: host.screenHeight)
    }

    /// Registers the cell class to make for a reuse identifier.
    public func register(_ cellClass: TableViewCell.Type, forCellReuseIdentifier identifier: String) {
        rows.register(cellClass, forCellReuseIdentifier: identifier)
    }

    /// A cell for a row: a reused one (after `prepareForReuse()`) if the pool has one, else a new one.
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath)
        -> TableViewCell
    {
        rows.dequeueReusableCell(withIdentifier: identifier)
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
        guard let calls else { return [] }
        return rows.rows(from: top, to: bottom, calls).map { IndexPath(row: $0, section: 0) }
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
        guard let calls else { return }
        rows.reload(rows: indexPaths.map(\.row), calls)
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

    /// Moves the content as a touch does, clamped to the edges, and tells the delegate; the rows follow at
    /// the next layout (the frame's commit, or a caller that asks which rows are visible).
    package func scroll(to offset: Double) {
        guard let calls else { return }
        rows.scroll(to: offset, calls)
    }

    /// Lays out the rows for the current offset, as UIKit does at a commit or when asked for visible rows:
    /// cells leave, new rows get cells, prefetch calls go out. Does nothing when the rows already match.
    package func layoutIfNeeded() {
        guard let calls else { return }
        rows.layoutIfNeeded(calls)
    }

    /// The rows' calls into the controller, while there is one.
    private var calls: ControllerCalls? {
        controller.map { ControllerCalls(table: self, controller: $0) }
    }

    /// The table and its controller as its rows call them, with the host's cost of making a cell and its
    /// record of the rows on screen.
    private struct ControllerCalls: TableRowsDelegate {
        let table: TableView
        let controller: TableViewController

        func cell(forRow row: Int) -> TableViewCell {
            SimulatedThread.current?.sleep(for: table.host.cellForRowCost)
            let cell = controller.tableView(table, cellForRowAt: IndexPath(row: row, section: 0))
            cell.imageChanged = true
            return cell
        }

        func visibleRowsChanged(to rows: ClosedRange<Int>) {
            table.host.visibleRowsChanged(first: rows.lowerBound, last: rows.upperBound)
        }
    }
}

extension TableViewCell: ReusableCell {}
extension TableViewController: TableController {}
extension IndexPath: RowIndex {}
