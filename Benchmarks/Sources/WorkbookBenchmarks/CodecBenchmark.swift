import Foundation
import Shared

/// Times the workbook's PNG decoder and encoder on a set of files.
///
/// Every file is read into memory first, so the figures are codec time, not disk time. Decode throughput
/// is given both in megabytes of compressed input per second and in megapixels per second; encode
/// throughput in megapixels per second, with the total output size.
struct CodecBenchmark {
    /// The set's name, used in the figure keys (`decode.<set>.MBps`, …).
    let name: String
    /// The PNG files of the set.
    let files: [URL]
    /// Timed runs per figure (after one warm-up run).
    let runs: Int

    /// Reads every file of the set.
    func readFiles() throws -> [[UInt8]] {
        try files.map { [UInt8](try Data(contentsOf: $0)) }
    }

    /// Decodes the set `runs` times and prints the decode figures.
    func measureDecoding() throws {
        let inputs = try readFiles()
        let bitmaps = try inputs.map { bytes throws(PNGError) in try PNGDecoder.decode(bytes) }
        let inputBytes = Double(inputs.reduce(0) { $0 + $1.count })
        let pixels = Double(bitmaps.reduce(0) { $0 + $1.width * $1.height })
        let seconds = try Stopwatch.samples(runs: runs) {
            for bytes in inputs {
                _ = try PNGDecoder.decode(bytes)
            }
        }
        let note = "\(files.count) files, \(Int(inputBytes)) bytes, \(Int(pixels)) px"
        FigureWriter.emit(
            "decode.\(name).MBps", unit: "MB/s", seconds.map { inputBytes / 1e6 / $0 }, note: note)
        FigureWriter.emit(
            "decode.\(name).Mpxps", unit: "Mpx/s", seconds.map { pixels / 1e6 / $0 }, note: note)
    }

    /// Encodes the decoded bitmaps of the set `runs` times with `PNGEncoder.Effort.smallest` (the
    /// counterpart of Pillow's `optimize=True`) and prints the encode figures, and the size the everyday
    /// `standard` effort gives.
    func measureEncoding() throws {
        let bitmaps = try readFiles().map { bytes throws(PNGError) in try PNGDecoder.decode(bytes) }
        let pixels = Double(bitmaps.reduce(0) { $0 + $1.width * $1.height })
        let outputBytes = Double(bitmaps.reduce(0) { $0 + PNGEncoder.encode($1, effort: .smallest).count })
        let standardBytes = Double(bitmaps.reduce(0) { $0 + PNGEncoder.encode($1).count })
        let seconds = Stopwatch.samples(runs: runs, warmUp: false) {
            for bitmap in bitmaps {
                _ = PNGEncoder.encode(bitmap, effort: .smallest)
            }
        }
        let note = "\(files.count) bitmaps, \(Int(pixels)) px"
        FigureWriter.emit(
            "encode.\(name).Mpxps", unit: "Mpx/s", seconds.map { pixels / 1e6 / $0 }, note: note)
        FigureWriter.emit(
            "encode.\(name).bytes", unit: "bytes", median: outputBytes, minimum: outputBytes,
            maximum: outputBytes, note: note)
        FigureWriter.emit(
            "encode.\(name).standardBytes", unit: "bytes", median: standardBytes, minimum: standardBytes,
            maximum: standardBytes, note: note)
    }
}
