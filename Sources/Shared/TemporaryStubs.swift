import Foundation

// TEMPORARY: replaced by the real codec, catalog and options on merge.

public enum PNGEncoder {
    public static func encode(_ b: Bitmap) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8((v >> 16) & 255), UInt8((v >> 8) & 255), UInt8(v & 255)]
        }
        func chunk(_ t: String, _ d: [UInt8]) -> [UInt8] {
            let td = Array(t.utf8) + d; return be(UInt32(d.count)) + td + be(CRC32.checksum(td))
        }
        var raw: [UInt8] = []
        for y in 0..<b.height { raw.append(0); raw += b.rgba[(y * b.width * 4)..<((y + 1) * b.width * 4)] }
        var z: [UInt8] = [0x78, 0x01]
        var i = 0
        while i < raw.count {
            let n = min(65535, raw.count - i); let last: UInt8 = i + n == raw.count ? 1 : 0;
            z += [last, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8((~n >> 8) & 255)];
            z += raw[i..<(i + n)]; i += n
        }
        z += be(Adler32.checksum(raw))
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", be(UInt32(b.width)) + be(UInt32(b.height)) + [8, 6, 0, 0, 0]) + chunk("IDAT", z)
            + chunk("IEND", [])
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
                width: 90, height: 100,
                filledWith: RGBA(red: UInt8(h & 255), green: UInt8((h >> 8) & 255), blue: 9)))
    }
}
