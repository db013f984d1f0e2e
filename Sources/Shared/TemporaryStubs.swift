import Foundation
// TEMPORARY: replaced by the real codec, catalog and options on merge.

public struct Movie: Sendable, Equatable {
    public var name: String
    public var urlString: String
    public var url: URL?
    public var invalidURLReason: String?
}

public enum MovieCatalog {
    public static func stub(rows: Int) -> [Movie] {
        (0..<rows).map { index in
            if index == 8 { return Movie(name: "hangge.com", urlString: "NO URL", url: nil, invalidURLReason: "bad") }
            let s = index == 20 ? "https://img1.posters.test/removed/p\(index).png" : "https://img1.posters.test/view/p\(index).png"
            return Movie(name: "Movie \(index)", urlString: s, url: URL(string: s), invalidURLReason: nil)
        }
    }
}

public enum PNGDecoder {
    public static func decode(_ bytes: [UInt8]) throws -> Bitmap {
        guard bytes.count > 40, bytes[0] == 0x89 else { throw NSError(domain: "png", code: 1) }
        var crcOK = true
        // stub: find marker "PIX!" then w,h then raw
        guard let i = (0..<(bytes.count - 4)).first(where: { bytes[$0] == 80 && bytes[$0+1] == 73 && bytes[$0+2] == 88 && bytes[$0+3] == 33 }) else { throw NSError(domain: "png", code: 2) }
        let w = Int(bytes[i+4]), h = Int(bytes[i+5])
        let n = w * h * 4
        guard i + 6 + n + 4 <= bytes.count else { throw NSError(domain: "png", code: 3) }
        let raw = Array(bytes[(i+6)..<(i+6+n)])
        let c = CRC32.checksum(raw)
        crcOK = bytes[i+6+n] == UInt8(c >> 24)
        guard crcOK else { throw NSError(domain: "png", code: 4) }
        return Bitmap(width: w, height: h, rgba: raw)
    }
}
public enum PNGEncoder {
    public static func encode(_ b: Bitmap) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0,0,0,13] + Array("IHDR".utf8) + [UInt8](repeating: 0, count: 17)
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
    public func apply(to b: Bitmap) -> Bitmap { var c = b; for k in stride(from: 0, to: c.rgba.count, by: 4) { c.rgba[k] = c.rgba[k] / 2 + 100 }; return c }
}
public enum PosterGenerator {
    public static func pngData(for url: String) -> [UInt8] {
        let h = FNV1a64.hash(url)
        return PNGEncoder.encode(Bitmap(width: 18, height: 27, filledWith: RGBA(red: UInt8(h & 255), green: UInt8((h >> 8) & 255), blue: 9)))
    }
}
public enum ColorMode: Sendable, Equatable { case auto, always, never }
public struct RunOptions: Sendable, Equatable {
    public var scenario: String = "course"
    public var seed: UInt64?
    public var json = false
    public var tracePath: String?
    public var cacheDirectory: String?
    public var concurrency: Int?
    public var postersDirectory: String?
    public var timelinePath: String?
    public var screens = false
    public var exportDirectory: String?
    public var color: ColorMode = .auto
    public var help = false
    public init() {}
}
public struct OptionsError: Error, CustomStringConvertible { public var description: String }
public enum OptionsParser {
    public static func parse(_ arguments: [String]) throws(OptionsError) -> RunOptions {
        var o = RunOptions(); var i = 0
        while i < arguments.count {
            let a = arguments[i]
            func next() throws(OptionsError) -> String { i += 1; guard i < arguments.count else { throw OptionsError(description: "missing value for \(a)") }; return arguments[i] }
            switch a {
            case "--json": o.json = true
            case "--help", "-h": o.help = true
            case "--scenario": o.scenario = try next()
            case "--seed": o.seed = UInt64(try next())
            case "--trace": o.tracePath = try next()
            case "--cache-dir": o.cacheDirectory = try next()
            case "--concurrency": o.concurrency = Int(try next())
            default: throw OptionsError(description: "unknown option \(a)")
            }
            i += 1
        }
        return o
    }
    public static func helpText(program: String, summary: String) -> String { "usage: \(program) [options]\n" }
}
public struct ScenarioError: Error, CustomStringConvertible { public var description: String }
public enum ScenarioParser {
    public static func load(_ name: String) throws(ScenarioError) -> Scenario {
        var s = Scenario(name: "course", source: "stub")
        s.rows = 200
        s.actions = [.wait(microseconds: 2_000_000), .drag(toRow: 4, microseconds: 1_000_000), .wait(microseconds: 1_000_000), .fling(toRow: 80), .wait(microseconds: 2_000_000), .fling(toRow: 0), .wait(microseconds: 1_000_000), .memoryWarning, .wait(microseconds: 1_000_000), .relaunch, .wait(microseconds: 2_000_000)]
        for r in stride(from: 3, through: 24, by: 3) { s.actions += [.drag(toRow: r, microseconds: 800_000), .wait(microseconds: 1_500_000)] }
        return s
    }
}
