import Foundation
import Shared
import Testing

@testable import Step2Background
@testable import Step3IdleOnly
@testable import Step4CacheAndPrefetch
@testable import Step5Concurrency

/// Steps 2 to 5 make a row's record the first time the row is asked for (`RowRecords`): it must then be
/// the one record of that row for the rest of the run, since steps 2 and 3 keep a row's state and poster
/// in it, and show the catalog row's title and URL.
extension StepPartsTests {
    /// Checks one step's records over rows that repeat the catalog, asked for in a scrambled order, twice.
    static func check<Records, Record: AnyObject>(
        _ step: String, make: ([Movie]) -> Records, count: (Records) -> Int, record: (Records, Int) -> Record,
        name: (Record) -> String, url: (Record) -> URL?
    ) throws {
        let rows = try MovieCatalog.bundled().rows(250)
        let records = make(rows)
        #expect(count(records) == rows.count, "\(step)")
        let order = (0..<rows.count).map { ($0 * 97) % rows.count }
        var first: [Int: Record] = [:]
        for row in order { first[row] = record(records, row) }
        for row in order.reversed() {
            let again = record(records, row)
            #expect(again === first[row], "\(step): row \(row) got a second record")
            #expect(name(again) == rows[row].name && url(again) == rows[row].url, "\(step): row \(row)")
        }
        #expect(
            Set(first.values.map(ObjectIdentifier.init)).count == rows.count, "\(step): rows share records")
    }

    @Test("Each row's record is made once and kept, with the catalog row's title and URL, in steps 2 to 5")
    func recordsAreMadeOncePerRow() throws {
        try Self.check(
            "step 2", make: { RowRecords<Step2Background.MovieRecord>($0) }, count: \.count,
            record: { $0[$1] },
            name: \.name, url: \.url)
        try Self.check(
            "step 3", make: { RowRecords<Step3IdleOnly.MovieRecord>($0) }, count: \.count, record: { $0[$1] },
            name: \.name, url: \.url)
        try Self.check(
            "step 4", make: { RowRecords<Step4CacheAndPrefetch.MovieRecord>($0) }, count: \.count,
            record: { $0[$1] },
            name: \.name, url: \.url)
        try Self.check(
            "step 5", make: { RowRecords<Step5Concurrency.MovieRecord>($0) }, count: \.count,
            record: { $0[$1] },
            name: \.name, url: \.url)
    }
}
