/// The Adler-32 checksum that ends every zlib stream (RFC 1950).
public enum Adler32 {
    /// Continues a running checksum with more bytes; start with 1.
    public static func update(_ adler: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var a = adler & 0xffff
        var b = adler >> 16
        var index = 0
        while index < bytes.count {
            // 5552 is the largest run that cannot overflow 32 bits before the modulo.
            let end = min(index + 5552, bytes.count)
            // Eight bytes a step: their plain sum goes to a, and to b each byte weighted by how many
            // times the one-at-a-time loop would have added it (8 for the first, 1 for the last), plus
            // eight times a. The sums are independent, so the step does not wait on itself.
            while end - index >= 8 {
                let s0 = UInt32(bytes[index])
                let s1 = UInt32(bytes[index + 1])
                let s2 = UInt32(bytes[index + 2])
                let s3 = UInt32(bytes[index + 3])
                let s4 = UInt32(bytes[index + 4])
                let s5 = UInt32(bytes[index + 5])
                let s6 = UInt32(bytes[index + 6])
                let s7 = UInt32(bytes[index + 7])
                let weighted1 = s0 &* 8 &+ s1 &* 7 &+ s2 &* 6 &+ s3 &* 5
                let weighted2 = s4 &* 4 &+ s5 &* 3 &+ s6 &* 2 &+ s7
                b &+= a &* 8 &+ weighted1 &+ weighted2
                a &+= (s0 &+ s1) &+ (s2 &+ s3) &+ (s4 &+ s5) &+ (s6 &+ s7)
                index += 8
            }
            while index < end {
                a &+= UInt32(bytes[index])
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
