/// How much a terminal is asked to draw, and when to ask less: a terminal that keeps taking longer than
/// a frame to take a frame steps down one level, each level named in words for the run's report.
public struct TerminalFallback: Sendable, Equatable {
    /// What a frame carries, from the most to the least.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        /// 24-bit colour, every vsync.
        case full
        /// The 256-colour palette: fewer bytes a cell.
        case colors256
        /// 256 colours, every other vsync.
        case halfRate
        /// 256 colours, every other vsync, posters half as wide and high.
        case smallPosters

        public static func < (left: Level, right: Level) -> Bool { left.rawValue < right.rawValue }

        /// What the level gave up, for the report.
        public var explanation: String {
            switch self {
            case .full: "every frame in 24-bit colour"
            case .colors256: "256 colours instead of 24-bit"
            case .halfRate: "every other frame"
            case .smallPosters: "smaller posters"
            }
        }
    }

    /// How many slow writes in a row make the terminal step down.
    public let patience: Int
    public private(set) var level = Level.full
    /// Slow writes since the last write that kept up or the last step down.
    private var slowInARow = 0

    public init(patience: Int = 30) {
        self.patience = max(1, patience)
    }

    /// Records one write: slow when it took longer than the frame it was for. Returns the new level when
    /// the terminal steps down.
    public mutating func record(write: Duration, frame: Duration) -> Level? {
        guard write > frame else {
            slowInARow = 0
            return nil
        }
        slowInARow += 1
        guard slowInARow >= patience, let next = Level(rawValue: level.rawValue + 1) else { return nil }
        slowInARow = 0
        level = next
        return next
    }
}
