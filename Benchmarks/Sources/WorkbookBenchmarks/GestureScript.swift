import Shared

/// Long scenarios built in code for the simulator's growth curve: a user browsing at reading pace with
/// an occasional fling, for a given number of minutes over a catalog of a given size.
enum GestureScript {
    /// One cycle of the script, about 13 virtual seconds: four reading-pace drags of three rows, each
    /// followed by a pause to read, then a fling forty rows on and a look. Near the end of the catalog
    /// the fling goes back to the top instead.
    static let cycleSeconds = 4 * (0.8 + 1.5) + 2.5 + 1.5

    /// A scenario of `rows` catalog rows and about `minutes` minutes of gestures (default network and
    /// screen, seed 7).
    static func scenario(rows: Int, minutes: Double) -> Scenario {
        var scenario = Scenario(name: "growth-\(rows)-rows-\(minutes)-min", source: "GestureScript")
        scenario.rows = rows
        scenario.seed = 7
        var actions: [ScenarioAction] = [.wait(microseconds: 1_000_000)]
        let cycles = max(1, Int((minutes * 60 / cycleSeconds).rounded()))
        var top = 0
        for _ in 0..<cycles {
            for _ in 0..<4 {
                top += 3
                actions.append(.drag(toRow: top, microseconds: 800_000))
                actions.append(.wait(microseconds: 1_500_000))
            }
            top = top + 40 < rows - 10 ? top + 40 : 0
            actions.append(.fling(toRow: top))
            actions.append(.wait(microseconds: 1_500_000))
        }
        scenario.actions = actions
        return scenario
    }
}
