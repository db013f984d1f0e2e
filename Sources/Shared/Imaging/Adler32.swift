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
