import Shared
import Testing

@testable import World

/// Apple's hitch accounting on its own: late windows inside scroll intervals, never overlapping.
extension WorldTests {
    /// 60 Hz: 16 666⅔ µs.
    var vsync: Int64Fraction { Int64Fraction(numerator: 1_000_000, denominator: 60) }

    @Test("Frames presented one vsync after they were due are not late")
    func oneVsyncLateIsNotLate() {
        var ledger = HitchLedger(vsync: vsync)
        ledger.touchDown(at: 10_000)
        var due = vsync.atOrAfter(10_000)
        for _ in 0..<30 {
            let presented = vsync.add(due, frames: 1)
            let late = ledger.frame(due: due, presented: presented)
            #expect(late == nil)
            due = presented
        }
        let interval = ledger.rest(at: due)
        #expect(interval?.start == 10_000)
        #expect(interval?.end == due)
    }

    @Test("A frame blocked since before the touch-down is late from one vsync after the touch-down")
    func frameBlockedBeforeTouchDown() throws {
        var ledger = HitchLedger(vsync: vsync)
        ledger.touchDown(at: 500_000)
        let frame = ledger.frame(due: 0, presented: vsync.atOrAfter(2_000_000))
        let late = try #require(frame)
        #expect(late.start == vsync.add(vsync.atOrAfter(500_000), frames: 1))
        #expect(late.end == vsync.atOrAfter(2_000_000))
    }

    @Test("Late windows never overlap, so hitch time never exceeds the interval")
    func lateWindowsNeverOverlap() throws {
        var ledger = HitchLedger(vsync: vsync)
        ledger.touchDown(at: 0)
        // Three frames all due at the same old vsync (a main thread that kept missing it).
        var total: Int64 = 0
        var lastEnd: Int64 = 0
        for presented in [vsync.add(0, frames: 5), vsync.add(0, frames: 9), vsync.add(0, frames: 12)] {
            let frame = ledger.frame(due: 0, presented: presented)
            let late = try #require(frame)
            #expect(late.start >= lastEnd)
            total += late.end - late.start
            lastEnd = late.end
        }
        let rest = ledger.rest(at: lastEnd)
        let interval = try #require(rest)
        #expect(total <= interval.end - interval.start)
    }

    @Test("Frames outside a scroll interval are not counted, and a new interval starts after the last")
    func framesOutsideScrollNotCounted() throws {
        var ledger = HitchLedger(vsync: vsync)
        let idle = ledger.frame(due: 0, presented: 1_000_000)
        #expect(idle == nil)
        ledger.touchDown(at: 100_000)
        let firstRest = ledger.rest(at: 300_000)
        let first = try #require(firstRest)
        // A touch-down before the last interval's end begins the next one at that end.
        ledger.touchDown(at: 250_000)
        let secondRest = ledger.rest(at: 400_000)
        let second = try #require(secondRest)
        #expect(second.start == first.end)
    }

}
