import Testing

@testable import Scenarios

/// The table's rows, the gesture cursor and the shown pictures on their own, as the simulator and the live
/// package both use them: a controller and a receiver that only write down what they are told.
extension WorldTests {
    final class RowsCell: ReusableCell {
        let reuseIdentifier: String
        private(set) var reuses = 0

        init(reuseIdentifier: String) {
            self.reuseIdentifier = reuseIdentifier
        }

        func prepareForReuse() { reuses += 1 }
    }

    struct RowsIndex: RowIndex {
        let row: Int
        init(row: Int, section: Int) { self.row = row }
    }

    /// A 50-row table's controller that dequeues every cell and writes down what it hears.
    final class RowsController: TableController {
        weak var rows: TableRows<RowsController>?
        private(set) var ended: [Int] = []
        private(set) var prefetched: [[Int]] = []
        private(set) var cancelled: [[Int]] = []
        private(set) var scrolls = 0

        func tableView(_ tableView: Void, numberOfRowsInSection section: Int) -> Int { 50 }
        func tableView(_ tableView: Void, cellForRowAt indexPath: RowsIndex) -> RowsCell {
            rows?.dequeueReusableCell(withIdentifier: "Cell") ?? RowsCell(reuseIdentifier: "Cell")
        }
        func tableView(_ tableView: Void, didEndDisplaying cell: RowsCell, forRowAt indexPath: RowsIndex) {
            ended.append(indexPath.row)
        }
        func tableView(_ tableView: Void, prefetchRowsAt indexPaths: [RowsIndex]) {
            prefetched.append(indexPaths.map(\.row))
        }
        func tableView(_ tableView: Void, cancelPrefetchingForRowsAt indexPaths: [RowsIndex]) {
            cancelled.append(indexPaths.map(\.row))
        }
        func scrollViewDidScroll(_ scrollView: Void) { scrolls += 1 }
    }

    struct RowsCalls: TableRowsDelegate {
        let table: Void = ()
        let controller: RowsController
    }

    @Test("Rows that leave the screen go to the reuse pool, and the rows coming on take them back")
    func tableRowsReuseCells() {
        let rows = TableRows<RowsController>(rowHeight: 100, viewportHeight: 300)
        let controller = RowsController()
        controller.rows = rows
        let calls = RowsCalls(controller: controller)
        rows.layoutIfNeeded(calls)
        let first = Set(rows.visibleCells.values.map(ObjectIdentifier.init))
        #expect(rows.visibleCells.keys.sorted() == [0, 1, 2])
        rows.scroll(to: 300, calls)
        rows.layoutIfNeeded(calls)
        #expect(rows.visibleCells.keys.sorted() == [3, 4, 5])
        #expect(Set(rows.visibleCells.values.map(ObjectIdentifier.init)) == first)
        #expect(rows.visibleCells.values.allSatisfy { $0.reuses == 1 })
        #expect(controller.ended == [0, 1, 2])
        // Five rows past the screen, downward: announced once each, none withdrawn while they stay ahead.
        #expect(controller.prefetched == [[3, 4, 5, 6, 7], [8, 9, 10]])
        #expect(controller.cancelled.isEmpty)
    }

    @Test(
        "A scroll is clamped to the content, and only a move tells the delegate",
        arguments: [
            (10_000.0, 4_700.0), (-5, 0),
        ])
    func tableRowsClampScrolls(to target: Double, offset: Double) {
        let rows = TableRows<RowsController>(rowHeight: 100, viewportHeight: 300)
        let controller = RowsController()
        let calls = RowsCalls(controller: controller)
        rows.scroll(to: 2_000, calls)
        rows.scroll(to: target, calls)
        rows.scroll(to: target, calls)
        #expect(rows.contentOffset == offset)
        #expect(controller.scrolls == 2)
    }

    /// A receiver that writes down each call.
    final class TouchLog: GestureReceiver {
        private(set) var calls: [String] = []
        func touchDown(_ gesture: GestureTimeline.Gesture) { calls.append("down") }
        func scroll(to offset: Double) { calls.append("scroll") }
        func fingerLifted(_ gesture: GestureTimeline.Gesture) { calls.append("lift") }
        func decelerationEnded(_ gesture: GestureTimeline.Gesture) { calls.append("rest") }
        func gestureFinished(_ gesture: GestureTimeline.Gesture) { calls.append("end") }
    }

    @Test(
        "A drag is taken in as touch-down, moves, lift and end; a touch that waits for the next pass stays pending",
        arguments: [false, true])
    func gestureCursorDeliversDrags(nextTouchWaits: Bool) throws {
        let timeline = GestureTimeline(
            actions: [
                .wait(microseconds: 300_000), .drag(toRow: 5, microseconds: 300_000),
                .drag(toRow: 1, microseconds: 300_000),
            ],
            rows: 200, rowHeight: 88, viewport: 667)
        let cursor = GestureCursor(gestures: timeline.gestures)
        cursor.launched(at: 0)
        let first = try #require(timeline.gestures.first)
        let second = try #require(timeline.gestures.last)
        let receiver = TouchLog()
        let midway = (first.start + first.release) / 2
        #expect(!cursor.deliver(now: { midway }, to: receiver, waitsForNextPass: { _ in nextTouchWaits }))
        #expect(receiver.calls == ["down", "scroll"] && cursor.begun)
        let later = second.start + 1
        #expect(cursor.deliver(now: { later }, to: receiver, waitsForNextPass: { _ in nextTouchWaits }))
        let taken = ["down", "scroll", "scroll", "lift", "end"]
        #expect(receiver.calls == taken + (nextTouchWaits ? [] : ["down", "scroll"]))
        #expect(cursor.pendingTouchDown(before: later) == (nextTouchWaits ? second.start : nil))
    }

    @Test("A row newly shows a picture once, again with a new cell, and again after it left the screen")
    func shownPicturesCountEachNewShowing() {
        let poster = ObjectIdentifier(RowsCell.self)
        let placeholder = ObjectIdentifier(RowsIndex.self)
        let screen = [
            ShownPictures.Row(row: 0, picture: placeholder, isPlaceholder: true, isFinal: false),
            ShownPictures.Row(row: 1, picture: poster, isPlaceholder: false, isFinal: true),
        ]
        var shown = ShownPictures()
        let firstLook = shown.look(at: screen)
        #expect(firstLook.placeholders == 1 && !firstLook.allFinal && firstLook.newlyShown == [0, 1])
        #expect(shown.look(at: screen).newlyShown.isEmpty)
        var newCell = screen
        newCell[1].isNewCell = true
        #expect(shown.look(at: newCell).newlyShown == [1])
        let scrolled = shown.look(at: [
            ShownPictures.Row(row: 2, picture: nil, isPlaceholder: true, isFinal: false)
        ])
        #expect(scrolled.newlyShown == [2])
        #expect(shown.look(at: screen).newlyShown == [0, 1])
    }
}
