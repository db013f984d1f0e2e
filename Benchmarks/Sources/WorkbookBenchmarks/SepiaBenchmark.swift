import Foundation
import Shared

/// Times `SepiaFilter` at the articles' intensity (0.8) on a photo-like 1920×1080 bitmap, one core.
///
/// The input and the filtered output are written as raw RGBA files so the reference (a numpy version of
/// the same integer formula) can filter the same input and check it agrees pixel for pixel.
struct SepiaBenchmark {
    /// Width of the test bitmap.
    static let width = 1920
    /// Height of the test bitmap.
    static let height = 1080
    /// Timed runs.
    let runs: Int

    /// A deterministic photo-like bitmap: smooth gradients plus seeded noise, alpha varying too.
    static func testBitmap() -> Bitmap {
        var state: UInt64 = 0x5EB1A
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                // SplitMix64 for the noise.
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                z ^= z >> 31
                let offset = (y * width + x) * 4
                let noise = Int(z & 0x1F) - 16
                rgba[offset] = UInt8(clamping: x * 255 / width + noise)
                rgba[offset + 1] = UInt8(clamping: y * 255 / height + noise)
                rgba[offset + 2] = UInt8(clamping: (x + y) * 255 / (width + height) - noise)
                rgba[offset + 3] = UInt8(truncatingIfNeeded: 255 - Int(z >> 60))
            }
        }
        return Bitmap(width: width, height: height, rgba: rgba)
    }

    /// Filters the test bitmap `runs` times, prints the figure, and writes `sepia-input.rgba` and
    /// `sepia-output.rgba` into `directory`.
    func measure(writingInto directory: URL) throws {
        let input = Self.testBitmap()
        let filter = SepiaFilter(intensity: 0.8)
        var output = input
        let seconds = Stopwatch.samples(runs: runs) {
            output = filter.apply(to: input)
        }
        let megapixels = Double(Self.width * Self.height) / 1e6
        FigureWriter.emit(
            "sepia.Mpxps", unit: "Mpx/s", seconds.map { megapixels / $0 },
            note: "\(Self.width)x\(Self.height), intensity 0.8")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(input.rgba).write(to: directory.appendingPathComponent("sepia-input.rgba"))
        try Data(output.rgba).write(to: directory.appendingPathComponent("sepia-output.rgba"))
    }
}
