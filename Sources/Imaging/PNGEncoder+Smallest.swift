extension PNGEncoder {
    /// How hard `encode(_:effort:)` works for a small file.
    public enum Effort: Sendable {
        /// One pass: the per-row filter heuristic (no filter for a palette) and `Deflater.Settings.standard`.
        case standard
        /// Several candidate filter strategies and a cost-driven deflate parse, the smallest result kept
        /// (`smallestStream`): many times slower than `standard`, for files written once and read often.
        case smallest
    }

    /// The PNG file for a bitmap, in the smallest exact colour type, compressed with the given effort.
    public static func encode(_ bitmap: Bitmap, effort: Effort) -> [UInt8] {
        switch effort {
        case .standard:
            return encode(bitmap)
        case .smallest:
            let layout = smallestLayout(bitmap)
            return file(bitmap, layout: layout, stream: smallestStream(bitmap, layout: layout))
        }
    }

    /// The filter strategies tried for the smallest file: the per-row heuristic and each fixed filter type.
    static let candidateStrategies: [FilterStrategy] = [
        .adaptive, .fixed(0), .fixed(1), .fixed(2), .fixed(3), .fixed(4),
    ]

    /// How many of the filter strategies, the best by their `standard` compressed size, are compressed
    /// again with `Deflater.Settings.optimal`.
    static let strategiesCompressedOptimally = 2

    /// The smallest zlib stream found for the bitmap's scanlines in `layout`: the scanlines of every
    /// filter strategy of `candidateStrategies` are compressed with `Deflater.Settings.standard`, the
    /// best few again with the slower `optimal` settings, and the shortest of all these streams is kept.
    /// (Which strategy wins depends on the image: the per-row heuristic on photographs, no filter on a
    /// palette, where indices are not quantities and differences of them only hide their repeats.)
    static func smallestStream(_ bitmap: Bitmap, layout: Layout) -> [UInt8] {
        var ranked: [(stream: [UInt8], strategy: FilterStrategy)] = candidateStrategies.map { strategy in
            (Deflater.zlibCompress(filteredScanlines(bitmap, layout: layout, strategy: strategy)), strategy)
        }
        // Stable order: the earlier strategy in `candidateStrategies` wins a tie.
        ranked = ranked.enumerated().sorted {
            ($0.element.stream.count, $0.offset) < ($1.element.stream.count, $1.offset)
        }
        .map(\.element)
        var best = ranked[0].stream
        for candidate in ranked.prefix(strategiesCompressedOptimally) {
            let scanlines = filteredScanlines(bitmap, layout: layout, strategy: candidate.strategy)
            let stream = Deflater.zlibCompress(scanlines, settings: .optimal)
            if stream.count < best.count {
                best = stream
            }
        }
        return best
    }
}
