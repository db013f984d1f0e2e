extension Deflater {
    /// Gathers one block's literals and matches and writes the block in its cheapest form.
    ///
    /// Owns manually allocated tables (fast in debug builds, where array accessors are slow);
    /// `release()` frees them and must be the last call.
    struct BlockEncoder {
        /// Literal/length alphabet size: 256 literals, end of block, 29 length codes (and 2 unused).
        static let literalLengthSymbols = 286
        /// Distance alphabet size.
        static let distanceSymbols = 30
        /// The end-of-block symbol.
        static let endOfBlock = 256
        /// A symbol-buffer entry with this bit set is a match: (length - 3) << 16 | (distance - 1).
        static let matchFlag: UInt32 = 0x8000_0000

        /// Length code index (0...28) for each match length minus 3.
        static let lengthCodeOfLength: [UInt8] = {
            var table = [UInt8](repeating: 0, count: 256)
            for code in 0..<28 {
                let first = DeflateAlphabet.lengthBase[code]
                for length in first..<first + (1 << DeflateAlphabet.lengthExtraBits[code]) where length <= 257
                {
                    table[length - 3] = UInt8(code)
                }
            }
            table[258 - 3] = 28
            return table
        }()

        /// Distance code (0...29) for each distance minus 1.
        static let distanceCodeOfDistance: [UInt8] = {
            var table = [UInt8](repeating: 0, count: 32768)
            for code in 0..<30 {
                let first = DeflateAlphabet.distanceBase[code]
                for distance in first..<first + (1 << DeflateAlphabet.distanceExtraBits[code]) {
                    table[distance - 1] = UInt8(code)
                }
            }
            return table
        }()

        /// The block's symbols, literals as their byte, matches tagged with `matchFlag`.
        let symbols: UnsafeMutablePointer<UInt32>
        /// How often each literal/length symbol occurs in the block.
        let literalLengthFrequencies: UnsafeMutablePointer<Int>
        /// How often each distance symbol occurs in the block.
        let distanceFrequencies: UnsafeMutablePointer<Int>
        /// A private copy of `lengthCodeOfLength`.
        let lengthCodes: UnsafeMutablePointer<UInt8>
        /// A private copy of `distanceCodeOfDistance`.
        let distanceCodes: UnsafeMutablePointer<UInt8>

        /// Starts an empty block with room for `capacity` symbols.
        init(capacity: Int = Deflater.symbolsPerBlock) {
            symbols = .allocate(capacity: capacity + 2)
            literalLengthFrequencies = .allocate(capacity: Self.literalLengthSymbols)
            literalLengthFrequencies.initialize(repeating: 0, count: Self.literalLengthSymbols)
            distanceFrequencies = .allocate(capacity: Self.distanceSymbols)
            distanceFrequencies.initialize(repeating: 0, count: Self.distanceSymbols)
            let lengthCodes = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
            Self.lengthCodeOfLength.withUnsafeBufferPointer {
                lengthCodes.initialize(from: $0.baseAddress!, count: 256)
            }
            self.lengthCodes = lengthCodes
            let distanceCodes = UnsafeMutablePointer<UInt8>.allocate(capacity: 32768)
            Self.distanceCodeOfDistance.withUnsafeBufferPointer {
                distanceCodes.initialize(from: $0.baseAddress!, count: 32768)
            }
            self.distanceCodes = distanceCodes
        }

        /// Frees the tables; the encoder is not used afterwards.
        func release() {
            symbols.deallocate()
            literalLengthFrequencies.deallocate()
            distanceFrequencies.deallocate()
            lengthCodes.deallocate()
            distanceCodes.deallocate()
        }

        /// Writes the gathered symbols, which spell `data[start..<end]`, as one block (or a run of
        /// stored blocks) in the cheapest of the three forms, then empties the block.
        func write(
            symbolCount: Int, data: UnsafePointer<UInt8>?, start: Int, end: Int, isFinal: Bool,
            into writer: inout BitWriter
        ) {
            literalLengthFrequencies[Self.endOfBlock] = 1
            let literalFrequencies = Array(
                UnsafeBufferPointer(start: literalLengthFrequencies, count: Self.literalLengthSymbols))
            let distanceFrequencies = Array(
                UnsafeBufferPointer(start: self.distanceFrequencies, count: Self.distanceSymbols))

            let dynamic = DynamicHeader(
                literalFrequencies: literalFrequencies, distanceFrequencies: distanceFrequencies)
            let fixedLiteralLengths = Self.fixedLiteralLengths
            let fixedDistanceLengths = [UInt8](repeating: 5, count: Self.distanceSymbols)
            let dynamicBits =
                dynamic.headerBitCount
                + Self.payloadBitCount(
                    literalFrequencies, distanceFrequencies, dynamic.literalLengths, dynamic.distanceLengths)
            let fixedBits =
                3
                + Self.payloadBitCount(
                    literalFrequencies, distanceFrequencies, fixedLiteralLengths, fixedDistanceLengths)
            let storedLength = end - start
            let storedPieces = max(1, (storedLength + 65534) / 65535)
            let storedBits = storedLength * 8 + storedPieces * (3 + 7 + 32)

            if storedBits < dynamicBits && storedBits < fixedBits, let data {
                writeStored(data + start, count: storedLength, isFinal: isFinal, into: &writer)
            } else if fixedBits <= dynamicBits {
                writer.reserve(fixedBits / 8 + 8)
                writer.write(isFinal ? 1 : 0, count: 1)
                writer.write(1, count: 2)
                writeSymbols(
                    symbolCount: symbolCount, literalLengths: fixedLiteralLengths,
                    distanceLengths: fixedDistanceLengths, into: &writer)
            } else {
                writer.reserve(dynamicBits / 8 + 8)
                writer.write(isFinal ? 1 : 0, count: 1)
                writer.write(2, count: 2)
                dynamic.write(into: &writer)
                writeSymbols(
                    symbolCount: symbolCount, literalLengths: dynamic.literalLengths,
                    distanceLengths: dynamic.distanceLengths, into: &writer)
            }
            literalLengthFrequencies.update(repeating: 0, count: Self.literalLengthSymbols)
            self.distanceFrequencies.update(repeating: 0, count: Self.distanceSymbols)
        }

        /// The code lengths of the fixed literal/length code (RFC 1951 §3.2.6), 288 symbols.
        static let fixedLiteralLengths: [UInt8] =
            [UInt8](repeating: 8, count: 144) + [UInt8](repeating: 9, count: 112)
            + [UInt8](repeating: 7, count: 24) + [UInt8](repeating: 8, count: 8)

        /// The bits the block's symbols take with these codes (headers not included).
        static func payloadBitCount(
            _ literalFrequencies: [Int], _ distanceFrequencies: [Int], _ literalLengths: [UInt8],
            _ distanceLengths: [UInt8]
        ) -> Int {
            var bits = 0
            for symbol in 0..<literalFrequencies.count {
                bits += literalFrequencies[symbol] * Int(literalLengths[symbol])
            }
            for code in 0..<29 {
                bits += literalFrequencies[257 + code] * DeflateAlphabet.lengthExtraBits[code]
            }
            for code in 0..<distanceFrequencies.count {
                bits +=
                    distanceFrequencies[code]
                    * (Int(distanceLengths[code]) + DeflateAlphabet.distanceExtraBits[code])
            }
            return bits
        }

        /// Writes `count` bytes as stored blocks of at most 65535 bytes each.
        private func writeStored(
            _ bytes: UnsafePointer<UInt8>, count: Int, isFinal: Bool, into writer: inout BitWriter
        ) {
            var offset = 0
            repeat {
                let pieceLength = min(65535, count - offset)
                let isLastPiece = offset + pieceLength == count
                writer.reserve(pieceLength + 8)
                writer.write(isFinal && isLastPiece ? 1 : 0, count: 1)
                writer.write(0, count: 2)
                writer.alignToByte()
                writer.writeByteAligned(UInt8(pieceLength & 0xff))
                writer.writeByteAligned(UInt8(pieceLength >> 8))
                writer.writeByteAligned(UInt8(~pieceLength & 0xff))
                writer.writeByteAligned(UInt8((~pieceLength >> 8) & 0xff))
                writer.writeBytesAligned(bytes + offset, count: pieceLength)
                offset += pieceLength
            } while offset < count
        }

        /// Writes every gathered symbol and the end-of-block code with the given code lengths.
        private func writeSymbols(
            symbolCount: Int, literalLengths: [UInt8], distanceLengths: [UInt8], into writer: inout BitWriter
        ) {
            let literalCodes = HuffmanCode.reversedCodes(lengths: literalLengths)
            let distanceCodes = HuffmanCode.reversedCodes(lengths: distanceLengths)
            // Flatten each symbol's code and length into one table so the loop below does plain loads.
            let literalTable = UnsafeMutablePointer<UInt32>.allocate(capacity: 286)
            let lengthTable = UnsafeMutablePointer<UInt32>.allocate(capacity: 256)
            let lengthTableBits = UnsafeMutablePointer<Int>.allocate(capacity: 256)
            let distanceTable = UnsafeMutablePointer<UInt32>.allocate(capacity: 30)
            let distanceTableBits = UnsafeMutablePointer<Int>.allocate(capacity: 30)
            let distanceCodeBits = UnsafeMutablePointer<Int>.allocate(capacity: 30)
            let distanceBaseMinus1 = UnsafeMutablePointer<Int>.allocate(capacity: 30)
            let literalTableBits = UnsafeMutablePointer<Int>.allocate(capacity: 286)
            defer {
                literalTable.deallocate()
                literalTableBits.deallocate()
                lengthTable.deallocate()
                lengthTableBits.deallocate()
                distanceTable.deallocate()
                distanceTableBits.deallocate()
                distanceCodeBits.deallocate()
                distanceBaseMinus1.deallocate()
            }
            for symbol in 0..<286 {
                literalTable[symbol] = UInt32(literalCodes[symbol])
                literalTableBits[symbol] = Int(literalLengths[symbol])
            }
            // Per match length: the length code followed by its extra bits.
            for lengthMinus3 in 0..<256 {
                let code = Int(lengthCodes[lengthMinus3])
                let codeBits = Int(literalLengths[257 + code])
                let extra = UInt32(lengthMinus3 + 3 - DeflateAlphabet.lengthBase[code])
                lengthTable[lengthMinus3] = UInt32(literalCodes[257 + code]) | extra << UInt32(codeBits)
                lengthTableBits[lengthMinus3] = codeBits + DeflateAlphabet.lengthExtraBits[code]
            }
            for code in 0..<30 {
                distanceTable[code] = UInt32(distanceCodes[code])
                distanceCodeBits[code] = Int(distanceLengths[code])
                distanceTableBits[code] = Int(distanceLengths[code]) + DeflateAlphabet.distanceExtraBits[code]
                distanceBaseMinus1[code] = DeflateAlphabet.distanceBase[code] - 1
            }
            let distanceCodeOf = self.distanceCodes
            // Bits gather here and go to the writer 32 at a time: far fewer calls than one per code.
            var pending: UInt64 = 0
            var pendingCount: UInt64 = 0
            for index in 0..<symbolCount {
                let symbol = symbols[index]
                if symbol & Self.matchFlag == 0 {
                    let literal = Int(symbol)
                    pending |= UInt64(literalTable[literal]) &<< pendingCount
                    pendingCount += UInt64(literalTableBits[literal])
                } else {
                    let lengthMinus3 = Int((symbol >> 16) & 0xff)
                    pending |= UInt64(lengthTable[lengthMinus3]) &<< pendingCount
                    pendingCount += UInt64(lengthTableBits[lengthMinus3])
                    if pendingCount >= 32 {
                        writer.write(UInt32(pending & 0xffff_ffff), count: 32)
                        pending >>= 32
                        pendingCount -= 32
                    }
                    let distanceMinus1 = Int(symbol & 0xffff)
                    let code = Int(distanceCodeOf[distanceMinus1])
                    let extra = UInt64(distanceMinus1 - distanceBaseMinus1[code])
                    pending |=
                        (UInt64(distanceTable[code]) | extra &<< UInt64(distanceCodeBits[code]))
                        &<< pendingCount
                    pendingCount += UInt64(distanceTableBits[code])
                }
                if pendingCount >= 32 {
                    writer.write(UInt32(pending & 0xffff_ffff), count: 32)
                    pending >>= 32
                    pendingCount -= 32
                }
            }
            writer.write(UInt32(pending), count: Int(pendingCount))
            writer.write(literalTable[Self.endOfBlock], count: literalTableBits[Self.endOfBlock])
        }
    }
}
