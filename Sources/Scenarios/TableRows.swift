/// A cell a table makes for a reuse identifier and keeps for reuse under it.
package protocol ReusableCell: AnyObject {
    init(reuseIdentifier: String)
    var reuseIdentifier: String { get }
    /// Called just before the table hands the cell out for another row.
    func prepareForReuse()
}

/// A row's address, as a table's controller takes it (`IndexPath`).
package protocol RowIndex {
    init(row: Int, section: Int)
}

/// The data-source, delegate and prefetching calls a table makes into its controller, in UIKit's terms:
/// what `TableRows` needs of a `UITableViewController` look-alike.
package protocol TableController<Table, Cell>: AnyObject {
    associatedtype Table
    associatedtype Cell: ReusableCell
    associatedtype Index: RowIndex
    func tableView(_ tableView: Table, numberOfRowsInSection section: Int) -> Int
    func tableView(_ tableView: Table, cellForRowAt indexPath: Index) -> Cell
    func tableView(_ tableView: Table, didEndDisplaying cell: Cell, forRowAt indexPath: Index)
    func tableView(_ tableView: Table, prefetchRowsAt indexPaths: [Index])
    func tableView(_ tableView: Table, cancelPrefetchingForRowsAt indexPaths: [Index])
    func scrollViewDidScroll(_ scrollView: Table)
}

/// A table and its controller, as `TableRows` calls them.
package protocol TableRowsDelegate<Controller> {
    associatedtype Controller: TableController
    var table: Controller.Table { get }
    var controller: Controller { get }
    /// A cell for a row coming on screen or being reloaded: the controller's `cellForRowAt`, unless the
    /// table does more around it.
    func cell(forRow row: Int) -> Controller.Cell
    /// The rows on screen changed at a layout to `rows` (nothing, unless the table records it).
    func visibleRowsChanged(to rows: ClosedRange<Int>)
}

extension TableRowsDelegate {
    package func cell(forRow row: Int) -> Controller.Cell {
        controller.tableView(table, cellForRowAt: Controller.Index(row: row, section: 0))
    }

    package func visibleRowsChanged(to rows: ClosedRange<Int>) {}

    func numberOfRows() -> Int {
        controller.tableView(table, numberOfRowsInSection: 0)
    }

    func didEndDisplaying(_ cell: Controller.Cell, row: Int) {
        controller.tableView(table, didEndDisplaying: cell, forRowAt: Controller.Index(row: row, section: 0))
    }

    func prefetch(rows: [Int]) {
        controller.tableView(table, prefetchRowsAt: rows.map { Controller.Index(row: $0, section: 0) })
    }

    func cancelPrefetching(rows: [Int]) {
        controller.tableView(
            table, cancelPrefetchingForRowsAt: rows.map { Controller.Index(row: $0, section: 0) })
    }

    func didScroll() {
        controller.scrollViewDidScroll(table)
    }
}

/// The rows of a one-section table with fixed-height rows: how far it is scrolled, which rows have cells,
/// the cells waiting for reuse and the rows its prefetch callbacks named. The simulator's `TableView` and
/// the live one both keep their rows in one; a call that may reach the controller takes the table and
/// its controller as a `TableRowsDelegate`.
package final class TableRows<Controller: TableController> {
    package typealias Cell = Controller.Cell

    /// Row height in points.
    package let rowHeight: Double
    /// Viewport height in points.
    package let viewportHeight: Double
    /// How far the content is scrolled, in points from the top.
    package private(set) var contentOffset = 0.0
    /// How many rows ahead of the visible ones the prefetch callbacks look.
    package var prefetchDistance = 5
    /// Whether the next layout asks the controller for its rows again.
    package var needsReload = true
    /// The row count the controller gave at the last reload.
    package private(set) var numberOfRows = 0
    /// Visible cells by row.
    package private(set) var visibleCells: [Int: Cell] = [:]
    private var reusePool: [String: [Cell]] = [:]
    private var registeredClasses: [String: Cell.Type] = [:]
    private var reportedRange: ClosedRange<Int>?
    private var prefetchWindow = PrefetchWindow()
    private var lastScrollDirection = 1.0
    /// Set while rows are laid out, so a controller that asks for visible rows from `cellForRowAt` gets
    /// the rows as they stand.
    private var isLayingOut = false

    package init(rowHeight: Double, viewportHeight: Double) {
        self.rowHeight = rowHeight
        self.viewportHeight = viewportHeight
    }

    /// Registers the cell class to make for a reuse identifier.
    package func register(_ cellClass: Cell.Type, forCellReuseIdentifier identifier: String) {
        registeredClasses[identifier] = cellClass
    }

    /// A cell for `identifier`: a reused one (after `prepareForReuse()`) if the pool has one, else a new
    /// one of the registered class (the cell class itself if none is).
    package func dequeueReusableCell(withIdentifier identifier: String) -> Cell {
        if let cell = reusePool[identifier]?.popLast() {
            cell.prepareForReuse()
            return cell
        }
        return (registeredClasses[identifier] ?? Cell.self).init(reuseIdentifier: identifier)
    }

    /// The rows on screen at an offset.
    package func visibleRange(at offset: Double) -> ClosedRange<Int>? {
        GestureTimeline.visibleRows(
            at: offset, rowHeight: rowHeight, viewport: viewportHeight, rowCount: numberOfRows)
    }

    /// The rows with some part between `top` and `bottom` (points from the top of the content), top to
    /// bottom.
    package func rows(from top: Double, to bottom: Double, _ delegate: some TableRowsDelegate<Controller>)
        -> [Int]
    {
        reloadIfNeeded(delegate)
        let top = max(0, top)
        guard bottom > top,
            let rows = GestureTimeline.visibleRows(
                at: top, rowHeight: rowHeight, viewport: bottom - top, rowCount: numberOfRows)
        else { return [] }
        return Array(rows)
    }

    /// Gives these rows new cells, where they are on screen, in row order.
    package func reload(rows: [Int], _ delegate: some TableRowsDelegate<Controller>) {
        for row in Set(rows).sorted() {
            guard let old = visibleCells[row] else { continue }
            visibleCells[row] = nil
            delegate.didEndDisplaying(old, row: row)
            enqueueForReuse(old)
            visibleCells[row] = delegate.cell(forRow: row)
        }
    }

    /// Moves the content to `offset` clamped to the edges, and tells the delegate if it moved; the rows
    /// follow at the next layout.
    package func scroll(to offset: Double, _ delegate: some TableRowsDelegate<Controller>) {
        reloadIfNeeded(delegate)
        let maxOffset = max(0, Double(numberOfRows) * rowHeight - viewportHeight)
        let clamped = min(max(0, offset), maxOffset)
        guard clamped != contentOffset else { return }
        lastScrollDirection = clamped > contentOffset ? 1 : -1
        contentOffset = clamped
        delegate.didScroll()
    }

    /// Lays out the rows for the current offset: cells leave, new rows get cells, prefetch calls go out.
    /// Does nothing when the rows already match, or while a layout is under way.
    package func layoutIfNeeded(_ delegate: some TableRowsDelegate<Controller>) {
        guard !isLayingOut else { return }
        isLayingOut = true
        defer { isLayingOut = false }
        reloadIfNeeded(delegate)
        let range = visibleRange(at: contentOffset)
        for row in visibleCells.keys.sorted() where !(range?.contains(row) ?? false) {
            removeCell(row: row, delegate)
        }
        if let range {
            for row in range where visibleCells[row] == nil {
                visibleCells[row] = delegate.cell(forRow: row)
            }
        }
        if range != reportedRange {
            reportedRange = range
            if let range { delegate.visibleRowsChanged(to: range) }
            updatePrefetching(visible: range, delegate)
        }
    }

    private func reloadIfNeeded(_ delegate: some TableRowsDelegate<Controller>) {
        guard needsReload else { return }
        needsReload = false
        numberOfRows = delegate.numberOfRows()
        for row in visibleCells.keys.sorted() { removeCell(row: row, delegate) }
    }

    private func removeCell(row: Int, _ delegate: some TableRowsDelegate<Controller>) {
        guard let cell = visibleCells.removeValue(forKey: row) else { return }
        delegate.didEndDisplaying(cell, row: row)
        enqueueForReuse(cell)
    }

    private func enqueueForReuse(_ cell: Cell) {
        reusePool[cell.reuseIdentifier, default: []].append(cell)
    }

    /// Tells the delegate which rows are coming up in the scroll direction, and which no longer are.
    private func updatePrefetching(visible: ClosedRange<Int>?, _ delegate: some TableRowsDelegate<Controller>)
    {
        let (added, cancelled) = prefetchWindow.update(
            visible: visible, distance: prefetchDistance, downward: lastScrollDirection > 0,
            rowCount: numberOfRows)
        if !cancelled.isEmpty { delegate.cancelPrefetching(rows: cancelled) }
        if !added.isEmpty { delegate.prefetch(rows: added) }
    }
}
