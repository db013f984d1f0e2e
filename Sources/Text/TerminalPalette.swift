import Imaging

/// How a terminal is told a cell's colours: 24-bit colour, or the 256-colour palette's 6 × 6 × 6 cube for
/// a terminal that cannot take more.
package enum TerminalPalette: Sendable, Equatable {
    case trueColor, ansi256

    /// The escape sequence that sets the foreground (the upper half of a `▀` cell) to `color`.
    package func foreground(_ color: RGBA) -> String { sequence(38, color) }

    /// The escape sequence that sets the background (the lower half of a `▀` cell) to `color`.
    package func background(_ color: RGBA) -> String { sequence(48, color) }

    private func sequence(_ layer: Int, _ color: RGBA) -> String {
        switch self {
        case .trueColor:
            return "\u{1B}[\(layer);2;\(color.red);\(color.green);\(color.blue)m"
        case .ansi256:
            return "\u{1B}[\(layer);5;\(Self.cubeIndex(color))m"
        }
    }

    /// The index of the cube colour nearest `color` on each channel: 16 + 36 r + 6 g + b, each of r, g
    /// and b one of the cube's six levels (0, 95, 135, 175, 215, 255).
    package static func cubeIndex(_ color: RGBA) -> Int {
        16 + 36 * cubeLevel(color.red) + 6 * cubeLevel(color.green) + cubeLevel(color.blue)
    }

    /// The cube level (0 to 5) nearest a channel's value.
    package static func cubeLevel(_ value: UInt8) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        let channel = Int(value)
        return levels.indices.min { abs(levels[$0] - channel) < abs(levels[$1] - channel) } ?? 0
    }
}
