import Files
import Foundation
import Imaging
import Report

/// The `--export DIR` files: a PNG of the screen at each stop and at the end, and each poster shown.
///
/// Names are stable and sort in order: `screen-01-stop-1.4s.png` … `screen-end.png`, and
/// `poster-row-007.png` for the filtered poster of row 7 as a cell showed it.
package enum PictureExport {
    /// The files to write, name and PNG bytes, in name order.
    static func files(for result: RunResult) -> [(name: String, png: [UInt8])] {
        var files: [(name: String, png: [UInt8])] = []
        let digits = max(2, String(result.stops.count).count)
        for (index, stop) in result.stops.enumerated() {
            let number = String(repeating: "0", count: digits - String(index + 1).count) + String(index + 1)
            let rest = MetricValue.seconds(stop.stoppedAt ?? stop.time).formatted
            let caption = caption(stop, number: index + 1, of: result.stops.count)
            files.append(
                (
                    "screen-\(number)-stop-\(rest)s.png",
                    PNGEncoder.encode(ScreenRenderer.render(stop, caption: caption))
                ))
        }
        let endCaption = "end: \(MetricValue.seconds(result.finalScreen.time).formatted) s"
        files.append(
            (
                "screen-end.png",
                PNGEncoder.encode(ScreenRenderer.render(result.finalScreen, caption: endCaption))
            ))
        var posters: [Int: Bitmap] = [:]
        for snapshot in result.stops + [result.finalScreen] {
            for row in snapshot.rows where row.shows == "image" && posters[row.row] == nil {
                posters[row.row] = row.bitmap
            }
        }
        for row in posters.keys.sorted() {
            guard let poster = posters[row] else { continue }
            let number = String(row)
            let padded = String(repeating: "0", count: max(0, 3 - number.count)) + number
            files.append(("poster-row-\(padded).png", PNGEncoder.encode(poster)))
        }
        return files.sorted { $0.name < $1.name }
    }

    /// The caption of a stop's picture: how long its rows took to fill, or how long the user watched it
    /// before leaving it unfilled.
    static func caption(_ stop: ScreenSnapshot, number: Int, of count: Int) -> String {
        let wait = stop.stoppedAt.map { MetricValue.milliseconds(stop.time - $0).formatted + " ms" } ?? "?"
        return "stop \(number)/\(count): "
            + (stop.isUnfilled ? "left unfilled after \(wait)" : "\(wait) to fill")
    }

    /// Writes the files into a folder and returns their names.
    @discardableResult
    package static func write(_ result: RunResult, to directory: URL) throws(WorkbookError) -> [String] {
        let files = files(for: result)
        for file in files {
            do {
                try Data(file.png).write(to: directory.appendingPathComponent(file.name))
            } catch {
                throw WorkbookError.badInput("--export: cannot write \(file.name) into \(directory.path)")
            }
        }
        return files.map(\.name)
    }
}
