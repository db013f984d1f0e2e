/// The CRC-32 of PNG chunks and zlib's gzip cousin (ISO 3309, polynomial 0xEDB88320, reflected).
public enum CRC32 {
    /// The 256-entry lookup table, built once.
    static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 {
            crc = (crc & 1) != 0 ? (0xEDB8_8320 ^ (crc >> 1)) : (crc >> 1)
        }
        return crc
    }

    /// Continues a running CRC with more bytes; start with 0.
    public static func update(_ crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var value = ~crc
        table.withUnsafeBufferPointer { table in
            for byte in bytes {
                value = table[Int((value ^ UInt32(byte)) & 0xff)] ^ (value >> 8)
            }
        }
        return ~value
    }

    /// The CRC-32 of some bytes.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { update(0, $0) }
    }

    /// The CRC-32 of a slice of bytes.
    public static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { update(0, $0) }
    }
}
