/// The rows a table's prefetch callbacks name: up to a distance of rows past the visible ones, in the
/// direction the table last moved. Kept from one layout to the next, it says which rows to announce
/// (`prefetchRowsAt`) and which to withdraw (`cancelPrefetchingForRowsAt`) when the visible rows change.
package struct PrefetchWindow: Sendable {
    /// The rows announced and not yet withdrawn.
    private var announced: Set<Int> = []

    package init() {}

    /// The window `distance` rows past these visible rows (0 is no prefetching), moving down
    /// (`downward`) or up, in a table of `rowCount` rows: the rows newly in it, and the rows that left it
    /// without coming on screen, each in row order.
    package mutating func update(visible: ClosedRange<Int>?, distance: Int, downward: Bool, rowCount: Int)
        -> (added: [Int], cancelled: [Int])
    {
        guard let visible, distance > 0 else { return ([], []) }
        var wanted: Set<Int> = []
        if downward {
            let end = min(rowCount - 1, visible.upperBound + distance)
            if visible.upperBound < end { wanted.formUnion((visible.upperBound + 1)...end) }
        } else {
            let start = max(0, visible.lowerBound - distance)
            if start < visible.lowerBound { wanted.formUnion(start...(visible.lowerBound - 1)) }
        }
        let cancelled = announced.subtracting(wanted).subtracting(visible).sorted()
        let added = wanted.subtracting(announced).sorted()
        announced = wanted
        return (added, cancelled)
    }
}
