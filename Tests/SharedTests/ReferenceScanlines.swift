import Shared

@testable import Imaging

/// Test-only: the scanlines PNG filtering must produce, computed plainly and apart from the
/// encoder's fast code, straight from PNG §9 and the minimum-sum-of-absolute-values heuristic.
enum ReferenceScanlines {
    /// The filter-type byte and filtered bytes of every row; `channels` 3 drops alpha.
    static func make(_ bitmap: Bitmap, channels: Int) -> [UInt8] {
        let rowLength = bitmap.width * channels
        var output: [UInt8] = []
        var above = [Int](repeating: 0, count: rowLength)
        for y in 0..<bitmap.height {
            var row: [Int] = []
            for x in 0..<bitmap.width {
                let pixel = bitmap.pixel(x: x, y: y)
                row += [Int(pixel.red), Int(pixel.green), Int(pixel.blue)]
                if channels == 4 {
                    row.append(Int(pixel.alpha))
                }
            }
            var candidates: [[UInt8]] = []
            for filter in 0..<5 {
                var filtered: [UInt8] = []
                for index in 0..<rowLength {
                    let left = index >= channels ? row[index - channels] : 0
                    let up = above[index]
                    let upLeft = index >= channels ? above[index - channels] : 0
                    let prediction: Int
                    switch filter {
                    case 1: prediction = left
                    case 2: prediction = up
                    case 3: prediction = (left + up) / 2
                    case 4: prediction = paeth(left, up, upLeft)
                    default: prediction = 0
                    }
                    filtered.append(UInt8((row[index] - prediction + 256) % 256))
                }
                candidates.append(filtered)
            }
            let costs = candidates.map { bytes in bytes.reduce(0) { $0 + min(Int($1), 256 - Int($1)) } }
            let best = costs.firstIndex(of: costs.min()!)!
            output.append(UInt8(best))
            output += candidates[best]
            above = row
        }
        return output
    }

    /// The Paeth predictor exactly as PNG §9.4 writes it.
    static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a)
        let pb = abs(p - b)
        let pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        if pb <= pc { return b }
        return c
    }
}

extension SeededGenerator {
    /// `count` bytes of test data: the top byte of each next value.
    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next() >> 56) }
    }
}
