import Files
import Foundation

/// The process's arguments as the bytes it was given, before Swift decodes them: `CommandLine.arguments`
/// replaces bytes that are not UTF-8 with U+FFFD, so a path argument would silently name another file.
enum CommandLineBytes {
    /// Refuses, in one line, the first argument that is not valid UTF-8, showing its bad bytes as `\xFF`.
    static func requireUTF8() throws(WorkbookError) {
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            guard String(validatingCString: pointer) == nil else { continue }
            let length = strlen(pointer)
            let bytes = (0..<length).map { UInt8(bitPattern: pointer[$0]) }
            throw .badInput(
                "argument \(index) (\(shown(bytes))) is not valid UTF-8; the steps take paths and "
                    + "values in UTF-8 only, so rename the file or give another path")
        }
    }

    /// Bytes as text: valid UTF-8 as itself (control characters escaped), every other byte as `\xFF`.
    static func shown(_ bytes: [UInt8]) -> String {
        var text = ""
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length =
                lead < 0x80
                ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
            if length > 0, index + length <= bytes.count,
                let scalar = String(validating: bytes[index..<index + length], as: UTF8.self)
            {
                text += VisibleText.escaped(scalar)
                index += length
            } else {
                let hex = String(lead, radix: 16, uppercase: true)
                text += "\\x" + (hex.count == 1 ? "0" : "") + hex
                index += 1
            }
        }
        return text
    }
}
