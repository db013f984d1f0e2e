/// Inflates zlib streams (RFC 1950) holding DEFLATE data (RFC 1951): stored, fixed-Huffman and
/// dynamic-Huffman blocks, with the Adler-32 checksum verified.
///
/// The caller names the most bytes the stream may inflate to; the limit is enforced while
/// inflating, so a decompression bomb is refused before memory past the limit is touched.
/// Huffman codes are decoded through a 1024-entry lookup table indexed by the next ten bits,
/// with a canonical-code walk only for the rare codes longer than ten bits. The hot loops work
/// on raw pointers so that debug builds stay fast.
package enum Inflater {
    /// Inflates a whole zlib stream; bytes after its Adler-32 checksum are ignored.
    ///
    /// `initialCapacity` is the room reserved up front (for example the exact size a PNG header
    /// implies); without it the room starts small and grows, never past `maximumOutputSize`.
    package static func inflate(
        _ input: [UInt8], maximumOutputSize: Int, initialCapacity: Int? = nil
    ) throws(PNGError.ZlibProblem) -> [UInt8] {
        let result: Result<[UInt8], PNGError.ZlibProblem> = input.withUnsafeBufferPointer { buffer in
            do throws(PNGError.ZlibProblem) {
                return .success(
                    try inflate(
                        buffer, maximumOutputSize: maximumOutputSize, initialCapacity: initialCapacity))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Inflates a whole zlib stream held in a buffer; bytes after its Adler-32 checksum are ignored.
    static func inflate(
        _ input: UnsafeBufferPointer<UInt8>, maximumOutputSize: Int, initialCapacity: Int? = nil
    ) throws(PNGError.ZlibProblem) -> [UInt8] {
        try inflate(input, maximumOutputSize: maximumOutputSize, initialCapacity: initialCapacity) {
            Array($0)
        }
    }

    /// Inflates a whole zlib stream held in a buffer and hands the inflated bytes to `body`, without
    /// copying them into an array first; the bytes live only while `body` runs.
    static func inflate<Result>(
        _ input: UnsafeBufferPointer<UInt8>, maximumOutputSize: Int, initialCapacity: Int? = nil,
        _ body: (UnsafeMutableBufferPointer<UInt8>) -> Result
    ) throws(PNGError.ZlibProblem) -> Result {
        let limit = max(0, maximumOutputSize)
        // Start with room for what the input could plausibly make; grow (up to the limit) on demand.
        let plausible = input.count > limit / 8 ? limit : max(input.count &* 8, 1024)
        let capacity = min(limit, max(0, initialCapacity ?? plausible))
        var state = OutputBuffer(capacity: capacity, limit: limit)
        defer { state.storage.deallocate() }
        let tables = HuffmanTables()
        defer { tables.deallocate() }
        try inflate(input, into: &state, tables: tables)
        return body(UnsafeMutableBufferPointer(start: state.storage, count: state.count))
    }

    /// Bytes an output buffer handed to `inflate(_:into:capacity:)` must hold past its capacity (see
    /// `OutputBuffer.slack`).
    static var outputSlack: Int { OutputBuffer.slack }

    /// Inflates a whole zlib stream into memory the caller owns, `capacity` bytes at most (more throws
    /// `tooMuchData`); `output` must have room for `capacity + outputSlack` bytes, the slack being
    /// scratch. Returns how many bytes the stream inflated to.
    static func inflate(
        _ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>, capacity: Int
    ) throws(PNGError.ZlibProblem) -> Int {
        var state = OutputBuffer(borrowing: output, capacity: max(0, capacity))
        let tables = HuffmanTables()
        defer { tables.deallocate() }
        try inflate(input, into: &state, tables: tables)
        return state.count
    }

    /// The growing output of one inflation.
    private struct OutputBuffer {
        /// The bytes written so far, followed by uninitialised room.
        var storage: UnsafeMutablePointer<UInt8>
        /// How many bytes `storage` holds room for.
        var capacity: Int
        /// How many bytes have been written.
        var count = 0
        /// The most bytes the output may ever hold.
        let limit: Int

        /// Bytes allocated past `capacity`, so that a match copy may write whole 8-byte words and run
        /// up to 7 bytes past its end (bytes that are never counted as output).
        static let slack = 8

        /// Allocates the first stretch of room.
        init(capacity: Int, limit: Int) {
            self.storage = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + Self.slack)
            self.capacity = capacity
            self.limit = limit
        }

        /// Uses memory the caller owns and frees, of `capacity + slack` bytes; it never grows, as its
        /// capacity is its limit.
        init(borrowing storage: UnsafeMutablePointer<UInt8>, capacity: Int) {
            self.storage = storage
            self.capacity = capacity
            self.limit = capacity
        }

        /// Makes room for `needed` more bytes, or throws if that would pass the limit.
        mutating func reserve(_ needed: Int) throws(PNGError.ZlibProblem) {
            let required = count &+ needed
            if required <= capacity { return }
            if required > limit { throw .tooMuchData(limit: limit) }
            let grown = min(limit, max(required, capacity > limit / 2 ? limit : capacity &* 2))
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown + Self.slack)
            bigger.update(from: storage, count: count)
            storage.deallocate()
            storage = bigger
            capacity = grown
        }
    }

    /// Scratch memory for the Huffman tables and the DEFLATE constant tables, allocated once a stream.
    private struct HuffmanTables {
        /// Bits looked up at once in the fast tables.
        static let fastBits = 10
        /// Entries in one fast table.
        static let fastSize = 1 << fastBits

        /// Literal/length fast table: `symbol << 4 | length`, or 0 when the code is longer than `fastBits`.
        let literalFast: UnsafeMutablePointer<UInt16>
        /// Distance fast table, laid out like `literalFast`.
        let distanceFast: UnsafeMutablePointer<UInt16>
        /// Number of literal/length codes of each length 0–15.
        let literalCounts: UnsafeMutablePointer<UInt16>
        /// Number of distance codes of each length 0–15.
        let distanceCounts: UnsafeMutablePointer<UInt16>
        /// Literal/length symbols in canonical order.
        let literalSymbols: UnsafeMutablePointer<UInt16>
        /// Distance symbols in canonical order.
        let distanceSymbols: UnsafeMutablePointer<UInt16>
        /// Working space for building a table: 16 offsets, then 16 next codes.
        let scratch: UnsafeMutablePointer<Int>
        /// Code lengths read from a dynamic block header (literal/length then distance).
        let lengths: UnsafeMutablePointer<UInt8>
        /// Base lengths of length symbols 257–285, then base distances of distance symbols 0–29.
        let bases: UnsafeMutablePointer<Int>
        /// Extra bits of length symbols 257–285, then of distance symbols 0–29.
        let extraBits: UnsafeMutablePointer<Int>

        /// Allocates the tables and fills in the constant ones.
        init() {
            literalFast = .allocate(capacity: Self.fastSize)
            distanceFast = .allocate(capacity: Self.fastSize)
            literalCounts = .allocate(capacity: 16)
            distanceCounts = .allocate(capacity: 16)
            literalSymbols = .allocate(capacity: 288)
            distanceSymbols = .allocate(capacity: 32)
            scratch = .allocate(capacity: 32)
            scratch.initialize(repeating: 0, count: 32)
            literalFast.initialize(repeating: 0, count: Self.fastSize)
            distanceFast.initialize(repeating: 0, count: Self.fastSize)
            literalCounts.initialize(repeating: 0, count: 16)
            distanceCounts.initialize(repeating: 0, count: 16)
            literalSymbols.initialize(repeating: 0, count: 288)
            distanceSymbols.initialize(repeating: 0, count: 32)
            lengths = .allocate(capacity: 320)
            lengths.initialize(repeating: 0, count: 320)
            bases = .allocate(capacity: 59)
            extraBits = .allocate(capacity: 59)
            for index in 0..<29 {
                bases[index] = DeflateAlphabet.lengthBase[index]
                extraBits[index] = DeflateAlphabet.lengthExtraBits[index]
            }
            for index in 0..<30 {
                bases[29 + index] = DeflateAlphabet.distanceBase[index]
                extraBits[29 + index] = DeflateAlphabet.distanceExtraBits[index]
            }
        }

        /// Frees every table.
        func deallocate() {
            literalFast.deallocate()
            distanceFast.deallocate()
            literalCounts.deallocate()
            distanceCounts.deallocate()
            literalSymbols.deallocate()
            distanceSymbols.deallocate()
            lengths.deallocate()
            scratch.deallocate()
            bases.deallocate()
            extraBits.deallocate()
        }
    }

    /// Builds a canonical Huffman decoding table from code lengths.
    ///
    /// Returns 0 for a complete code, a positive number for an incomplete one and a negative
    /// number for an over-subscribed one (which is always an error).
    private static func buildTable(
        lengths: UnsafePointer<UInt8>, count: Int, fast: UnsafeMutablePointer<UInt16>,
        counts: UnsafeMutablePointer<UInt16>, symbols: UnsafeMutablePointer<UInt16>,
        scratch: UnsafeMutablePointer<Int>
    ) -> Int {
        counts.update(repeating: 0, count: 16)
        var symbol = 0
        while symbol < count {
            let length = Int(lengths[symbol])
            counts[length] &+= 1
            symbol += 1
        }
        var left = 1
        var length = 1
        while length <= 15 {
            left = (left &<< 1) - Int(counts[length])
            if left < 0 { return left }
            length += 1
        }
        // Offsets of each length's first symbol in canonical order, and each length's next code.
        let offset = scratch
        let nextCode = scratch + 16
        offset[1] = 0
        var code = 0
        length = 1
        while length <= 15 {
            if length < 15 { offset[length + 1] = offset[length] + Int(counts[length]) }
            let shorter = length == 1 ? 0 : Int(counts[length - 1])
            code = (code + shorter) &<< 1
            nextCode[length] = code
            length += 1
        }
        fast.update(repeating: 0, count: HuffmanTables.fastSize)
        symbol = 0
        while symbol < count {
            let length = Int(lengths[symbol])
            if length != 0 {
                symbols[offset[length]] = UInt16(symbol)
                offset[length] += 1
                let code = nextCode[length]
                nextCode[length] = code + 1
                if length <= HuffmanTables.fastBits {
                    // DEFLATE sends codes most-significant bit first; the table is indexed by
                    // the bits as they arrive, so reverse the code.
                    var reversed = 0
                    var bit = 0
                    while bit < length {
                        reversed = (reversed &<< 1) | ((code &>> bit) & 1)
                        bit += 1
                    }
                    let entry = UInt16(symbol &<< 4 | length)
                    let step = 1 &<< length
                    var index = reversed
                    while index < HuffmanTables.fastSize {
                        fast[index] = entry
                        index += step
                    }
                }
            }
            symbol += 1
        }
        return left
    }

    /// Decodes a code longer than the fast table covers by walking the canonical code bit by bit.
    ///
    /// Returns `symbol << 4 | length`, or -1 when the bits are no code of the table.
    private static func decodeSlowly(
        _ bits: Int, counts: UnsafeMutablePointer<UInt16>, symbols: UnsafeMutablePointer<UInt16>
    ) -> Int {
        var code = 0
        var first = 0
        var index = 0
        var length = 1
        while length <= 15 {
            code |= (bits &>> (length - 1)) & 1
            let count = Int(counts[length])
            if code - first < count {
                return Int(symbols[index + code - first]) &<< 4 | length
            }
            index += count
            first = (first + count) &<< 1
            code &<<= 1
            length += 1
        }
        return -1
    }

    /// Runs the zlib header, every DEFLATE block and the checksum into `output`.
    private static func inflate(
        _ input: UnsafeBufferPointer<UInt8>, into output: inout OutputBuffer, tables: HuffmanTables
    ) throws(PNGError.ZlibProblem) {
        guard let source = input.baseAddress, input.count >= 2 else { throw .endedEarly }
        let end = input.count
        let header = Int(source[0]) &<< 8 | Int(source[1])
        guard source[0] & 0x0f == 8, source[0] &>> 4 <= 7, header % 31 == 0, source[1] & 0x20 == 0 else {
            throw .badHeader
        }
        // The read position; it runs past `end` by the zero bytes fed in after the input ran out.
        var position = 2
        // Bits not yet consumed, least significant first; at most 63 so they fit a non-negative Int.
        var bitBuffer = 0
        var bitCount = 0
        var lastBlock = false
        var fixedTablesLoaded = false

        while !lastBlock {
            // Refill, then read the three-bit block header.
            while bitCount <= 55 {
                if position < end { bitBuffer |= Int(source[position]) &<< bitCount }
                position += 1
                bitCount += 8
            }
            if position - end > 0 && (position - end) * 8 > bitCount - 3 { throw .endedEarly }
            lastBlock = bitBuffer & 1 == 1
            let blockType = (bitBuffer &>> 1) & 3
            bitBuffer &>>= 3
            bitCount -= 3

            switch blockType {
            case 0:
                // Stored: skip to a byte boundary, give back the whole bytes still buffered.
                position -= bitCount &>> 3
                bitBuffer = 0
                bitCount = 0
                guard position <= end - 4 else { throw .endedEarly }
                let length = Int(source[position]) | Int(source[position + 1]) &<< 8
                let complement = Int(source[position + 2]) | Int(source[position + 3]) &<< 8
                guard length == complement ^ 0xffff else { throw .badStoredLength }
                position += 4
                guard length <= end - position else { throw .endedEarly }
                try output.reserve(length)
                (output.storage + output.count).update(from: source + position, count: length)
                output.count += length
                position += length
                continue
            case 1:
                if !fixedTablesLoaded {
                    loadFixedTables(tables)
                    fixedTablesLoaded = true
                }
            case 2:
                fixedTablesLoaded = false
                try readDynamicTables(
                    source: source, end: end, position: &position, bitBuffer: &bitBuffer,
                    bitCount: &bitCount, tables: tables)
            default:
                throw .badBlockType
            }
            try inflateCodes(
                source: source, end: end, position: &position, bitBuffer: &bitBuffer, bitCount: &bitCount,
                tables: tables, output: &output)
        }

        // The Adler-32 checksum follows on the next byte boundary, most significant byte first.
        position -= bitCount &>> 3
        guard position <= end - 4 else { throw .endedEarly }
        let expected =
            UInt32(source[position]) &<< 24 | UInt32(source[position + 1]) &<< 16
            | UInt32(source[position + 2]) &<< 8 | UInt32(source[position + 3])
        let actual = Adler32.update(1, UnsafeBufferPointer(start: output.storage, count: output.count))
        guard expected == actual else { throw .adlerMismatch }
    }

    /// Fills the tables with the fixed Huffman codes of block type 1.
    private static func loadFixedTables(_ tables: HuffmanTables) {
        let lengths = tables.lengths
        var symbol = 0
        while symbol < 288 {
            lengths[symbol] = symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8
            symbol += 1
        }
        _ = buildTable(
            lengths: lengths, count: 288, fast: tables.literalFast, counts: tables.literalCounts,
            symbols: tables.literalSymbols, scratch: tables.scratch)
        lengths.update(repeating: 5, count: 30)
        _ = buildTable(
            lengths: lengths, count: 30, fast: tables.distanceFast, counts: tables.distanceCounts,
            symbols: tables.distanceSymbols, scratch: tables.scratch)
    }

    /// Reads a dynamic block's code-length code and code lengths, and builds its two tables.
    private static func readDynamicTables(
        source: UnsafePointer<UInt8>, end: Int, position: inout Int, bitBuffer: inout Int,
        bitCount: inout Int, tables: HuffmanTables
    ) throws(PNGError.ZlibProblem) {
        // Refill enough for the 14 header bits and all 19 three-bit code-length code lengths.
        func refill() throws(PNGError.ZlibProblem) {
            while bitCount <= 55 {
                if position < end { bitBuffer |= Int(source[position]) &<< bitCount }
                position += 1
                bitCount += 8
            }
        }
        func take(_ count: Int) -> Int {
            let value = bitBuffer & ((1 &<< count) - 1)
            bitBuffer &>>= count
            bitCount -= count
            return value
        }
        try refill()
        let literalCount = take(5) + 257
        let distanceCount = take(5) + 1
        let codeLengthCount = take(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw .badHuffmanTable }
        let order = DeflateAlphabet.codeLengthOrder
        let lengths = tables.lengths
        lengths.update(repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            if bitCount < 3 { try refill() }
            lengths[order[index]] = UInt8(take(3))
        }
        // The code-length code goes in the literal tables for now; it must be complete.
        let codeLengthLeft = buildTable(
            lengths: lengths, count: 19, fast: tables.literalFast, counts: tables.literalCounts,
            symbols: tables.literalSymbols, scratch: tables.scratch)
        guard codeLengthLeft == 0 else { throw .badHuffmanTable }

        let total = literalCount + distanceCount
        var index = 0
        while index < total {
            try refill()
            // Code-length codes are at most 7 bits, so the fast table always answers.
            let entry = Int(tables.literalFast[bitBuffer & (HuffmanTables.fastSize - 1)])
            _ = take(entry & 15)
            let symbol = entry &>> 4
            if symbol < 16 {
                lengths[index] = UInt8(symbol)
                index += 1
                continue
            }
            var repeated: UInt8 = 0
            var times: Int
            switch symbol {
            case 16:
                guard index > 0 else { throw .badHuffmanTable }
                repeated = lengths[index - 1]
                times = 3 + take(2)
            case 17:
                times = 3 + take(3)
            default:
                times = 11 + take(7)
            }
            guard times <= total - index else { throw .badHuffmanTable }
            while times > 0 {
                lengths[index] = repeated
                index += 1
                times -= 1
            }
        }
        if position - end > 0 && (position - end) * 8 > bitCount { throw .endedEarly }
        guard lengths[256] != 0 else { throw .badHuffmanTable }

        let literalLeft = buildTable(
            lengths: lengths, count: literalCount, fast: tables.literalFast, counts: tables.literalCounts,
            symbols: tables.literalSymbols, scratch: tables.scratch)
        // An incomplete code is allowed only when it has no codes or one one-bit code (as puff allows).
        if literalLeft < 0
            || (literalLeft > 0
                && literalCount != Int(tables.literalCounts[0]) + Int(tables.literalCounts[1]))
        {
            throw .badHuffmanTable
        }
        let distanceLeft = buildTable(
            lengths: lengths + literalCount, count: distanceCount, fast: tables.distanceFast,
            counts: tables.distanceCounts, symbols: tables.distanceSymbols, scratch: tables.scratch)
        if distanceLeft < 0
            || (distanceLeft > 0
                && distanceCount != Int(tables.distanceCounts[0]) + Int(tables.distanceCounts[1]))
        {
            throw .badHuffmanTable
        }
    }

    /// Decodes one Huffman-coded block's literals and back-references until its end-of-block code.
    ///
    /// Two loops share the work. The fast loop runs while at least 8 input bytes and 258 bytes of output
    /// room remain: it refills the bit buffer with one 8-byte load, decodes up to four literals a refill,
    /// and copies matches eight bytes at a time (into the output buffer's slack). The careful loop does
    /// the rest, a byte at a time, feeding zero bits past the end of the input and growing the output.
    private static func inflateCodes(
        source: UnsafePointer<UInt8>, end: Int, position: inout Int, bitBuffer: inout Int,
        bitCount: inout Int, tables: HuffmanTables, output: inout OutputBuffer
    ) throws(PNGError.ZlibProblem) {
        let fastMask = UInt64(HuffmanTables.fastSize - 1)
        let literalFast = tables.literalFast
        let distanceFast = tables.distanceFast
        let bases = tables.bases
        let extraBits = tables.extraBits
        // Unsigned, so that shifts bring in zeros. The bits at and above `count` may hold the next input
        // bits early (the 8-byte refill loads them); refilling ORs in the same bits again.
        var bits = Bits(buffer: UInt64(truncatingIfNeeded: bitBuffer), count: bitCount)
        var at = position
        var out = output.storage
        var written = output.count
        var capacity = output.capacity
        let rawSource = UnsafeRawPointer(source)

        // The helpers below take the bit buffer as an argument rather than capturing it: a debug build
        // checks every access to a captured variable at run time, which once cost a fifth of the tests.

        /// Decodes the next literal/length symbol: `symbol << 4 | length`, or -1 for no code.
        @inline(__always) func literalEntry(_ bits: Bits) -> Int {
            let entry = Int(literalFast[Int(truncatingIfNeeded: bits.buffer & fastMask)])
            if entry != 0 { return entry }
            return decodeSlowly(bits.peek(15), counts: tables.literalCounts, symbols: tables.literalSymbols)
        }

        /// Decodes a match's length (after its symbol) and distance, and checks the distance against the
        /// bytes written so far.
        @inline(__always) func match(_ symbol: Int, _ bits: inout Bits, written: Int) throws(PNGError
            .ZlibProblem)
            -> (length: Int, distance: Int)
        {
            let lengthIndex = symbol &- 257
            guard lengthIndex < 29 else { throw .badHuffmanTable }
            let lengthExtra = extraBits[lengthIndex]
            let length = bases[lengthIndex] &+ bits.peek(lengthExtra)
            bits.consume(lengthExtra)
            var distanceEntry = Int(distanceFast[Int(truncatingIfNeeded: bits.buffer & fastMask)])
            if distanceEntry == 0 {
                distanceEntry = decodeSlowly(
                    bits.peek(15), counts: tables.distanceCounts, symbols: tables.distanceSymbols)
                if distanceEntry < 0 { throw .badHuffmanTable }
            }
            bits.consume(distanceEntry & 15)
            let distanceSymbol = distanceEntry &>> 4
            guard distanceSymbol < 30 else { throw .badHuffmanTable }
            let distanceExtra = extraBits[29 &+ distanceSymbol]
            let distance = bases[29 &+ distanceSymbol] &+ bits.peek(distanceExtra)
            bits.consume(distanceExtra)
            guard distance <= written else { throw .distanceTooFarBack }
            return (length, distance)
        }

        // The fast loop.
        while end &- at >= 8 && capacity &- written >= 258 {
            // One refill gives at least 56 bits: enough for a match's 48 (15 + 5 + 15 + 13).
            let word = UInt64(littleEndian: rawSource.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            bits.buffer |= word &<< UInt64(bits.count)
            at &+= (63 &- bits.count) &>> 3
            bits.count |= 56

            let entry = literalEntry(bits)
            if entry < 0 { throw .badHuffmanTable }
            bits.consume(entry & 15)
            let symbol = entry &>> 4
            if symbol < 256 {
                out[written] = UInt8(truncatingIfNeeded: symbol)
                written &+= 1
                // At least 41 bits are left: up to three more literals whose codes the fast table
                // holds (at most 10 bits each) fit before the next refill.
                var more = 0
                while more < 3 {
                    let next = Int(literalFast[Int(truncatingIfNeeded: bits.buffer & fastMask)])
                    guard next != 0, next &>> 4 < 256 else { break }
                    bits.consume(next & 15)
                    out[written] = UInt8(truncatingIfNeeded: next &>> 4)
                    written &+= 1
                    more &+= 1
                }
                continue
            }
            if symbol == 256 {
                bitBuffer = bits.remaining
                bitCount = bits.count
                position = at
                output.count = written
                return
            }
            let (length, distance) = try match(symbol, &bits, written: written)
            let target = out + written
            let from = target - distance
            if distance >= 8 {
                // Whole words, each read from bytes written before it; up to 7 bytes land in the slack
                // or where the next symbols will write.
                var index = 0
                let rawTarget = UnsafeMutableRawPointer(target)
                let rawFrom = UnsafeRawPointer(from)
                repeat {
                    rawTarget.storeBytes(
                        of: rawFrom.loadUnaligned(fromByteOffset: index, as: UInt64.self),
                        toByteOffset: index, as: UInt64.self)
                    index &+= 8
                } while index < length
            } else if distance == 1 {
                target.update(repeating: from.pointee, count: length)
            } else {
                // Overlapping copy: each byte may repeat one written moments ago.
                var index = 0
                while index < length {
                    target[index] = from[index]
                    index &+= 1
                }
            }
            written &+= length
        }

        // The careful loop.
        while true {
            // One refill covers the longest symbol: 15 + 5 + 15 + 13 = 48 bits.
            if bits.count < 48 {
                while bits.count <= 55 {
                    if at < end { bits.buffer |= UInt64(source[at]) &<< UInt64(bits.count) }
                    at += 1
                    bits.count += 8
                }
                if at > end && (at - end) * 8 > bits.count {
                    // Bits already consumed came from past the end of the input.
                    throw .endedEarly
                }
            }
            let entry = literalEntry(bits)
            if entry < 0 { throw .badHuffmanTable }
            bits.consume(entry & 15)
            let symbol = entry &>> 4

            if symbol < 256 {
                if written == capacity {
                    output.count = written
                    try output.reserve(1)
                    out = output.storage
                    capacity = output.capacity
                }
                out[written] = UInt8(truncatingIfNeeded: symbol)
                written += 1
                continue
            }
            if symbol == 256 { break }
            let (length, distance) = try match(symbol, &bits, written: written)
            if length > capacity - written {
                output.count = written
                try output.reserve(length)
                out = output.storage
                capacity = output.capacity
            }
            let target = out + written
            let from = target - distance
            if distance >= length {
                target.update(from: from, count: length)
            } else {
                var index = 0
                while index < length {
                    target[index] = from[index]
                    index += 1
                }
            }
            written += length
        }
        if at > end && (at - end) * 8 > bits.count { throw .endedEarly }
        bitBuffer = bits.remaining
        bitCount = bits.count
        position = at
        output.count = written
    }

    /// The bit buffer of `inflateCodes`: bits taken from the input, least significant first.
    private struct Bits {
        /// The bits; at and above `count` it may already hold the next input bits.
        var buffer: UInt64
        /// How many of the low bits are valid.
        var count: Int

        /// The next `length` bits (length < 64), not taken.
        @inline(__always) func peek(_ length: Int) -> Int {
            Int(truncatingIfNeeded: buffer & ((1 &<< UInt64(length)) &- 1))
        }

        /// Takes `length` bits.
        @inline(__always) mutating func consume(_ length: Int) {
            buffer &>>= UInt64(length)
            count &-= length
        }

        /// The valid bits alone, as the callers keep them between blocks.
        var remaining: Int { Int(truncatingIfNeeded: buffer & ((1 &<< UInt64(count)) &- 1)) }
    }
}
