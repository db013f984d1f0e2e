/// Packs intervals into a bounded number of rows so that intervals in one row do not overlap.
///
/// Each interval goes to the first row free at its start; when every row is taken and no more rows are
/// allowed, it goes to the row that frees first (and overlaps there).
struct IntervalPacker {
    /// The most rows to use.
    let maximumRows: Int
    /// The room to leave between two intervals in one row.
    let gap: Double
    /// Where each row's last interval ends.
    private(set) var rowEnds: [Double] = []

    /// Makes a packer with no rows yet.
    init(maximumRows: Int, gap: Double) {
        self.maximumRows = max(1, maximumRows)
        self.gap = gap
    }

    /// Places an interval, given in start order, and returns its row.
    mutating func place(start: Double, end: Double) -> Int {
        if let free = rowEnds.firstIndex(where: { $0 + gap <= start }) {
            rowEnds[free] = max(rowEnds[free], end)
            return free
        }
        if rowEnds.count < maximumRows {
            rowEnds.append(end)
            return rowEnds.count - 1
        }
        var earliest = 0
        for index in rowEnds.indices where rowEnds[index] < rowEnds[earliest] {
            earliest = index
        }
        rowEnds[earliest] = max(rowEnds[earliest], end)
        return earliest
    }

    /// How many rows the intervals so far use.
    var rowCount: Int { rowEnds.count }
}
