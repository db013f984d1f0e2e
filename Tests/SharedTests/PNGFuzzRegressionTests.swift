import Foundation
import Shared
import Testing

@testable import Imaging

/// Inputs kept from fuzzing (`Fuzz/fuzz-png.sh`): files named `png-*` are fed to the PNG decoder and
/// `inflate-*` to the inflater. Each reached new code when the fuzzer found it; each must still decode or
/// throw, never trap. Crash inputs found later go in the same folder.
extension CodecTests {
    /// The checked-in inputs, sorted by name.
    static var inputs: [URL] {
        let folder = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/fuzz")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test("Every kept fuzz input decodes or throws, within the limits, without trapping")
    func replay() throws {
        let inputs = Self.inputs
        #expect(inputs.filter { $0.lastPathComponent.hasPrefix("png-") }.count >= 10)
        #expect(inputs.filter { $0.lastPathComponent.hasPrefix("inflate-") }.count >= 10)
        var outcomes: [String: Int] = [:]
        for url in inputs {
            let bytes = [UInt8](try Data(contentsOf: url))
            if url.lastPathComponent.hasPrefix("png-") {
                do {
                    let bitmap = try PNGDecoder.decode(bytes, maximumPixels: 4 * 1024 * 1024)
                    #expect(bitmap.rgba.count == bitmap.width * bitmap.height * 4)
                    outcomes["decoded", default: 0] += 1
                } catch {
                    outcomes["refused", default: 0] += 1
                }
            } else {
                do {
                    let output = try Inflater.inflate(bytes, maximumOutputSize: 16 * 1024 * 1024)
                    #expect(output.count <= 16 * 1024 * 1024)
                    outcomes["inflated", default: 0] += 1
                } catch {
                    outcomes["refused", default: 0] += 1
                }
            }
        }
        #expect(outcomes["refused", default: 0] > 0, "\(outcomes)")
    }
}
