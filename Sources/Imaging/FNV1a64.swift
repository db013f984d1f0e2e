/// The 64-bit FNV-1a hash: small, fast, stable across platforms and runs.
///
/// Used for pixel hashes and for names derived from URLs. Not a cryptographic hash.
public struct FNV1a64: Sendable {
    /// The hash of everything combined so far.
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Starts an empty hash.
    public init() {}

    /// Adds bytes to the hash.
    ///
    /// A pointer walk rather than a `for` loop: debug builds call the iterator for every byte, and this
    /// runs over every response body and every pixel hash (8.6 against 60.5 ns a byte there, measured).
    package mutating func combine(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard var byte = bytes.baseAddress else { return }
        let end = byte + bytes.count
        var hash = value
        while byte != end {
            hash = (hash ^ UInt64(byte.pointee)) &* 0x0000_0100_0000_01b3
            byte += 1
        }
        value = hash
    }

    /// Adds bytes to the hash.
    package mutating func combine(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { combine($0) }
    }

    /// Adds a string's UTF-8 bytes to the hash.
    package mutating func combine(_ string: String) {
        combine(Array(string.utf8))
    }

    /// Adds a 32-bit number as four big-endian bytes.
    package mutating func combine(bigEndian number: UInt32) {
        combine([
            UInt8(number >> 24), UInt8((number >> 16) & 0xff), UInt8((number >> 8) & 0xff),
            UInt8(number & 0xff),
        ])
    }

    /// The hash as 16 lowercase hex digits.
    public var hexDigest: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The FNV-1a hash of a string's UTF-8 bytes as 16 hex digits (for file names derived from URLs).
    public static func hexDigest(of string: String) -> String {
        var hash = FNV1a64()
        hash.combine(string)
        return hash.hexDigest
    }

    /// The FNV-1a hash of a string's UTF-8 bytes.
    public static func hash(_ string: String) -> UInt64 {
        var hash = FNV1a64()
        hash.combine(string)
        return hash.value
    }
}
