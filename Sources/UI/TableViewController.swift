import Runtime
import Values

/// A screen that owns a table and answers for it: `UITableViewController`'s look-alike.
///
/// A step's `ListViewController` subclasses it and overrides the data-source, delegate, prefetching and
/// scroll-view methods it needs, exactly as the articles do with UIKit. It must be made on the phone's
/// main thread (the harness does that at launch).
open class TableViewController {
    /// The table this controller answers for.
    public let tableView: TableView
    /// The device the app runs on (the phone: see its `phone`).
    package let host: any UIKitHost

    /// Makes the controller and its table, on the phone's main thread.
    public init() {
        guard let host = SimulatedThread.uiKitHost else {
            preconditionFailure("A TableViewController is made by the phone, on its main thread.")
        }
        self.host = host
        tableView = TableView(host: host)
        tableView.controller = self
    }

    /// Called once after launch, before the first layout.
    open func viewDidLoad() {}

    /// Called on the main thread when the system is short of memory.
    open func didReceiveMemoryWarning() {}

    /// How many rows the table has.
    open func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 0 }

    /// The cell for a row coming on screen (or being reloaded).
    open func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
    }

    /// A row's cell went off screen (or was replaced by a reload).
    open func tableView(
        _ tableView: TableView, didEndDisplaying cell: TableViewCell, forRowAt indexPath: IndexPath
    ) {}

    /// Rows will probably come on screen soon, in the scroll direction.
    open func tableView(_ tableView: TableView, prefetchRowsAt indexPaths: [IndexPath]) {}

    /// Rows earlier announced by `prefetchRowsAt` are no longer expected soon.
    open func tableView(_ tableView: TableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {}

    /// The user's finger started dragging the table.
    open func scrollViewWillBeginDragging(_ scrollView: TableView) {}

    open func scrollViewDidScroll(_ scrollView: TableView) {}

    /// The finger is lifting, moving at `velocity` points per millisecond (0 for a finger that stopped),
    /// and the table will come to rest at `targetContentOffset`, unless a touch catches it first. UIKit
    /// passes the target by pointer, for the delegate to move it; the look-alike passes its value.
    open func scrollViewWillEndDragging(
        _ scrollView: TableView, withVelocity velocity: Double, targetContentOffset: Double
    ) {}

    /// The finger lifted; `decelerate` tells whether the table keeps coasting.
    open func scrollViewDidEndDragging(_ scrollView: TableView, willDecelerate decelerate: Bool) {}

    /// The table came to rest after coasting.
    open func scrollViewDidEndDecelerating(_ scrollView: TableView) {}
}
