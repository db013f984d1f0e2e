import Foundation

/// Long scenarios for the steps' growth curve: a user browsing at reading pace with an occasional fling,
/// for a given number of minutes over a catalog of a given size, written as scenario files that the step
/// binaries play like any other.
enum GestureScript {
    /// One cycle of the script, about 13 virtual seconds: four reading-pace drags of three rows, each
    /// followed by a pause to read, then a fling forty rows on and a look. Near the end of the catalog
    /// the fling goes back to the top instead (a 1,000-row catalog wraps round several times in 5 minutes).
    static let cycleSeconds = 4 * (0.8 + 1.5) + 2.5 + 1.5

    /// The scenario file's text for `rows` catalog rows and about `minutes` minutes of gestures (default
    /// network and screen, seed 7).
    static func text(rows: Int, minutes: Double) -> String {
        var lines = [
            "# growth: \(rows) rows, about \(minutes) virtual minutes of reading-pace drags and flings",
            "rows \(rows)", "seed 7", "wait 1s",
        ]
        let cycles = max(1, Int((minutes * 60 / cycleSeconds).rounded()))
        var top = 0
        for _ in 0..<cycles {
            for _ in 0..<4 {
                top += 3
                lines.append("drag to row \(top) over 0.8s")
                lines.append("wait 1.5s")
            }
            // The next four drags go 12 rows further and must stay in the catalog.
            top = top + 40 + 12 < rows ? top + 40 : 0
            lines.append("fling to row \(top)")
            lines.append("wait 1.5s")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
