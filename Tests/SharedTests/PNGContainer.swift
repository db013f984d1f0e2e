import Shared

@testable import Imaging

/// A test-only reader of the PNG container: signature, chunks and IHDR, nothing decoded.
struct PNGContainer {
    /// One chunk as stored in the file.
    struct Chunk {
        /// The four-letter type, such as "IHDR".
        let type: String
        /// The chunk's data bytes.
        let data: [UInt8]
        /// The CRC stored after the data.
        let storedCRC: UInt32
    }

    /// Every chunk, in file order.
    let chunks: [Chunk]

    /// Splits a PNG file into chunks, or returns nil when the signature or a length is wrong.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8, Array(bytes[0..<8]) == [137, 80, 78, 71, 13, 10, 26, 10] else { return nil }
        var chunks: [Chunk] = []
        var offset = 8
        while offset < bytes.count {
            guard offset + 12 <= bytes.count else { return nil }
            let length = Int(Self.bigEndian(bytes, at: offset))
            guard offset + 12 + length <= bytes.count else { return nil }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let data = Array(bytes[(offset + 8)..<(offset + 8 + length)])
            let crc = Self.bigEndian(bytes, at: offset + 8 + length)
            chunks.append(Chunk(type: type, data: data, storedCRC: crc))
            offset += 12 + length
        }
        self.chunks = chunks
    }

    /// The chunk types in order.
    var types: [String] { chunks.map(\.type) }

    /// The IDAT chunks' data joined: the zlib stream.
    var zlibStream: [UInt8] { chunks.filter { $0.type == "IDAT" }.flatMap(\.data) }

    /// The CRC-32 a chunk should carry: over its type and data.
    static func expectedCRC(of chunk: Chunk) -> UInt32 {
        CRC32.checksum(Array(chunk.type.utf8) + chunk.data)
    }

    /// A 32-bit big-endian number at an offset.
    static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}
