extension Deflater {
    /// The codes of one dynamic Huffman block and the header that describes them (RFC 1951 §3.2.7).
    struct DynamicHeader {
        /// Code lengths of the literal/length code (286 symbols, at most 15 bits).
        let literalLengths: [UInt8]
        /// Code lengths of the distance code (30 symbols, at most 15 bits).
        let distanceLengths: [UInt8]
        /// Literal/length code lengths sent: HLIT + 257.
        private let literalCount: Int
        /// Distance code lengths sent: HDIST + 1.
        private let distanceCount: Int
        /// The code lengths run-length coded: each entry is a code-length symbol (0...18) in the
        /// low byte and the value of its extra bits above it.
        private let runs: [Int]
        /// Code lengths of the code-length code (19 symbols, at most 7 bits).
        private let codeLengthLengths: [UInt8]
        /// Code-length code lengths sent, in `DeflateAlphabet.codeLengthOrder`: HCLEN + 4.
        private let codeLengthCount: Int
        /// The bits of the block header: the 3-bit block type, the counts, the code-length
        /// code and the run-length coded code lengths.
        let headerBitCount: Int

        /// Builds the codes for a block with these symbol frequencies.
        init(literalFrequencies: [Int], distanceFrequencies: [Int]) {
            literalLengths = HuffmanCode.lengths(frequencies: literalFrequencies, limit: 15)
            distanceLengths = HuffmanCode.lengths(frequencies: distanceFrequencies, limit: 15)
            var literalCount = 286
            while literalCount > 257 && literalLengths[literalCount - 1] == 0 {
                literalCount -= 1
            }
            var distanceCount = 30
            while distanceCount > 1 && distanceLengths[distanceCount - 1] == 0 {
                distanceCount -= 1
            }
            self.literalCount = literalCount
            self.distanceCount = distanceCount
            let sequence = Array(literalLengths[0..<literalCount]) + Array(distanceLengths[0..<distanceCount])
            let runs = Self.runLengthCode(sequence)
            self.runs = runs

            var codeLengthFrequencies = [Int](repeating: 0, count: 19)
            for run in runs {
                codeLengthFrequencies[run & 0xff] += 1
            }
            let codeLengthLengths = HuffmanCode.lengths(frequencies: codeLengthFrequencies, limit: 7)
            self.codeLengthLengths = codeLengthLengths
            var codeLengthCount = 19
            while codeLengthCount > 4
                && codeLengthLengths[DeflateAlphabet.codeLengthOrder[codeLengthCount - 1]] == 0
            {
                codeLengthCount -= 1
            }
            self.codeLengthCount = codeLengthCount

            var bits = 3 + 5 + 5 + 4 + 3 * codeLengthCount
            for run in runs {
                let symbol = run & 0xff
                bits += Int(codeLengthLengths[symbol]) + Self.extraBits(ofCodeLengthSymbol: symbol)
            }
            headerBitCount = bits
        }

        /// Extra bits after a code-length symbol: 2 after 16, 3 after 17, 7 after 18, else none.
        static func extraBits(ofCodeLengthSymbol symbol: Int) -> Int {
            switch symbol {
            case 16: 2
            case 17: 3
            case 18: 7
            default: 0
            }
        }

        /// Run-length codes a sequence of code lengths: 16 repeats the previous length 3–6
        /// times, 17 gives 3–10 zeros, 18 gives 11–138 zeros; shorter runs are sent as they are.
        static func runLengthCode(_ lengths: [UInt8]) -> [Int] {
            var runs: [Int] = []
            var index = 0
            while index < lengths.count {
                let value = Int(lengths[index])
                var runEnd = index + 1
                while runEnd < lengths.count && Int(lengths[runEnd]) == value {
                    runEnd += 1
                }
                var remaining = runEnd - index
                if value == 0 {
                    while remaining >= 11 {
                        let take = min(remaining, 138)
                        runs.append(18 | (take - 11) << 8)
                        remaining -= take
                    }
                    if remaining >= 3 {
                        runs.append(17 | (remaining - 3) << 8)
                        remaining = 0
                    }
                } else {
                    runs.append(value)
                    remaining -= 1
                    while remaining >= 3 {
                        let take = min(remaining, 6)
                        runs.append(16 | (take - 3) << 8)
                        remaining -= take
                    }
                }
                for _ in 0..<remaining {
                    runs.append(value)
                }
                index = runEnd
            }
            return runs
        }

        /// Writes HLIT, HDIST, HCLEN, the code-length code and the coded code lengths.
        func write(into writer: inout BitWriter) {
            writer.write(UInt32(literalCount - 257), count: 5)
            writer.write(UInt32(distanceCount - 1), count: 5)
            writer.write(UInt32(codeLengthCount - 4), count: 4)
            for position in 0..<codeLengthCount {
                writer.write(UInt32(codeLengthLengths[DeflateAlphabet.codeLengthOrder[position]]), count: 3)
            }
            let codes = HuffmanCode.reversedCodes(lengths: codeLengthLengths)
            for run in runs {
                let symbol = run & 0xff
                writer.write(UInt32(codes[symbol]), count: Int(codeLengthLengths[symbol]))
                let extra = Self.extraBits(ofCodeLengthSymbol: symbol)
                if extra > 0 {
                    writer.write(UInt32(run >> 8), count: extra)
                }
            }
        }
    }
}
