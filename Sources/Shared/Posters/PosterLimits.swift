/// How large a poster the phone agrees to decode: at most 4096×4096 pixels (64 MB of RGBA), already far
/// more than a row of a phone's list can show. A larger PNG is refused from its header, before anything is
/// allocated for it, and its row shows the failure image; the trace says why (`poster_refused`).
package enum PosterLimits {
    /// The most pixels a poster may have: 4096 × 4096.
    package static let maximumPixels = 4096 * 4096

    /// Why PNG bytes are refused for their size (“8192×8192 pixels; a poster may have at most …”), or nil
    /// when the header is within the limit or is not a PNG header at all.
    package static func refusal(of png: [UInt8]) -> String? {
        guard png.count >= 24, png[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func number(at offset: Int) -> Int {
            png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        }
        let width = number(at: 16)
        let height = number(at: 20)
        guard width > maximumPixels || height > maximumPixels || width * height > maximumPixels else {
            return nil
        }
        return "\(width)×\(height) pixels; a poster may have at most 4096×4096 (\(maximumPixels) pixels)"
    }
}
