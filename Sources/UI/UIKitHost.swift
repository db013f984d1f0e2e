import Foundation
import Imaging
import Runtime

/// What the look-alike UIKit asks of the device it runs on: the screen, the price of table work, priced
/// picture work and the count of image memory.
///
/// The device is the host of the app's simulated threads (`SimulatedThread.host`), where the runtime's
/// queues find it too, so UI knows nothing of the phone (the phone is the one host that draws a screen).
package protocol UIKitHost: AppHost {
    /// The height of one row, in points.
    var rowHeight: Double { get }
    /// The height of the screen, in points.
    var screenHeight: Double { get }
    /// What making one cell blocks the main thread for, in microseconds.
    var cellForRowCost: Int64 { get }
    /// What a `reloadRows` call blocks the main thread for, in microseconds.
    var reloadRowsCost: Int64 { get }
    /// Counts the image memory the app holds.
    var memory: MemoryTracker { get }
    /// The table changed: late, if a block of a cancelled operation changed it.
    func tableMutated()
    /// The main thread checker: the app called `method` of the table from `thread`, not the main thread.
    func calledOffMainThread(_ method: String, thread: String)
    /// The table laid out a new range of rows on screen.
    func visibleRowsChanged(first: Int, last: Int)
    /// Decodes PNG bytes on the calling thread, charging the cost; nil when they are not a PNG.
    func decode(_ data: Data) -> DecodedPicture?
    /// Decodes PNG bytes to the size that fits `width` × `height`, charging the cost; nil when they are not
    /// a PNG.
    func decode(_ data: Data, fittingPixels width: Int, _ height: Int) -> DecodedPicture?
    /// Charges the sepia filter of a picture of `pixels` pixels on the calling thread (its pixels are made
    /// when asked).
    func filter(pixels: Int, intensity: Double, sourceURL: String?)
}

/// A decoded picture's size, the bytes it came from (which make its pixels when asked), and the download
/// that delivered them.
package typealias DecodedPicture = (width: Int, height: Int, png: PNGBytes, downloadID: Int?)

extension SimulatedThread {
    /// The device whose simulated thread calls this, if it draws a screen.
    static var uiKitHost: (any UIKitHost)? { currentHost(as: (any UIKitHost).self) }
}

/// Counts the bytes of decoded images the app holds (in records, caches and cells) and their peak.
package final class MemoryTracker {
    /// Bytes of decoded images alive now.
    package private(set) var liveBytes = 0
    /// The most bytes alive at any moment since the phone started.
    package private(set) var peakBytes = 0

    package init() {}

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
