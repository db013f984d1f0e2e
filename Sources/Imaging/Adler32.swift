/// The Adler-32 checksum that ends every zlib stream (RFC 1950).
public enum Adler32 {
    /// Continues a running checksum with more bytes; start with 1.
    ///
    /// Eight bytes a step, in 64-bit arithmetic: the bytes at even and at odd positions are spread into
    /// four 16-bit lanes each, and one multiplication by a constant sums a word's lanes, each lane weighted
    /// (the lanes' products cannot carry into each other: at most 255 × 8 × 4 < 65,536). The plain sum goes
    /// to a; to b goes eight times a plus each byte weighted by how many times the one-at-a-time loop would
    /// have added it (8 for the first byte, 1 for the last).
    public static func update(_ adler: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var a = adler & 0xffff
        var b = adler >> 16
        let raw = UnsafeRawBufferPointer(bytes)
        let lanes: UInt64 = 0x00ff_00ff_00ff_00ff
        let ones: UInt64 = 0x0001_0001_0001_0001
        // Weights of the even-position bytes 0, 2, 4, 6 (8, 6, 4, 2) and odd ones 1, 3, 5, 7 (7, 5, 3, 1),
        // placed so that the top lane of the product collects them.
        let evenWeights: UInt64 = 0x0008_0006_0004_0002
        let oddWeights: UInt64 = 0x0007_0005_0003_0001
        var index = 0
        while index < raw.count {
            // 5552 is the largest run that cannot overflow 32 bits before the modulo.
            let end = min(index + 5552, raw.count)
            while end - index >= 8 {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let even = word & lanes
                let odd = (word &>> 8) & lanes
                let sum = UInt32(truncatingIfNeeded: ((even &+ odd) &* ones) &>> 48)
                let weighted = UInt32(
                    truncatingIfNeeded: ((even &* evenWeights) &>> 48) &+ ((odd &* oddWeights) &>> 48))
                b &+= a &* 8 &+ weighted
                a &+= sum
                index += 8
            }
            while index < end {
                a &+= UInt32(raw[index])
                b &+= a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
        return (b << 16) | a
    }

    /// The Adler-32 of some bytes.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { update(1, $0) }
    }
}
