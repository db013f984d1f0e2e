import Shared
import Testing

/// The phone's screen audit: stops, what each row shows, and the snapshots kept of them.
extension WorldTests {
    /// A wait, a drag to row 10 and a wait: two stops (the launch screen and the rest after the drag).
    static let auditScenario = testScenario(
        "audit", rows: 40,
        actions: [
            .wait(microseconds: 500_000), .drag(toRow: 10, microseconds: 300_000),
            .wait(microseconds: 500_000),
        ])

    @Test(
        "Rows that only ever show placeholders leave every stop unfilled, each kept as a snapshot of placeholders"
    )
    func placeholdersLeaveStopsUnfilled() throws {
        let result = try play(Self.auditScenario) { ScriptApp(log: Log()) }
        #expect(result.metrics.stopsUnfilled == 2)
        #expect(result.metrics.timesToVisibleMicroseconds.count == 2)
        #expect(result.stops.count == 2)
        for stop in result.stops {
            #expect(stop.isUnfilled)
            #expect(!stop.rows.isEmpty && stop.rows.allSatisfy { $0.shows == "placeholder" })
        }
        #expect(result.trace.contains { if case .stopUnfilled = $0.kind { true } else { false } })
        #expect(result.finalScreen.rows.first?.row == 10)
    }

    @Test("Rows that show their final content at once fill every stop, on a frame at or after the stop began")
    func finalContentFillsStops() throws {
        let result = try play(Self.auditScenario) {
            let app = ScriptApp(log: Log())
            app.onCell = { _, cell, _ in cell.imageView.image = .failed }
            return app
        }
        #expect(result.metrics.stopsUnfilled == 0)
        #expect(result.stops.count == 2)
        #expect(result.stops.allSatisfy { !$0.isUnfilled && $0.rows.allSatisfy { $0.shows == "failed" } })
        var filled = 0
        for event in result.trace {
            guard case .stopFilled(let micros, let start) = event.kind else { continue }
            filled += 1
            #expect(micros >= 0 && event.time == start + micros)
        }
        #expect(filled == 2)
        #expect(result.metrics.wrongImageEvents == 0)
    }

}
