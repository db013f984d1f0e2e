// Writes the fuzz corpus seeds: generated posters and the hand-built test PNGs, as whole files into
// OUTPUT_DIR/png and as their zlib streams (the IDAT data) into OUTPUT_DIR/inflate.
//
// Usage: seed-corpus OUTPUT_DIR FIXTURE_PNG...

import Foundation

@main
enum SeedCorpus {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let output = arguments.first else {
            FileHandle.standardError.write(Data("usage: seed-corpus OUTPUT_DIR FIXTURE_PNG...\n".utf8))
            exit(2)
        }
        let root = URL(fileURLWithPath: output, isDirectory: true)
        let pngFolder = root.appendingPathComponent("png", isDirectory: true)
        let inflateFolder = root.appendingPathComponent("inflate", isDirectory: true)
        for folder in [pngFolder, inflateFolder] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        var files: [(String, [UInt8])] = []
        let hosts = ["img1.posters.test", "img2.posters.test", "img3.posters.test"]
        for index in 0..<24 {
            let url = "https://\(hosts[index % 3])/posters/seed-\(index).png"
            files.append(("poster-\(index)", PosterGenerator.pngData(for: url)))
        }
        for path in arguments.dropFirst() {
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            files.append(("fixture-\(name)", [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
        }
        var written = 0
        for (name, png) in files {
            try Data(png).write(to: pngFolder.appendingPathComponent("\(name).png"))
            written += 1
            if let stream = zlibStream(of: png) {
                try Data(stream).write(to: inflateFolder.appendingPathComponent("\(name).zlib"))
                written += 1
            }
        }
        print("\(written) seeds in \(root.path)")
    }

    /// The concatenated IDAT data of a PNG file (its zlib stream), or nil if the chunks do not walk.
    static func zlibStream(of png: [UInt8]) -> [UInt8]? {
        var position = 8
        var stream: [UInt8] = []
        while position + 8 <= png.count {
            let length =
                Int(png[position]) << 24 | Int(png[position + 1]) << 16 | Int(png[position + 2]) << 8
                | Int(png[position + 3])
            let type = String(decoding: png[(position + 4)..<(position + 8)], as: UTF8.self)
            let end = position + 8 + length
            guard end + 4 <= png.count else { return nil }
            if type == "IDAT" { stream += png[(position + 8)..<end] }
            position = end + 4
        }
        return stream.isEmpty ? nil : stream
    }
}
