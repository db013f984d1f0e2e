/// A row's address in the table: UIKit's `IndexPath` for a one-section table.
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The row number, from 0.
    public let row: Int
    /// The section (always 0 in the workbook's tables).
    public let section: Int

    /// Makes an index path.
    public init(row: Int, section: Int) {
        self.row = row
        self.section = section
    }

    public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    public var description: String { "[\(section), \(row)]" }
}
