import Shared

/// `Compare --sweep N --picture FILE`: for each family of generated scenarios, a panel with each step's
/// median grey row-seconds beyond the limit (up) against its median waste beyond the bound (right),
/// from step 3 on, and the plan's: the price in bytes of every second a row is spared grey.
enum SweepPicture {
    static let panelWidth = 300.0
    static let panelHeight = 230.0
    static let columns = 3
    /// The plot's margins inside a panel: left, top, right, bottom.
    static let margin = (left: 46.0, top: 28.0, right: 16.0, bottom: 40.0)

    /// The picture as SVG text.
    static func svg(_ distances: Sweep.Distances, steps: [String], cases: Int) -> String {
        let shown = steps.filter { (stepNumber($0) ?? 0) >= 3 } + ["plan"]
        let families = ScenarioSweep.families
        let rows = (families.count + columns - 1) / columns
        let width = panelWidth * Double(columns)
        let height = panelHeight * Double(rows) + 24
        var lines = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(text(width))\" height=\"\(text(height))\" "
                + "viewBox=\"0 0 \(text(width)) \(text(height))\" font-family=\"sans-serif\" font-size=\"11\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            "<text x=\"8\" y=\"16\" font-size=\"13\">The sweep's \(cases) cases by family: median grey row-s beyond "
                + "the limit (up) against median waste KB beyond the bound (right)</text>",
        ]
        for (index, family) in families.enumerated() {
            let numbers = (0..<cases).filter { $0 % families.count == index }
            let points = shown.map { step -> (String, Double, Double) in
                let grey = median(distances[step]?[Sweep.measures[0].key], numbers)
                let waste = median(distances[step]?[Sweep.measures[1].key], numbers)
                return (label(step), max(0, waste), max(0, grey))
            }
            let left = panelWidth * Double(index % columns)
            let top = 24 + panelHeight * Double(index / columns)
            lines += panel(family, points: points, left: left, top: top, cases: numbers.count)
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One family's panel: axes from 0 to a round maximum, a dot and a label per step.
    private static func panel(
        _ family: String, points: [(String, Double, Double)], left: Double, top: Double, cases: Int
    ) -> [String] {
        let plot = (
            x: left + margin.left, y: top + margin.top,
            width: panelWidth - margin.left - margin.right, height: panelHeight - margin.top - margin.bottom
        )
        let maxX = roundUp(points.map(\.1).max() ?? 0)
        let maxY = roundUp(points.map(\.2).max() ?? 0)
        var lines = [
            "<text x=\"\(text(plot.x))\" y=\"\(text(top + 16))\" font-weight=\"bold\">\(family) "
                + "(\(cases) cases)</text>",
            "<rect x=\"\(text(plot.x))\" y=\"\(text(plot.y))\" width=\"\(text(plot.width))\" "
                + "height=\"\(text(plot.height))\" fill=\"none\" stroke=\"#999\"/>",
            "<text x=\"\(text(plot.x - 4))\" y=\"\(text(plot.y + 8))\" text-anchor=\"end\">\(Int(maxY))</text>",
            "<text x=\"\(text(plot.x - 4))\" y=\"\(text(plot.y + plot.height))\" text-anchor=\"end\">0</text>",
            "<text x=\"\(text(plot.x + plot.width))\" y=\"\(text(plot.y + plot.height + 14))\" "
                + "text-anchor=\"end\">\(Int(maxX)) KB</text>",
            "<text x=\"\(text(plot.x))\" y=\"\(text(plot.y + plot.height + 14))\">0</text>",
            "<text x=\"\(text(plot.x + plot.width / 2))\" y=\"\(text(plot.y + plot.height + 30))\" "
                + "text-anchor=\"middle\">waste KB</text>",
        ]
        // Steps at the same point share one dot, labelled with every name.
        var merged: [(String, Double, Double)] = []
        for point in points {
            if let index = merged.firstIndex(where: {
                text($0.1) == text(point.1) && text($0.2) == text(point.2)
            }) {
                merged[index].0 += ", \(point.0)"
            } else {
                merged.append(point)
            }
        }
        for (name, waste, grey) in merged {
            let x = plot.x + plot.width * waste / maxX
            let y = plot.y + plot.height - plot.height * grey / maxY
            let colour = name.contains("plan") ? "#c0392b" : "#2c3e50"
            lines.append(
                "<circle cx=\"\(text(x))\" cy=\"\(text(y))\" r=\"4\" fill=\"\(colour)\">"
                    + "<title>\(name): \(text(grey)) grey row-s, \(text(waste)) KB wasted</title></circle>")
            lines.append(
                "<text x=\"\(text(x + 6))\" y=\"\(text(y - 5))\" fill=\"\(colour)\">\(name)</text>")
        }
        return lines
    }

    /// `Step6ImagePipeline` is drawn as `6`, the plan as `plan`.
    private static func label(_ step: String) -> String {
        stepNumber(step).map(String.init) ?? step
    }

    /// The lower middle of a step's distances on some cases; 0 when there are none.
    private static func median(_ values: [Int: Double]?, _ numbers: [Int]) -> Double {
        Sweep.median(numbers.compactMap { values?[$0] }.sorted()) ?? 0
    }

    /// A round number at or above `value` for an axis's end (1, 2 or 5 times a power of ten).
    static func roundUp(_ value: Double) -> Double {
        var scale = 1.0
        while scale * 10 < value { scale *= 10 }
        for step in [1.0, 2, 5, 10] where step * scale >= value { return step * scale }
        return 10 * scale
    }

    /// The number after `Step` in a step's name, if any.
    private static func stepNumber(_ name: String) -> Int? {
        guard name.hasPrefix("Step") else { return nil }
        return Int(name.dropFirst(4).prefix { $0.isASCII && $0.isNumber })
    }

    private static func text(_ value: Double) -> String {
        MetricValue.ratio(value).formatted
    }
}
