import Foundation
import Shared
import TestSupport
import Testing

@testable import Imaging
@testable import Scenarios

/// Scenario drags that change direction.
extension InputTests {
    @Test("A drag through several rows parses into one gesture with its legs in order")
    func dragThroughParsesOneGesture() throws {
        let scenario = try ScenarioParser.parse(
            "rows 50\ndrag to row 14 then row 3 then row 9 over 3s\n", name: "scrub",
            source: "scrub.scenario"
        )
        #expect(scenario.actions == [.dragThrough(rows: [14, 3, 9], microseconds: 3_000_000)])
    }

    @Test("A drag through rows names the line when a leg is missing its row or its duration")
    func dragThroughNamesTheLine() throws {
        for text in ["rows 50\ndrag to row 14 then 3 over 3s\n", "rows 50\ndrag to row 14 then row 3\n"] {
            #expect(throws: ScenarioError.self) {
                try ScenarioParser.parse(text, name: "scrub", source: "scrub.scenario")
            }
            let error = try? ScenarioParser.parse(text, name: "scrub", source: "scrub.scenario")
            #expect(error == nil)
        }
    }

    @Test("The finger passes through every leg of the path at equal time steps")
    func fingerPassesEveryLeg() throws {
        let timeline = GestureTimeline(
            actions: [.dragThrough(rows: [10, 2], microseconds: 2_000_000)], rows: 100, rowHeight: 100,
            viewport: 500)
        let gesture = timeline.gestures[0]
        #expect(gesture.offset(at: 0) == 0)
        #expect(gesture.offset(at: 500_000) == 500)
        #expect(gesture.offset(at: 1_000_000) == 1000)
        #expect(gesture.offset(at: 1_500_000) == 600)
        #expect(gesture.offset(at: 2_000_000) == 200)
        #expect(timeline.restOffsets == [0, 200])
    }

}
