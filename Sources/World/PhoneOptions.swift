import Foundation

/// How a phone is set up for a run, beyond the scenario.
package struct PhoneOptions: Sendable {
    /// The folder holding the phone's disk; nil makes a fresh temporary one, removed after the run.
    package var diskRoot: URL?
    /// A folder of PNG files to serve instead of generated posters.
    package var postersDirectory: URL?
    package var costs = CostModel()
    /// Whether to keep the trace events (needed for `--trace` and pictures).
    package var keepsTrace = true
    /// Whether to keep a snapshot of the screen, pixels included, at every stop, when it filled or when the
    /// user left it unfilled (for `--screens` and `--export`). The snapshots grow with the script, so the
    /// command line keeps them only when an output needs them; without them a run's memory stays flat
    /// however long it plays.
    package var keepsStopSnapshots = true
    /// Called when the app first seals a disk entry (`Disk.seal`), once a run: how the command line warns
    /// that a kept disk's entries cannot be trusted across runs, only for a step that has a disk cache.
    package var onFirstSeal: (@Sendable () -> Void)?

    /// The defaults: a temporary disk, generated posters, default costs, trace kept.
    package init() {}
}

/// The virtual cost of the work the phone does: what each call blocks its thread for, in microseconds.
///
/// Figures are in the range of a mid-range phone, chosen so the lessons show clearly; teachers can change
/// them and watch every metric move.
package struct CostModel: Sendable, Equatable {
    /// Decoding, per pixel (a 180×270 poster: about 3.9 ms).
    package var decodeNanosecondsPerPixel: Int64 = 80
    /// The sepia filter, per pixel (a 180×270 poster: about 5.8 ms).
    package var filterNanosecondsPerPixel: Int64 = 120
    /// A failed decode still reads the bytes: per byte.
    package var failedDecodeNanosecondsPerByte: Int64 = 20
    /// Fixed cost of one disk read.
    package var diskReadBase: Int64 = 200
    /// Disk read throughput, bytes per microsecond (200 MB/s).
    package var diskReadBytesPerMicrosecond: Int64 = 200
    /// Fixed cost of one disk write.
    package var diskWriteBase: Int64 = 500
    /// Disk write throughput, bytes per microsecond (100 MB/s).
    package var diskWriteBytesPerMicrosecond: Int64 = 100
    /// One frame's layout and commit on the main thread.
    package var frameBase: Int64 = 600
    /// Dequeuing and configuring one cell.
    package var cellForRow: Int64 = 250
    /// Running one block from the main queue (the hop itself).
    package var mainQueueBlock: Int64 = 30
    /// Reloading rows (on top of the cells it asks for).
    package var reloadRows: Int64 = 100
    /// Delivering one scroll-delegate callback.
    package var delegateCallback: Int64 = 20

    /// The costs the workbook measures with (the values above).
    package init() {}

    func decode(pixels: Int) -> Int64 { Int64(pixels) * decodeNanosecondsPerPixel / 1000 }
    func failedDecode(bytes: Int) -> Int64 { Int64(bytes) * failedDecodeNanosecondsPerByte / 1000 }
    func filter(pixels: Int) -> Int64 { Int64(pixels) * filterNanosecondsPerPixel / 1000 }
    func diskRead(bytes: Int) -> Int64 { diskReadBase + Int64(bytes) / max(1, diskReadBytesPerMicrosecond) }
    func diskWrite(bytes: Int) -> Int64 {
        diskWriteBase + Int64(bytes) / max(1, diskWriteBytesPerMicrosecond)
    }
}
