extension Deflater {
    /// Writes the raw DEFLATE blocks for `input` with a cost-driven parse instead of the lazy one: every
    /// position's matches are found once (hash chains over the window, `settings.maxChainLength`
    /// candidates, each new longest match kept with the nearest distance that reaches it); then, for
    /// `settings.parseIterations` rounds, the cheapest way through the input, literal by literal or match
    /// by match, is found by dynamic programming over a model of each symbol's cost in bits. The first
    /// round prices literals by how often each byte occurs and every match symbol as the rarest there
    /// is, so that only matches that clearly pay are taken; each later round prices symbols by the Huffman
    /// code lengths of those the round before chose, as Zopfli does. (Starting from DEFLATE's fixed codes
    /// instead, which price a literal at 8 or 9 bits, takes chance matches in noisy data that then make
    /// each other look cheap: on a photograph's filtered rows that ends 4 % larger than no matches at all.) The last round's parse is written in blocks of
    /// `symbolsPerBlock` symbols, each in its cheapest form.
    ///
    /// Unlike the lazy parse, a short match that costs more bits than the literals it replaces is not
    /// taken, which is where most of the gain on noisy image data comes from. Many times slower than
    /// `deflate`: for `PNGEncoder.Effort.smallest`.
    static func deflateOptimally(
        _ input: UnsafeBufferPointer<UInt8>, settings: Settings, into writer: inout BitWriter
    ) {
        let count = input.count
        guard count > 0, let data = input.baseAddress else {
            deflate(input, into: &writer)
            return
        }
        let matches = MatchList(data, count: count, settings: settings)
        defer { matches.release() }

        // Per position reached: the cheapest cost so far and the step that got there.
        let cost = UnsafeMutablePointer<Int>.allocate(capacity: count + 1)
        let stepLength = UnsafeMutablePointer<UInt16>.allocate(capacity: count + 1)
        let stepDistance = UnsafeMutablePointer<UInt16>.allocate(capacity: count + 1)
        defer {
            cost.deallocate()
            stepLength.deallocate()
            stepDistance.deallocate()
        }
        var model = CostModel(literalsOf: data, count: count)
        let rounds = max(1, settings.parseIterations)
        for round in 0..<rounds {
            cost.initialize(repeating: Int.max, count: count + 1)
            cost[0] = 0
            for position in 0..<count {
                let here = cost[position]
                let literal = here + model.literal[Int(data[position])]
                if literal < cost[position + 1] {
                    cost[position + 1] = literal
                    stepLength[position + 1] = 1
                }
                var shorter = minimumMatchLength - 1
                for entry in matches.start[position]..<matches.start[position + 1] {
                    let packed = matches.entries[entry]
                    let length = Int(packed >> 16)
                    let distance = Int(packed & 0xffff) + 1
                    let base = here + model.distance[distance - 1]
                    // Every shorter length of the match too, up to `allLengthsUpTo`; past that only the
                    // whole match (in long runs, trying all 258 lengths at every byte is most of the time
                    // and gains next to nothing).
                    var candidate = shorter + 1
                    while candidate <= length {
                        let total = base + model.length[candidate]
                        if total < cost[position + candidate] {
                            cost[position + candidate] = total
                            stepLength[position + candidate] = UInt16(candidate)
                            stepDistance[position + candidate] = UInt16(distance - 1)
                        }
                        let allLengths = candidate < allLengthsUpTo || candidate == length
                        candidate += allLengths ? 1 : length - candidate
                    }
                    shorter = length
                }
            }
            if round + 1 < rounds {
                model = CostModel(counting: data, stepLength, stepDistance, count: count)
            }
        }

        // Walk back from the end for the chosen steps (kept in `cost`, no longer needed).
        var steps = 0
        var position = count
        while position > 0 {
            cost[steps] = position
            steps += 1
            position -= Int(stepLength[position])
        }
        var ends = UnsafeMutableBufferPointer(start: cost, count: steps)
        ends.reverse()
        // The parse written with blocks of each size tried; the smallest stream is kept.
        var best: BitWriter?
        for blockSize in blockSizes {
            var candidate = writer.copy()
            writeBlocks(
                data, ends: UnsafePointer(cost), stepCount: steps, stepDistance: stepDistance,
                symbolsPerBlock: blockSize, into: &candidate)
            if let smallest = best {
                if candidate.bitCount < smallest.bitCount {
                    smallest.release()
                    best = candidate
                } else {
                    candidate.release()
                }
            } else {
                best = candidate
            }
        }
        writer.release()
        writer = best!
    }

    /// The longest match length that the parse tries at every length below a match's own; longer
    /// matches are tried only whole.
    static let allLengthsUpTo = 32

    /// The block lengths, in symbols, that `deflateOptimally` tries.
    static let blockSizes = [4096, 8192, 16384, 32768, 65536]

    /// Writes a parse (each step's end position in `ends`, a match's distance in `stepDistance` at its
    /// end) as blocks of `symbolsPerBlock` symbols.
    private static func writeBlocks(
        _ data: UnsafePointer<UInt8>, ends: UnsafePointer<Int>, stepCount: Int,
        stepDistance: UnsafePointer<UInt16>, symbolsPerBlock: Int, into writer: inout BitWriter
    ) {
        let block = BlockEncoder(capacity: symbolsPerBlock)
        defer { block.release() }
        let symbols = block.symbols
        let literalFrequencies = block.literalLengthFrequencies
        let distanceFrequencies = block.distanceFrequencies
        var symbolCount = 0
        var blockStart = 0
        var position = 0
        for step in 0..<stepCount {
            let end = ends[step]
            let length = end - position
            if length == 1 {
                symbols[symbolCount] = UInt32(data[position])
                literalFrequencies[Int(data[position])] += 1
            } else {
                let distanceMinus1 = Int(stepDistance[end])
                symbols[symbolCount] =
                    BlockEncoder.matchFlag | UInt32(length - 3) << 16 | UInt32(distanceMinus1)
                literalFrequencies[257 + Int(block.lengthCodes[length - 3])] += 1
                distanceFrequencies[Int(block.distanceCodes[distanceMinus1])] += 1
            }
            symbolCount += 1
            position = end
            if symbolCount >= symbolsPerBlock && step + 1 < stepCount {
                block.write(
                    symbolCount: symbolCount, data: data, start: blockStart, end: position, isFinal: false,
                    into: &writer)
                symbolCount = 0
                blockStart = position
            }
        }
        block.write(
            symbolCount: symbolCount, data: data, start: blockStart, end: position, isFinal: true,
            into: &writer)
    }

    /// Every position's useful matches: along the hash chain, each candidate that beats the longest so far,
    /// as `length << 16 | (distance - 1)`, shortest first (and so nearest first).
    struct MatchList {
        /// The matches of position `p` are `entries[start[p]..<start[p + 1]]`.
        let start: UnsafeMutablePointer<Int>
        /// Matches, packed.
        private(set) var entries: UnsafeMutablePointer<UInt32>

        /// Finds the matches of every position.
        init(_ data: UnsafePointer<UInt8>, count: Int, settings: Settings) {
            start = .allocate(capacity: count + 1)
            var capacity = count / 2 + 1024
            entries = .allocate(capacity: capacity)
            var used = 0
            let chains = HashChains(settings: settings)
            defer { chains.release() }
            let head = chains.head
            let previous = chains.previous
            let hashMask = chains.hashMask
            let hashShift = chains.hashShift
            let keyMask = chains.keyMask
            let windowMask = chains.windowMask
            let multiplier = HashChains.multiplier
            let maxDistance = settings.windowSize - 262
            let chainLimit = settings.maxChainLength
            let nice = settings.niceMatchLength
            let farDistance = settings.farMinimumMatchDistance
            let lastHashable = count - 4
            var key = 0
            for position in 0..<count {
                start[position] = used
                guard position <= lastHashable else { continue }
                if position == 0 {
                    key = Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3])
                } else {
                    key = (key << 8 | Int(data[position + 3])) & 0xffff_ffff
                }
                let hash = ((key & keyMask) &* multiplier) >> hashShift & hashMask
                var candidate = Int(head[hash])
                previous[position & windowMask] = Int32(candidate)
                head[hash] = Int32(position)
                let remaining = count - position
                let maxLength = remaining < maximumMatchLength ? remaining : maximumMatchLength
                let oldest = position > maxDistance ? position - maxDistance : 0
                var bestLength = minimumMatchLength - 1
                var chain = chainLimit
                let here = data + position
                while candidate >= oldest && chain > 0 && bestLength < maxLength {
                    let there = data + candidate
                    if there[bestLength] == here[bestLength] && there[0] == here[0] && there[1] == here[1] {
                        var length = 2
                        while length < maxLength && there[length] == here[length] {
                            length += 1
                        }
                        let distance = position - candidate
                        if length > bestLength && (length > 3 || distance <= farDistance) {
                            bestLength = length
                            if used == capacity {
                                let grown = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity * 2)
                                grown.moveInitialize(from: entries, count: used)
                                entries.deallocate()
                                entries = grown
                                capacity *= 2
                            }
                            entries[used] = UInt32(length) << 16 | UInt32(distance - 1)
                            used += 1
                            if length >= nice {
                                break
                            }
                        }
                    }
                    candidate = Int(previous[candidate & windowMask])
                    chain -= 1
                }
            }
            start[count] = used
        }

        /// Frees the lists.
        func release() {
            start.deallocate()
            entries.deallocate()
        }
    }

    /// What each symbol is taken to cost, in bits, while parsing: a literal, a match length (its length
    /// code and extra bits) and a match distance (its distance code and extra bits).
    struct CostModel {
        /// Bits of each literal byte.
        var literal: [Int]
        /// Bits of each match length 0...258 (0...2 unused).
        var length: [Int]
        /// Bits of each match distance minus one, 0..<32768.
        var distance: [Int]

        /// The costs under code lengths for the literal/length and distance alphabets.
        init(literalLengths: [UInt8], distanceLengths: [UInt8]) {
            literal = (0..<256).map { Int(literalLengths[$0]) }
            length = [Int](repeating: 0, count: maximumMatchLength + 1)
            for matchLength in minimumMatchLength...maximumMatchLength {
                let code = Int(BlockEncoder.lengthCodeOfLength[matchLength - 3])
                length[matchLength] = Int(literalLengths[257 + code]) + DeflateAlphabet.lengthExtraBits[code]
            }
            distance = (0..<32768).map { distanceMinus1 in
                let code = Int(BlockEncoder.distanceCodeOfDistance[distanceMinus1])
                return Int(distanceLengths[code]) + DeflateAlphabet.distanceExtraBits[code]
            }
        }

        /// The costs when every byte is a literal: literals by how often each byte occurs, each length
        /// and distance code as if it occurred once.
        init(literalsOf data: UnsafePointer<UInt8>, count: Int) {
            var literalFrequencies = [Int](repeating: 1, count: BlockEncoder.literalLengthSymbols)
            for index in 0..<count {
                literalFrequencies[Int(data[index])] += 1
            }
            self.init(
                literalLengths: HuffmanCode.lengths(frequencies: literalFrequencies, limit: 15),
                distanceLengths: HuffmanCode.lengths(
                    frequencies: [Int](repeating: 1, count: BlockEncoder.distanceSymbols), limit: 15))
        }

        /// The costs under the Huffman codes of a parse's symbols, every symbol counted at least once so
        /// that none is free or impossible. `stepLength` and `stepDistance` are the parse's arrival steps
        /// through `data`.
        init(
            counting data: UnsafePointer<UInt8>, _ stepLength: UnsafePointer<UInt16>,
            _ stepDistance: UnsafePointer<UInt16>, count: Int
        ) {
            var literalFrequencies = [Int](repeating: 1, count: BlockEncoder.literalLengthSymbols)
            var distanceFrequencies = [Int](repeating: 1, count: BlockEncoder.distanceSymbols)
            var position = count
            while position > 0 {
                let length = Int(stepLength[position])
                if length == 1 {
                    literalFrequencies[Int(data[position - 1])] += 1
                } else {
                    literalFrequencies[257 + Int(BlockEncoder.lengthCodeOfLength[length - 3])] += 1
                    distanceFrequencies[
                        Int(BlockEncoder.distanceCodeOfDistance[Int(stepDistance[position])])] += 1
                }
                position -= length
            }
            self.init(
                literalLengths: HuffmanCode.lengths(frequencies: literalFrequencies, limit: 15),
                distanceLengths: HuffmanCode.lengths(frequencies: distanceFrequencies, limit: 15))
        }
    }
}
