/// The CRC-32 of PNG chunks and zlib's gzip cousin (ISO 3309, polynomial 0xEDB88320, reflected).
///
/// Computed eight bytes at a time ("slicing-by-8"): eight 256-entry tables, where table k gives the CRC
/// contribution of a byte followed by k zero bytes, so one step folds in eight bytes with eight
/// independent look-ups instead of eight dependent ones.
public enum CRC32 {
    /// The eight 256-entry tables, one after another, built once.
    static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var crc = UInt32(index)
            for _ in 0..<8 {
                crc = (crc & 1) != 0 ? (0xEDB8_8320 ^ (crc >> 1)) : (crc >> 1)
            }
            tables[index] = crc
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xff)]
            }
        }
        return tables
    }()

    /// Continues a running CRC with more bytes; start with 0.
    public static func update(_ crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var value = ~crc
        tables.withUnsafeBufferPointer { table in
            let raw = UnsafeRawBufferPointer(bytes)
            var offset = 0
            while raw.count - offset >= 8 {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                let low = value ^ UInt32(truncatingIfNeeded: word)
                let high = UInt32(truncatingIfNeeded: word &>> 32)
                value =
                    table[7 * 256 + Int(low & 0xff)] ^ table[6 * 256 + Int((low &>> 8) & 0xff)]
                    ^ table[5 * 256 + Int((low &>> 16) & 0xff)] ^ table[4 * 256 + Int(low &>> 24)]
                    ^ table[3 * 256 + Int(high & 0xff)] ^ table[2 * 256 + Int((high &>> 8) & 0xff)]
                    ^ table[256 + Int((high &>> 16) & 0xff)] ^ table[Int(high &>> 24)]
                offset += 8
            }
            while offset < raw.count {
                value = table[Int((value ^ UInt32(raw[offset])) & 0xff)] ^ (value >> 8)
                offset += 1
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
