import Foundation
import Shared
import TestSupport
import Testing

@testable import Report
@testable import Scenarios
@testable import World

/// Scrolling on the phone: flings come to rest on their row, drags stop under the finger, edges clamp,
/// and the delegate callbacks and `scroll_state` trace events come in UIKit's order.
extension WorldTests {
    static let rowHeight = 88.0
    static let viewport = 667.0
    static let rows = 200

    /// Plays gestures on a 200-row table and returns the run and the app's log.
    func scroll(_ actions: [ScenarioAction]) throws -> (RunResult, Log) {
        let log = Log()
        let scenario = testScenario("scroll", rows: Self.rows, actions: actions)
        let result = try play(scenario) { ScriptApp(log: log) }
        return (result, log)
    }

    /// The `scroll_state` states in trace order.
    func states(_ result: RunResult) -> [String] {
        result.trace.compactMap { $0.scrollState?.rawValue }
    }

    @Test("A fling down to rows 3, 20, 80 and 150 comes to rest with the target row at the top")
    func flingDownComesToRest() throws {
        for row in [3, 20, 80, 150] {
            let context = Comment(rawValue: "fling to row \(row)")
            let (result, log) = try scroll([.wait(microseconds: 300_000), .fling(toRow: row)])
            let rest = try #require(log.first("didEndDecelerating"), context)
            #expect(abs(rest.value / Self.rowHeight - Double(row)) <= 1, context)
            #expect(log.all("didEndDragging").map(\.value) == [1], context)
            #expect(states(result) == ["dragging", "decelerating", "idle"], context)
            // It really coasted: frames moved it while decelerating, always downwards.
            let coasting = log.all("didScroll decelerating").map(\.value)
            #expect(coasting.count >= 5, context)
            #expect(zip(coasting, coasting.dropFirst()).allSatisfy { $0 <= $1 }, context)
        }
    }

    @Test("A fling up from row 120 to rows 0, 40 and 100 comes to rest with the target row at the top")
    func flingUpComesToRest() throws {
        for row in [0, 40, 100] {
            let context = Comment(rawValue: "fling back to row \(row)")
            let (result, log) = try scroll([
                .wait(microseconds: 300_000), .fling(toRow: 120), .wait(microseconds: 300_000),
                .fling(toRow: row),
            ])
            let rests = log.all("didEndDecelerating").map { $0.value / Self.rowHeight }
            try #require(rests.count == 2, context)
            #expect(abs(rests[0] - 120) <= 1, context)
            #expect(abs(rests[1] - Double(row)) <= 1, context)
            #expect(
                states(result) == [
                    "dragging", "decelerating", "idle", "dragging", "decelerating", "idle",
                ],
                context)
            let willBegin = log.all("willBeginDragging")
            try #require(willBegin.count == 2, context)
            let coastingUp = log.all("didScroll decelerating").filter { $0.time > willBegin[1].time }.map(
                \.value)
            #expect(coastingUp.count >= 5, context)
            #expect(zip(coastingUp, coastingUp.dropFirst()).allSatisfy { $0 >= $1 }, context)
        }
    }

    @Test("A fling past the end stops at the last full screen")
    func flingPastTheEnd() throws {
        let (result, log) = try scroll([.wait(microseconds: 300_000), .fling(toRow: 195)])
        let rest = try #require(log.first("didEndDecelerating"))
        // 200 rows of 88 points in a 667-point viewport: the offset can go no further than 17 600 − 667.
        #expect(rest.value == 200 * 88 - 667)
        let everyOffset = log.notes.filter { $0.text.hasPrefix("didScroll") }.map(\.value)
        #expect(everyOffset.allSatisfy { $0 >= 0 && $0 <= 200 * 88 - 667 })
        let last = try #require(result.events("visible_rows").last)
        #expect(last.number("last") == 199)
        #expect(result.finalScreen.rows.last?.row == 199)
    }

    @Test("A drag ends without deceleration, under the finger, after its duration")
    func dragEndsWithoutDeceleration() throws {
        let (result, log) = try scroll([
            .wait(microseconds: 300_000), .drag(toRow: 12, microseconds: 1_000_000),
        ])
        #expect(log.all("didEndDragging").map(\.value) == [0])
        #expect(log.all("didEndDecelerating").isEmpty)
        #expect(log.all("didScroll decelerating").isEmpty)
        #expect(states(result) == ["dragging", "idle"])
        let begin = try #require(log.first("willBeginDragging"))
        let end = try #require(log.first("didEndDragging"))
        #expect(abs(Double(end.time - begin.time) - 1_000_000) <= framePeriod)
        let offsets = log.all("didScroll").map(\.value)
        #expect(offsets.last == 1_056, "\(offsets.last! - 1_056)")
        // The finger moves steadily: roughly 1056 points over 60 frames.
        #expect(offsets.count >= 55 && offsets.count <= 62)
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $1 - $0 > 10 && $1 - $0 < 30 })
    }

    @Test("While coasting, speed decays by UIKit's 0.998 per millisecond")
    func coastingDecay() throws {
        let (_, log) = try scroll([.wait(microseconds: 300_000), .fling(toRow: 80)])
        let samples = log.all("didScroll decelerating")
        try #require(samples.count > 40)
        // Speeds between consecutive frames, skipping the first and the last frames.
        let inner = Array(samples[1..<(samples.count - 10)])
        var checked = 0
        var offRate: [Double] = []
        for index in 0..<(inner.count - 2) {
            let (a, b, c) = (inner[index], inner[index + 1], inner[index + 2])
            // Points per millisecond.
            let speed1 = (b.value - a.value) / Double(b.time - a.time) * 1000
            let speed2 = (c.value - b.value) / Double(c.time - b.time) * 1000
            guard speed1 > 0.1 else { continue }
            let elapsedMilliseconds = Double(c.time - a.time) / 2 / 1000
            let expectedRatio = pow(0.998, elapsedMilliseconds)
            if abs(speed2 / speed1 - expectedRatio) >= 0.002 { offRate.append(speed2 / speed1) }
            checked += 1
        }
        #expect(checked > 30)
        #expect(offRate.isEmpty, "ratios of consecutive speeds off 0.998^Δt: \(offRate.prefix(5))")
    }

    @Test(
        "The flick velocity (flickVelocity) lands exactly on the target distance, down and up, short and long"
    )
    func flickVelocityLandsOnTarget() throws {
        for distance in [88.0, 1_000, 7_040, -5_000, -264] {
            let context = Comment(rawValue: "a flick of \(distance) points")
            let velocity = ScrollPhysics.flickVelocity(distance: distance)
            #expect((velocity > 0) == (distance > 0), context)
            // The finger moves at that velocity for the 100 ms of contact, then the scroll view coasts.
            let duringContact = velocity * 100
            let coast = coastNumerically(from: velocity)
            #expect(abs(duringContact + coast.distance - distance) < 0.5, context)
            #expect(
                abs(duringContact + ScrollPhysics.coastDistance(velocity: velocity) - distance) < 1e-6,
                context)
            #expect(
                abs(ScrollPhysics.coastMilliseconds(velocity: velocity) - coast.milliseconds) < 0.05,
                context)
        }
    }

    @Test("A timeline turns waits, drags and flings into gestures at the right times and offsets")
    func timelineMakesGestures() throws {
        let timeline = GestureTimeline(
            actions: [
                .wait(microseconds: 2_000_000), .drag(toRow: 6, microseconds: 1_000_000),
                .fling(toRow: 80),
                .memoryWarning, .wait(microseconds: 500_000), .fling(toRow: 500), .relaunch,
            ],
            rows: 200, rowHeight: 88, viewport: 667)
        let gestures = timeline.gestures
        try #require(gestures.count == 3)
        let drag = gestures[0]
        #expect(drag.start == 2_000_000 && drag.release == 3_000_000 && drag.end == 3_000_000)
        #expect(!drag.decelerates)
        #expect(drag.fromOffset == 0 && drag.restOffset == 6 * 88)
        #expect(drag.offset(at: 2_500_000) == 3 * 88)
        let fling = gestures[1]
        #expect(fling.start == 3_000_000 && fling.release == 3_100_000)
        #expect(fling.decelerates)
        #expect(fling.fromOffset == 6 * 88 && fling.restOffset == 80 * 88)
        #expect(fling.offset(at: fling.end) == 80 * 88)
        // Continuous at release: the coast starts where the finger let go, at the finger's speed.
        let justAfter = fling.offset(at: fling.release + 1_000)
        #expect(abs(justAfter - fling.releaseOffset - fling.velocity * 0.999) < 0.01)
        #expect(abs(fling.offset(at: fling.release) - fling.releaseOffset) < 1e-9)
        let coast = coastNumerically(from: fling.velocity)
        #expect(abs(Double(fling.end - fling.release) / 1000 - coast.milliseconds) < 1)
        // The far fling clamps at the last full screen, and starts after the half-second wait.
        let far = gestures[2]
        #expect(far.start == fling.end + 500_000)
        #expect(far.restOffset == 200 * 88 - 667)
        #expect(timeline.systemEvents.map(\.time) == [fling.end, far.end])
        #expect(timeline.systemEvents.map(\.event) == [.memoryWarning, .relaunch])
        // Rows 0, 6, 80, the end (17 600 − 667), 0.
        let restOffsets: [Double] = [0, 528, 7_040, 16_933, 0]
        #expect(timeline.restOffsets == restOffsets)
        #expect(timeline.endTime == far.end)
    }

    @Test("The vsync grid never drifts: 60 Hz boundaries at k·16 666⅔ µs, rounded down")
    func vsyncGridNeverDrifts() throws {
        let sixty = Int64Fraction(numerator: 1_000_000, denominator: 60)
        #expect(sixty.atOrAfter(0) == 0)
        #expect(sixty.atOrAfter(1) == 16_666)
        #expect(sixty.atOrAfter(16_666) == 16_666)
        #expect(sixty.atOrAfter(16_667) == 33_333)
        #expect(sixty.atOrAfter(33_334) == 50_000)
        #expect(sixty.atOrAfter(999_999) == 1_000_000)
        #expect(sixty.atOrAfter(3_600_000_001) == 3_600_016_666)
        #expect(sixty.add(16_666, frames: 1) == 33_333)
        #expect(sixty.add(50_000, frames: 3) == 100_000)
        let hundredTwenty = Int64Fraction(numerator: 1_000_000, denominator: 120)
        #expect(hundredTwenty.atOrAfter(1) == 8_333)
        #expect(hundredTwenty.add(8_333, frames: 2) == 25_000)
    }
}

/// The pure motion maths: gesture timelines and flick velocities.
extension WorldTests {
    /// Coasts numerically from a release velocity (points per ms), decaying by 0.998 per ms until the
    /// speed falls below 0.005 points per ms: the distance travelled and the milliseconds taken.
    func coastNumerically(from velocity: Double) -> (distance: Double, milliseconds: Double) {
        let step = 0.01
        let decayPerStep = pow(0.998, step)
        var speed = abs(velocity)
        var distance = 0.0
        var time = 0.0
        while speed >= 0.005 {
            let next = speed * decayPerStep
            distance += (speed + next) / 2 * step
            speed = next
            time += step
        }
        return (velocity < 0 ? -distance : distance, time)
    }

}
