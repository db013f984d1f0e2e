extension Deflater {
    /// Builds length-limited canonical Huffman codes, as DEFLATE's dynamic blocks need them.
    enum HuffmanCode {
        /// Code lengths (0 for unused symbols) of a prefix code for these frequencies, none
        /// longer than `limit` bits.
        ///
        /// Builds an optimal Huffman tree (two-queue method over the used symbols sorted by
        /// frequency, ties broken by symbol), then, if some leaves are deeper than `limit`,
        /// moves them up with the count-adjustment of JPEG (ITU T.81, Annex K.3), which keeps
        /// the code complete; lengths are handed back out shortest-first to the most frequent
        /// symbols. Fewer than two used symbols still get two one-bit codes, so decoders that
        /// insist on a complete code accept the result.
        static func lengths(frequencies: [Int], limit: Int) -> [UInt8] {
            let symbolCount = frequencies.count
            var lengths = [UInt8](repeating: 0, count: symbolCount)
            // Sort keys: frequency in the high bits, symbol in the low 16 bits.
            var keys: [UInt64] = []
            keys.reserveCapacity(symbolCount)
            for symbol in 0..<symbolCount where frequencies[symbol] > 0 {
                keys.append(UInt64(frequencies[symbol]) << 16 | UInt64(symbol))
            }
            if keys.count < 2 {
                let first = keys.isEmpty ? 0 : Int(keys[0] & 0xffff)
                lengths[first] = 1
                lengths[first == 0 ? 1 : 0] = 1
                return lengths
            }
            keys.sort()
            let leafCount = keys.count
            let nodeCount = 2 * leafCount - 1
            var weight = [Int](repeating: 0, count: nodeCount)
            var parent = [Int](repeating: 0, count: nodeCount)
            for leaf in 0..<leafCount {
                weight[leaf] = Int(keys[leaf] >> 16)
            }
            var nextLeaf = 0
            var nextInternal = leafCount
            for node in leafCount..<nodeCount {
                var children = (0, 0)
                for pick in 0..<2 {
                    let child: Int
                    if nextLeaf < leafCount
                        && (nextInternal >= node || weight[nextLeaf] <= weight[nextInternal])
                    {
                        child = nextLeaf
                        nextLeaf += 1
                    } else {
                        child = nextInternal
                        nextInternal += 1
                    }
                    if pick == 0 { children.0 = child } else { children.1 = child }
                }
                weight[node] = weight[children.0] + weight[children.1]
                parent[children.0] = node
                parent[children.1] = node
            }
            // Parents always come after their children, so one backward pass gives every depth.
            var depth = [Int](repeating: 0, count: nodeCount)
            var countOfLength = [Int](repeating: 0, count: leafCount + 1)
            for node in stride(from: nodeCount - 2, through: 0, by: -1) {
                depth[node] = depth[parent[node]] + 1
                if node < leafCount {
                    countOfLength[depth[node]] += 1
                }
            }
            // Lift leaves deeper than the limit (JPEG Annex K.3 `Adjust_BITS`).
            var deepest = leafCount
            while deepest > limit {
                while countOfLength[deepest] > 0 {
                    var shallower = deepest - 2
                    while countOfLength[shallower] == 0 {
                        shallower -= 1
                    }
                    countOfLength[deepest] -= 2
                    countOfLength[deepest - 1] += 1
                    countOfLength[shallower + 1] += 2
                    countOfLength[shallower] -= 1
                }
                deepest -= 1
            }
            // The most frequent symbols (the end of `keys`) get the shortest codes.
            var keyIndex = leafCount - 1
            for length in 1...min(limit, leafCount) {
                for _ in 0..<countOfLength[length] {
                    lengths[Int(keys[keyIndex] & 0xffff)] = UInt8(length)
                    keyIndex -= 1
                }
            }
            return lengths
        }

        /// The canonical codes (RFC 1951 §3.2.2) for these lengths, bit-reversed so they can be
        /// written least significant bit first.
        static func reversedCodes(lengths: [UInt8]) -> [UInt16] {
            var countOfLength = [Int](repeating: 0, count: 16)
            for length in lengths where length > 0 {
                countOfLength[Int(length)] += 1
            }
            var nextCode = [Int](repeating: 0, count: 16)
            var code = 0
            for length in 1..<16 {
                code = (code + countOfLength[length - 1]) << 1
                nextCode[length] = code
            }
            var codes = [UInt16](repeating: 0, count: lengths.count)
            for symbol in 0..<lengths.count where lengths[symbol] > 0 {
                let length = Int(lengths[symbol])
                var value = nextCode[length]
                nextCode[length] += 1
                var reversed = 0
                for _ in 0..<length {
                    reversed = (reversed << 1) | (value & 1)
                    value >>= 1
                }
                codes[symbol] = UInt16(reversed)
            }
            return codes
        }
    }
}
