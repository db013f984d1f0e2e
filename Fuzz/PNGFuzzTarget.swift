// The libFuzzer entry points for the PNG decoder and the inflater.
//
// `Fuzz/fuzz-png.sh` compiles this file together with `Sources/Imaging/*.swift` into one module
// (so the internal `Inflater` is reachable), twice: as is, the target decodes each input as a PNG file;
// with `-D FUZZ_INFLATE` it inflates each input as a zlib stream. libFuzzer supplies `main`;
// `-parse-as-library` keeps this file from being a script. Either target must return or throw, never
// trap, hang, or touch memory it does not own (AddressSanitizer watches).

/// The most pixels the fuzzed decode accepts: 4 megapixels, so valid large headers do not slow every run
/// (whatever the limit, the decoder must honour it before allocating).
let fuzzMaximumPixels = 4 * 1024 * 1024

/// The most bytes the fuzzed inflate may produce: 16 MiB.
let fuzzMaximumInflate = 16 * 1024 * 1024

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    #if FUZZ_INFLATE
        if let output = try? Inflater.inflate(bytes, maximumOutputSize: fuzzMaximumInflate) {
            precondition(output.count <= fuzzMaximumInflate, "inflate passed its limit")
        }
    #else
        if let bitmap = try? PNGDecoder.decode(bytes, maximumPixels: fuzzMaximumPixels) {
            precondition(bitmap.width * bitmap.height <= fuzzMaximumPixels, "decode passed its limit")
            precondition(bitmap.rgba.count == bitmap.width * bitmap.height * 4, "bitmap size is wrong")
        }
    #endif
    return 0
}
