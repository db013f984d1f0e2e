/// Counts the bytes of decoded images the app holds (in records, caches and cells) and their peak.
final class MemoryTracker {
    /// Bytes of decoded images alive now.
    private(set) var liveBytes = 0
    /// The most bytes alive at any moment since the phone started.
    private(set) var peakBytes = 0

    /// An image of `bytes` was made.
    func retain(_ bytes: Int) {
        liveBytes += bytes
        peakBytes = max(peakBytes, liveBytes)
    }

    /// An image of `bytes` went away.
    func release(_ bytes: Int) {
        liveBytes -= bytes
    }
}
