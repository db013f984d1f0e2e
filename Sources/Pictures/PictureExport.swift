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
        pictures(for: result).map { ($0.name, $0.encode()) }
    }

    /// The files to write, in name order, each with what encodes it when it is written: so a run holds one
    /// encoded picture at a time, not all of them.
    static func pictures(for result: RunResult) -> [(name: String, encode: () -> [UInt8])] {
        var files: [(name: String, encode: () -> [UInt8])] = []
        let digits = max(2, String(result.stops.count).count)
        for (index, stop) in result.stops.enumerated() {
            let number = String(repeating: "0", count: digits - String(index + 1).count) + String(index + 1)
            let rest = MetricValue.seconds(stop.stoppedAt ?? stop.time).formatted
            let caption = caption(stop, number: index + 1, of: result.stops.count)
            files.append(
                (
                    "screen-\(number)-stop-\(rest)s.png",
                    { PNGEncoder.encode(ScreenRenderer.render(stop, caption: caption)) }
                ))
        }
        let endCaption = "end: \(MetricValue.seconds(result.finalScreen.time).formatted) s"
        let end = result.finalScreen
        files.append(
            ("screen-end.png", { PNGEncoder.encode(ScreenRenderer.render(end, caption: endCaption)) }))
        // The first row that showed each poster: its pixels are made only when its file is written.
        var posters: [Int: ScreenRow] = [:]
        for snapshot in result.stops + [result.finalScreen] {
            for row in snapshot.rows where row.shows == "image" && row.hasPixels && posters[row.row] == nil {
                posters[row.row] = row
            }
        }
        for row in posters.keys.sorted() {
            guard let shown = posters[row] else { continue }
            let number = String(row)
            let padded = String(repeating: "0", count: max(0, 3 - number.count)) + number
            files.append(("poster-row-\(padded).png", { shown.bitmap.map { PNGEncoder.encode($0) } ?? [] }))
        }
        return files.sorted { $0.name < $1.name }
    }

    /// Whether a file name (or the last part of a path) is one an export writes: `screen-….png` or
    /// `poster-row-….png`. An export replaces the earlier export's files of these names in its folder, and
    /// leaves every other file there alone.
    package static func owns(_ path: String) -> Bool {
        let name = URL(fileURLWithPath: path).lastPathComponent
        return name.hasSuffix(".png") && (name.hasPrefix("screen-") || name.hasPrefix("poster-row-"))
    }

    /// The caption of a stop's picture: how long its rows took to fill, or how long the user watched it
    /// before leaving it unfilled.
    static func caption(_ stop: ScreenSnapshot, number: Int, of count: Int) -> String {
        let wait = stop.stoppedAt.map { MetricValue.milliseconds(stop.time - $0).formatted + " ms" } ?? "?"
        return "stop \(number)/\(count): "
            + (stop.isUnfilled ? "left unfilled after \(wait)" : "\(wait) to fill")
    }

    /// Writes the files into a folder and returns their names. The folder then holds this export's
    /// pictures and no earlier export's: each picture is written into a staging folder inside it first, and
    /// only when every one is complete are the earlier export's pictures (`owns`) removed and the new ones
    /// renamed into place. A failure (a full disk) leaves the earlier export as it was and no partial file.
    @discardableResult
    package static func write(_ result: RunResult, to directory: URL) throws(WorkbookError) -> [String] {
        let pictures = pictures(for: result)
        let staging = TemporaryFiles.sibling(of: directory.appendingPathComponent("export"))
        TemporaryFiles.register(staging.path)
        defer {
            _ = TemporaryFiles.unlessInterrupted { try? FileManager.default.removeItem(at: staging) }
            TemporaryFiles.unregister(staging.path)
        }
        let made = TemporaryFiles.unlessInterrupted { mkdir(staging.path, 0o700) == 0 ? 0 : errno } ?? EINTR
        guard made == 0 else {
            throw .badInput(
                "--export: cannot write into \(VisibleText.escaped(directory.path)): "
                    + SystemError.words(made, context: .output))
        }
        for picture in pictures {
            do throws(OutputFile.Failure) {
                let file = try OutputFile(
                    path: staging.appendingPathComponent(picture.name).path, option: "--export")
                try file.commit(picture.encode())
            } catch {
                throw .badInput(
                    "--export: cannot write \(picture.name) into \(VisibleText.escaped(directory.path)): "
                        + "\(error.reason); the folder keeps what it held")
            }
        }
        let names = Set(pictures.map(\.name))
        let earlier = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in earlier where owns(name) && !names.contains(name) {
            _ = TemporaryFiles.unlessInterrupted { unlink(directory.appendingPathComponent(name).path) }
        }
        for picture in pictures {
            let moved =
                TemporaryFiles.unlessInterrupted {
                    rename(
                        staging.appendingPathComponent(picture.name).path,
                        directory.appendingPathComponent(picture.name).path) == 0 ? 0 : errno
                } ?? EINTR
            guard moved == 0 else {
                throw .badInput(
                    "--export: cannot put \(picture.name) into \(VisibleText.escaped(directory.path)): "
                        + SystemError.words(moved, context: .output))
            }
        }
        return pictures.map(\.name)
    }
}
