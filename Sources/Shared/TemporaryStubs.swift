import Foundation

// TEMPORARY: replaced by the real codec, catalog and options on merge.

public enum PNGDecoder {
    public static func decode(_ bytes: [UInt8]) throws -> Bitmap {
        guard bytes.count > 40, bytes[0] == 0x89 else { throw NSError(domain: "png", code: 1) }
        var crcOK = true
        // stub: find marker "PIX!" then w,h then raw
        guard
            let i = (0..<(bytes.count - 4)).first(where: {
                bytes[$0] == 80 && bytes[$0 + 1] == 73 && bytes[$0 + 2] == 88 && bytes[$0 + 3] == 33
            })
        else { throw NSError(domain: "png", code: 2) }
        let w = Int(bytes[i + 4]), h = Int(bytes[i + 5])
        let n = w * h * 4
        guard i + 6 + n + 4 <= bytes.count else { throw NSError(domain: "png", code: 3) }
        let raw = Array(bytes[(i + 6)..<(i + 6 + n)])
        let c = CRC32.checksum(raw)
        crcOK = bytes[i + 6 + n] == UInt8(c >> 24)
        guard crcOK else { throw NSError(domain: "png", code: 4) }
        return Bitmap(width: w, height: h, rgba: raw)
    }
}
public enum PNGEncoder {
    public static func encode(_ b: Bitmap) -> [UInt8] {
        var out: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            + [UInt8](repeating: 0, count: 17)
        out += Array("PIX!".utf8) + [UInt8(b.width), UInt8(b.height)] + b.rgba
        let c = CRC32.checksum(b.rgba)
        out += [UInt8(c >> 24), 0, 0, 0]
        out += [UInt8](repeating: 7, count: 40000)
        return out
    }
}
public struct SepiaFilter {
    let i: Double
    public init(intensity: Double) { i = intensity }
    public func apply(to b: Bitmap) -> Bitmap {
        var c = b; for k in stride(from: 0, to: c.rgba.count, by: 4) { c.rgba[k] = c.rgba[k] / 2 + 100 };
        return c
    }
}
public enum PosterGenerator {
    public static func pngData(for url: String) -> [UInt8] {
        let h = FNV1a64.hash(url)
        return PNGEncoder.encode(
            Bitmap(
                width: 18, height: 27,
                filledWith: RGBA(red: UInt8(h & 255), green: UInt8((h >> 8) & 255), blue: 9)))
    }
}
