/// What each visible row of a table showed at the last look, by the picture's identity (nil inside: no
/// picture), so that a judge of the screen sees which rows newly show something and how the rows stand.
package struct ShownPictures: Sendable {
    /// One visible row as the judge sees it.
    package struct Row {
        package var row: Int
        /// The shown picture's identity, nil for none.
        package var picture: ObjectIdentifier?
        /// Whether the row shows the placeholder (or nothing).
        package var isPlaceholder: Bool
        /// Whether the row shows its final content (a filtered poster, or the failure image).
        package var isFinal: Bool
        /// Whether the row counts as newly shown whatever its picture (a new cell).
        package var isNewCell = false

        package init(
            row: Int, picture: ObjectIdentifier?, isPlaceholder: Bool, isFinal: Bool, isNewCell: Bool = false
        ) {
            self.row = row
            self.picture = picture
            self.isPlaceholder = isPlaceholder
            self.isFinal = isFinal
            self.isNewCell = isNewCell
        }
    }

    private var byRow: [Int: ObjectIdentifier?] = [:]

    package init() {}

    /// Looks at the visible rows, top to bottom, and forgets the rows no longer among them: how many show
    /// the placeholder, whether every one shows its final content, and the rows that newly show a picture
    /// (or a new cell) since the last look, in the order given.
    package mutating func look(at rows: [Row]) -> (placeholders: Int, allFinal: Bool, newlyShown: [Int]) {
        var placeholders = 0
        var allFinal = true
        var newlyShown: [Int] = []
        for row in rows {
            if row.isPlaceholder { placeholders += 1 }
            if !row.isFinal { allFinal = false }
            if row.isNewCell || byRow[row.row] != .some(row.picture) {
                byRow[row.row] = .some(row.picture)
                newlyShown.append(row.row)
            }
        }
        let visible = Set(rows.map(\.row))
        for row in byRow.keys.sorted() where !visible.contains(row) {
            byRow[row] = nil
        }
        return (placeholders, allFinal, newlyShown)
    }
}
