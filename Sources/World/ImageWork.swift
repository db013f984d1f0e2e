import Foundation
import Imaging
import Posters
import Report
import Runtime
import UI

/// The picture work the app asks of the phone, done on the calling simulated thread and priced there:
/// decodes (full size and display size) and the sepia filter. The real pixel work is memoised across runs
/// on identical input; its virtual cost is charged and traced at every call.
///
/// No call keeps pixels while its thread sleeps for the virtual cost: a decode hands back the picture's
/// size and the bytes that make it again, and a filter makes no pixels at all (the filtered picture's are
/// made when asked, from its recipe). So however many threads decode at once, the process holds at most
/// one picture in the making besides the memo's budget.
final class ImageWork {
    private let costs: CostModel
    private let recorder: Recorder
    /// Bytes the network delivered and no decode has taken yet, with their downloads (oldest first). A
    /// served poster is kept by its URL, not its bytes, so a download never decoded holds no memory.
    private var deliveries: [PNGBytes: [Int]] = [:]

    init(costs: CostModel, recorder: Recorder) {
        self.costs = costs
        self.recorder = recorder
    }

    /// Notes delivered bytes, so the picture decoded from them can be traced to its download.
    func registerDelivery(_ data: Data, download: Int) {
        let png = PNGBytes(data, source: PosterStamp.source(of: [UInt8](data.prefix(4096))))
        deliveries[png, default: []].append(download)
    }

    /// Decodes bytes, charging the cost; nil when they are not a PNG.
    func decode(_ data: Data) -> DecodedPicture? {
        let size = PosterMemo.shared.decode(data).map { (width: $0.width, height: $0.height) }
        return charge(size, decodedFrom: data, cost: size.map { costs.decode(pixels: $0.width * $0.height) })
    }

    /// Decodes bytes at display size, charging a quarter of a full decode per source pixel and a full
    /// decode's cost per output pixel; nil when they are not a PNG.
    func decode(_ data: Data, fittingPixels width: Int, _ height: Int) -> DecodedPicture? {
        guard let full = PosterMemo.shared.decode(data) else {
            return charge(nil, decodedFrom: data, cost: nil)
        }
        let fitted = PosterMemo.shared.fitted(full, toFit: width, height)
        let cost =
            costs.decode(pixels: full.width * full.height) / 4
            + costs.decode(pixels: fitted.width * fitted.height)
        return charge((fitted.width, fitted.height), decodedFrom: data, cost: cost)
    }

    /// Traces a decode of a picture of `size` (nil: it failed) and blocks the calling thread for its cost
    /// (a failed decode's, when `cost` is nil); hands back the size with the bytes and the download that
    /// delivered them.
    private func charge(_ size: (width: Int, height: Int)?, decodedFrom data: Data, cost: Int64?)
        -> DecodedPicture?
    {
        let thread = SimulatedThread.current
        let source = PosterStamp.source(of: [UInt8](data.prefix(4096)))
        let micros = cost ?? costs.failedDecode(bytes: data.count)
        recorder.decoded(url: source, thread: thread?.name ?? "?", micros: micros, succeeded: size != nil)
        if size == nil { traceRefusal(of: data, source: source) }
        thread?.sleep(for: micros)
        guard let size else { return nil }
        let png = PNGBytes(data, source: source)
        return (size.width, size.height, png, takeDelivery(of: png))
    }

    /// Charges the sepia filter of a picture of `pixels` pixels; the filtered pixels are made when asked.
    func filter(pixels: Int, intensity: Double, sourceURL: String?) {
        let thread = SimulatedThread.current
        let cost = costs.filter(pixels: pixels)
        recorder.filtered(url: sourceURL, thread: thread?.name ?? "?", micros: cost)
        thread?.sleep(for: cost)
    }

    /// Traces why bytes that did not decode were refused (`poster_refused`), when it was for their size.
    private func traceRefusal(of data: Data, source: String?) {
        guard let reason = PosterLimits.refusal(of: [UInt8](data.prefix(24))) else { return }
        recorder.event(.posterRefused(url: source, reason: reason))
    }

    /// The download whose bytes these are, taken from those waiting to be decoded (oldest first), if any.
    private func takeDelivery(of png: PNGBytes) -> Int? {
        guard var waiting = deliveries[png], !waiting.isEmpty else { return nil }
        let download = waiting.removeFirst()
        deliveries[png] = waiting.isEmpty ? nil : waiting
        return download
    }
}
