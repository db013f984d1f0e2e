/// Whether the text report uses terminal colours.
public enum ColorMode: String, Sendable, Equatable, CaseIterable {
    /// Colour when standard output is a terminal.
    case auto
    /// Always colour, even into a pipe or file.
    case always
    /// Never colour.
    case never
}
