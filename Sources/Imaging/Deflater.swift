/// Compresses bytes with DEFLATE (RFC 1951) inside a zlib wrapper (RFC 1950).
///
/// LZ77 over a window of `Settings.windowSize` bytes (the zlib header always declares 32 KiB, an upper
/// bound that every inflater accepts): a hash of the next three or four bytes leads to a chain of earlier
/// positions with the same hash, walked for at most `maxChainLength` candidates, with one step of lazy
/// matching (a match is held back for one byte in case the next position starts a longer one), as zlib
/// does. Hashing four bytes rather than zlib's three (`Settings.standard`) keeps chance three-byte
/// repeats in noisy image data (which cost about as much as literals) out of the chains; after
/// `literalRunBeforeSkipping` bytes in a row without a match, bytes are passed over unhashed, more the
/// longer the run (as LZ4 does), so noise costs little time. On the workbook's posters `standard` is
/// within a few percent of zlib level 6, usually smaller. `Settings.optimal` replaces the lazy parse by a
/// cost-driven one (`deflateOptimally`).
///
/// Every block of at most `symbolsPerBlock` symbols is written in whichever of the three
/// block types is smallest for it: dynamic Huffman codes built for the block (length-limited
/// to 15 bits, their code lengths sent with the 7-bit code-length code and the 16/17/18
/// run-length codes), the fixed codes, or stored bytes.
///
/// The output is a function of the input alone (no randomness, no platform dependence),
/// so the same bytes compress to the same stream everywhere.
enum Deflater {
    /// How hard the match finder works: the window it searches, how many candidates it tries and when it
    /// stops. Every setting gives a valid stream; the output is a function of the input and the settings.
    struct Settings: Sendable {
        /// How many earlier positions with the same hash are tried for each match.
        var maxChainLength: Int
        /// A match at least this long is taken at once, without trying the next position.
        var lazyMatchLimit: Int
        /// A match at least this long ends the chain walk early.
        var niceMatchLength: Int
        /// A held-back match at least this long gets only a quarter of the chain walk at the next byte.
        var goodMatchLength: Int
        /// Matches of the minimum length farther than this are worth less than three literals.
        var farMinimumMatchDistance: Int
        /// After this many bytes in a row without a match, bytes start being passed over unhashed.
        var literalRunBeforeSkipping: Int
        /// The LZ77 window, a power of two: how far back a match may point (less 262 bytes of lookahead).
        var windowSize: Int
        /// Bits of the hash.
        var hashBits: Int
        /// How many of the next bytes the hash reads: 4 or 3 (DEFLATE's shortest match).
        var hashedBytes: Int
        /// Rounds of the cost-driven parse (`deflateOptimally`), or 0 for the lazy parse.
        var parseIterations = 0

        /// The encoder's everyday settings, and the simulated server's: an 8 KiB window (15 rows of a
        /// 180-pixel RGB poster; on such images longer distances mostly find chance repeats that cost as
        /// much as literals, and the smaller tables stay in cache), 16 candidates, a four-byte hash and
        /// skipping over noise. The posters' bytes, and so every download figure, depend on these values.
        static let standard = Settings(
            maxChainLength: 16, lazyMatchLimit: 32, niceMatchLength: 128, goodMatchLength: 8,
            farMinimumMatchDistance: 4096, literalRunBeforeSkipping: 16, windowSize: 8192, hashBits: 13,
            hashedBytes: 4)

        /// The cost-driven parse (`deflateOptimally`) over the whole window, three rounds.
        static let optimal = Settings(
            maxChainLength: 64, lazyMatchLimit: 258, niceMatchLength: 258, goodMatchLength: 258,
            farMinimumMatchDistance: 32768, literalRunBeforeSkipping: Int.max, windowSize: 32768,
            hashBits: 15, hashedBytes: 3, parseIterations: 3)
    }

    /// Symbols (literals and matches) gathered before a block is written.
    static let symbolsPerBlock = 16384

    /// The shortest match DEFLATE can express.
    static let minimumMatchLength = 3
    /// The longest match DEFLATE can express.
    static let maximumMatchLength = 258

    /// Compresses `input` into a complete zlib stream: header, DEFLATE blocks, Adler-32.
    static func zlibCompress(_ input: [UInt8], settings: Settings = .standard) -> [UInt8] {
        var writer = BitWriter(capacity: input.count + input.count / 64 + 64)
        // CMF 0x78: deflate with a 32 KiB window. FLG 0x9C: default level, no dictionary,
        // and the check bits that make (CMF * 256 + FLG) a multiple of 31.
        writer.writeByteAligned(0x78)
        writer.writeByteAligned(0x9C)
        input.withUnsafeBufferPointer { buffer in
            if settings.parseIterations > 0 {
                deflateOptimally(buffer, settings: settings, into: &writer)
            } else {
                deflate(buffer, settings: settings, into: &writer)
            }
        }
        let adler = Adler32.checksum(input)
        writer.alignToByte()
        writer.writeByteAligned(UInt8(adler >> 24))
        writer.writeByteAligned(UInt8((adler >> 16) & 0xff))
        writer.writeByteAligned(UInt8((adler >> 8) & 0xff))
        writer.writeByteAligned(UInt8(adler & 0xff))
        return writer.finish()
    }

    /// Writes the raw DEFLATE blocks for `input` (no zlib header or trailer).
    ///
    /// One flat loop with no calls per byte: debug builds run this code too, and there every
    /// call, generic helper and static-property access costs more than the work itself.
    static func deflate(
        _ input: UnsafeBufferPointer<UInt8>, settings: Settings = .standard, into writer: inout BitWriter
    ) {
        let count = input.count
        let block = BlockEncoder()
        defer { block.release() }
        guard count > 0, let data = input.baseAddress else {
            block.write(symbolCount: 0, data: nil, start: 0, end: 0, isFinal: true, into: &writer)
            return
        }
        let chains = HashChains(settings: settings)
        defer { chains.release() }
        let head = chains.head
        let previous = chains.previous
        let hashMask = chains.hashMask
        let hashShift = chains.hashShift
        let keyMask = chains.keyMask
        let windowMask = chains.windowMask
        let multiplier = HashChains.multiplier
        let symbols = block.symbols
        let literalFrequencies = block.literalLengthFrequencies
        let distanceFrequencies = block.distanceFrequencies
        let lengthCodes = block.lengthCodes
        let distanceCodes = block.distanceCodes
        let matchFlag = BlockEncoder.matchFlag
        let chainLimit = settings.maxChainLength
        let lazyLimit = settings.lazyMatchLimit
        let goodLength = settings.goodMatchLength
        let niceLength = settings.niceMatchLength
        let farDistance = settings.farMinimumMatchDistance
        // Candidates farther back than this are not tried, so chain links (reused every window) are never stale.
        let maxDistance = settings.windowSize - 262
        let maxMatch = maximumMatchLength
        let blockLimit = symbolsPerBlock
        let skipAfter = settings.literalRunBeforeSkipping
        let lastHashable = count - 4

        var symbolCount = 0
        var blockStart = 0
        var position = 0
        var literalPending = false
        var heldLength = 0
        var heldDistance = 0
        var misses = 0
        // The four bytes at `keyPosition`, big-endian, rolled forward one byte at a time.
        var key = 0
        var keyPosition = -2
        while position < count {
            var currentLength = 0
            var currentDistance = 0
            if position <= lastHashable {
                if keyPosition == position - 1 {
                    key = (key << 8 | Int(data[position + 3])) & 0xffff_ffff
                } else {
                    key =
                        Int(data[position]) << 24 | Int(data[position + 1]) << 16 | Int(data[position + 2])
                        << 8
                        | Int(data[position + 3])
                }
                keyPosition = position
                let hash = ((key & keyMask) &* multiplier) >> hashShift & hashMask
                var candidate = Int(head[hash])
                previous[position & windowMask] = Int32(candidate)
                head[hash] = Int32(position)
                if heldLength < lazyLimit {
                    // Walk the hash chain for the longest match that beats the held one.
                    let remaining = count - position
                    let maxLength = remaining < maxMatch ? remaining : maxMatch
                    var bestLength = heldLength > 2 ? heldLength : 2
                    let oldest = position > maxDistance ? position - maxDistance : 0
                    var chain = heldLength >= goodLength ? chainLimit >> 2 : chainLimit
                    let here = data + position
                    let nice = niceLength < maxLength ? niceLength : maxLength
                    while candidate >= oldest && chain > 0 && bestLength < maxLength {
                        let there = data + candidate
                        if there[bestLength] == here[bestLength] && there[0] == here[0] && there[1] == here[1]
                        {
                            var length = 2
                            while length < maxLength && there[length] == here[length] {
                                length += 1
                            }
                            if length > bestLength {
                                bestLength = length
                                currentDistance = position - candidate
                                currentLength = length
                                if length >= nice {
                                    break
                                }
                            }
                        }
                        candidate = Int(previous[candidate & windowMask])
                        chain -= 1
                    }
                    if currentLength == 3 && currentDistance > farDistance {
                        currentLength = 0
                    }
                }
            }
            if heldLength >= 3 && currentLength <= heldLength {
                // The match found at the previous byte is at least as good: take it.
                symbols[symbolCount] = matchFlag | UInt32(heldLength - 3) << 16 | UInt32(heldDistance - 1)
                symbolCount += 1
                literalFrequencies[257 + Int(lengthCodes[heldLength - 3])] += 1
                distanceFrequencies[Int(distanceCodes[heldDistance - 1])] += 1
                let end = position - 1 + heldLength
                var insert = position + 1
                let insertEnd = end <= lastHashable ? end : lastHashable + 1
                while insert < insertEnd {
                    // `key` holds the bytes at insert - 1 (the previous position or insertion).
                    key = (key << 8 | Int(data[insert + 3])) & 0xffff_ffff
                    keyPosition = insert
                    let hash = ((key & keyMask) &* multiplier) >> hashShift & hashMask
                    previous[insert & windowMask] = head[hash]
                    head[hash] = Int32(insert)
                    insert += 1
                }
                position = end
                literalPending = false
                heldLength = 0
                misses = 0
            } else {
                if literalPending {
                    let literal = data[position - 1]
                    symbols[symbolCount] = UInt32(literal)
                    symbolCount += 1
                    literalFrequencies[Int(literal)] += 1
                }
                literalPending = true
                heldLength = currentLength
                heldDistance = currentDistance
                position += 1
                if currentLength == 0 {
                    misses += 1
                    if misses > skipAfter {
                        // Long stretch without repeats (noise): pass over a few bytes as literals
                        // without hashing them, more the longer the stretch, as LZ4 does.
                        var skip = (misses - skipAfter) >> 3
                        if skip > count - position {
                            skip = count - position
                        }
                        let room = blockLimit - symbolCount - 1
                        if skip > room {
                            skip = room > 0 ? room : 0
                        }
                        var skipped = position - 1
                        let skipEnd = position + skip
                        while skipped < skipEnd {
                            let literal = data[skipped]
                            symbols[symbolCount] = UInt32(literal)
                            symbolCount += 1
                            literalFrequencies[Int(literal)] += 1
                            skipped += 1
                        }
                        literalPending = false
                        position = skipEnd
                    }
                } else {
                    misses = 0
                }
            }
            if symbolCount >= blockLimit {
                // The pending literal (if any) belongs to the next block.
                let blockEnd = literalPending ? position - 1 : position
                block.write(
                    symbolCount: symbolCount, data: data, start: blockStart, end: blockEnd, isFinal: false,
                    into: &writer)
                symbolCount = 0
                blockStart = blockEnd
            }
        }
        if literalPending {
            let literal = data[count - 1]
            symbols[symbolCount] = UInt32(literal)
            symbolCount += 1
            literalFrequencies[Int(literal)] += 1
        }
        block.write(
            symbolCount: symbolCount, data: data, start: blockStart, end: count, isFinal: true, into: &writer)
    }
}
