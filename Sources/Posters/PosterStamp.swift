import Foundation
import Imaging

/// Marks each PNG the simulated server sends with the URL it was sent for, in a `tEXt` chunk.
///
/// Decoders skip the chunk, so the pixels are untouched. The world reads it back from any bytes the app
/// decodes, wherever they came from (the network, a cache file, a previous process), so a picture always
/// knows its source and a cell showing another row's poster is caught.
package enum PosterStamp {
    /// The `tEXt` keyword of the stamp.
    static let keyword = "workbook-source"

    /// The PNG with a stamp chunk inserted right after IHDR; other bytes are returned unchanged.
    package static func stamp(_ png: [UInt8], url: String) -> [UInt8] {
        // Signature (8) + IHDR chunk (4 length + 4 type + 13 data + 4 CRC) = 33 bytes.
        guard png.count >= 33, png[12..<16].elementsEqual("IHDR".utf8) else { return png }
        var data = Array(keyword.utf8)
        data.append(0)
        data.append(contentsOf: url.utf8)
        var chunk: [UInt8] = []
        let length = UInt32(data.count)
        chunk.append(contentsOf: [
            UInt8(length >> 24), UInt8((length >> 16) & 0xff), UInt8((length >> 8) & 0xff),
            UInt8(length & 0xff),
        ])
        let typeAndData = Array("tEXt".utf8) + data
        chunk.append(contentsOf: typeAndData)
        let crc = CRC32.checksum(typeAndData)
        chunk.append(contentsOf: [
            UInt8(crc >> 24), UInt8((crc >> 16) & 0xff), UInt8((crc >> 8) & 0xff), UInt8(crc & 0xff),
        ])
        return Array(png[0..<33]) + chunk + Array(png[33...])
    }

    /// The bytes without their stamp: the same pixels, so every row a `--posters` file lands on shares
    /// one decode. Bytes whose stamp chunk is damaged (its CRC does not match) are returned as they are,
    /// so they fail to decode as they would with the stamp.
    package static func unstamped(_ png: Data) -> Data {
        guard png.count >= 41 else { return png }
        let bytes = [UInt8](png.prefix(33 + 8 + 4 + keyword.utf8.count + 1 + 4096))
        guard bytes[12..<16].elementsEqual("IHDR".utf8), bytes[37..<41].elementsEqual("tEXt".utf8) else {
            return png
        }
        let length = Int(bytes[33]) << 24 | Int(bytes[34]) << 16 | Int(bytes[35]) << 8 | Int(bytes[36])
        let end = 41 + length + 4
        guard end <= bytes.count, bytes[41...].starts(with: Array(keyword.utf8) + [0]) else { return png }
        let crc = bytes[(end - 4)..<end].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard CRC32.checksum(Array(bytes[37..<(end - 4)])) == crc else { return png }
        return png.prefix(33) + png.dropFirst(end)
    }

    /// The URL stamped in PNG bytes, if any. Never traps on malformed bytes.
    package static func source(of png: [UInt8]) -> String? {
        var offset = 8
        var chunksSeen = 0
        while offset + 8 <= png.count, chunksSeen < 8 {
            let length =
                Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8
                | Int(png[offset + 3])
            let type = png[(offset + 4)..<(offset + 8)]
            let dataStart = offset + 8
            guard length >= 0, length <= png.count - dataStart else { return nil }
            if type.elementsEqual("tEXt".utf8) {
                let chunk = png[dataStart..<(dataStart + length)]
                if let zero = chunk.firstIndex(of: 0),
                    chunk[chunk.startIndex..<zero].elementsEqual(keyword.utf8)
                {
                    return String(decoding: chunk[(zero + 1)...], as: UTF8.self)
                }
            }
            if type.elementsEqual("IDAT".utf8) { return nil }
            offset = dataStart + length + 4
            chunksSeen += 1
        }
        return nil
    }
}
