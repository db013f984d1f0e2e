/// The image libraries' techniques this step adds on top of step 4's ideas, each of which can be turned
/// off to measure what it buys (the walkthrough's ablation table).
struct Techniques: OptionSet, Sendable {
    let rawValue: Int

    /// Decode straight to the cell's pixel size instead of the poster's full size.
    static let decodeAtDisplaySize = Techniques(rawValue: 1 << 0)
    /// One load per URL, shared by every row that wants it, cancelled when the last one gives up.
    static let coalescing = Techniques(rawValue: 1 << 1)
    /// A transient failure is tried again after a growing pause.
    static let retries = Techniques(rawValue: 1 << 2)
    /// Downloaded bytes kept on disk, across launches, within a size limit.
    static let diskCache = Techniques(rawValue: 1 << 3)
    /// The next rows are loaded at low priority while the table is still.
    static let prefetch = Techniques(rawValue: 1 << 4)

    /// A touch-down keeps the prefetch; it is cancelled only when its rows leave the window around the
    /// screen. Measured and left out: on the built-in scenarios it moves more bytes for no shorter wait.
    static let directionAwarePrefetch = Techniques(rawValue: 1 << 5)

    /// What the step uses.
    static let all: Techniques = [.decodeAtDisplaySize, .coalescing, .retries, .diskCache, .prefetch]
}
