import Imaging

/// What a terminal shows after it is sent some text: each cell's character and colours, read back by a
/// small interpreter of the escape sequences the live table and `tmux capture-pane -e` use (SGR colours
/// in 24 bits, 256 colours or the defaults, reverse video, home, clear to the end of line or screen).
struct TerminalGrid {
    /// A cell's colour: `nil` is the terminal's default.
    struct Cell: Equatable {
        var character: Character = " "
        var foreground: RGBA?
        var background: RGBA?
    }

    private(set) var lines: [[Cell]] = []

    init(_ text: String) {
        var foreground: RGBA?
        var background: RGBA?
        var line = 0
        var column = 0
        var scalars = Array(text.unicodeScalars)[...]
        func put(_ character: Character) {
            while lines.count <= line { lines.append([]) }
            while lines[line].count <= column { lines[line].append(Cell()) }
            lines[line][column] = Cell(character: character, foreground: foreground, background: background)
            column += 1
        }
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\u{1B}":
                guard scalars.first == "[" else { continue }
                scalars.removeFirst()
                var parameters = ""
                while let next = scalars.first, !("@"..."~").contains(next) {
                    parameters.unicodeScalars.append(scalars.removeFirst())
                }
                let command = scalars.popFirst()
                switch command {
                case "m":
                    Self.applySGR(parameters, foreground: &foreground, background: &background)
                case "H":
                    line = 0
                    column = 0
                case "K":
                    if line < lines.count, column < lines[line].count {
                        lines[line].removeSubrange(column...)
                    }
                case "J":
                    if line + 1 < lines.count { lines.removeSubrange((line + 1)...) }
                default: break
                }
            case "\n":
                line += 1
                column = 0
            case "\r":
                column = 0
            default:
                put(Character(scalar))
            }
        }
    }

    /// Applies one `ESC [ … m` sequence's parameters.
    private static func applySGR(_ parameters: String, foreground: inout RGBA?, background: inout RGBA?) {
        var codes = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[
            ...]
        if codes.isEmpty { codes = [0] }
        while let code = codes.popFirst() {
            switch code {
            case 0:
                foreground = nil
                background = nil
            case 39: foreground = nil
            case 49: background = nil
            case 38, 48:
                var color: RGBA?
                if codes.first == 2, codes.count >= 4 {
                    let values = Array(codes.dropFirst().prefix(3))
                    codes.removeFirst(4)
                    color = RGBA(red: UInt8(values[0]), green: UInt8(values[1]), blue: UInt8(values[2]))
                } else if codes.first == 5, codes.count >= 2 {
                    codes.removeFirst()
                    color = cubeColor(codes.removeFirst())
                }
                if code == 38 { foreground = color } else { background = color }
            default: break
            }
        }
    }

    /// The colour of a 256-colour palette index in the 6 × 6 × 6 cube (16 to 231).
    static func cubeColor(_ index: Int) -> RGBA? {
        guard (16...231).contains(index) else { return nil }
        let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
        let cube = index - 16
        return RGBA(red: levels[cube / 36], green: levels[cube / 6 % 6], blue: levels[cube % 6])
    }

    /// The characters of a line, trailing spaces kept.
    func text(ofLine line: Int) -> String {
        line < lines.count ? String(lines[line].map(\.character)) : ""
    }
}
