/// A step's record of one catalog row, made from the row the first time the row is asked for.
public protocol RowRecord: AnyObject {
    init(movie: Movie)
}

/// A list's records, used like an array of them (`movies.count`, `movies[indexPath.row]`), but each made
/// the first time its row is asked for and kept from then on: a catalog of 100,000 rows costs a word a
/// row until a row is shown, where records made up front would keep a title and a parsed URL (about half
/// a kilobyte) for every row.
public final class RowRecords<Record: RowRecord> {
    /// The catalog's rows, as the phone lists them.
    private let rows: [Movie]
    /// The records made so far, by row.
    private var records: [Record?]

    public init(_ rows: [Movie] = []) {
        self.rows = rows
        records = Array(repeating: nil, count: rows.count)
    }

    public var count: Int { rows.count }

    public subscript(row: Int) -> Record {
        if let record = records[row] {
            return record
        }
        let record = Record(movie: rows[row])
        records[row] = record
        return record
    }
}
