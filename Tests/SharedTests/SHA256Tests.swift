import Shared
import Testing

@testable import Files

/// SHA-256 and HMAC-SHA-256 against the published test vectors (FIPS 180-4 examples, RFC 4231).
extension CodecTests {
    func hex(_ text: String) -> String {
        var hash = SHA256()
        hash.combine(text)
        return hash.hexDigest
    }

    @Test("The FIPS 180-4 example messages hash to their published digests")
    func fipsExamplesHash() {
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            hex(
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
            ) == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test("A million a's, fed in uneven pieces, hash to the published digest")
    func millionAsInPiecesHash() {
        var hash = SHA256()
        var fed = 0
        var piece = 1
        while fed < 1_000_000 {
            let count = min(piece, 1_000_000 - fed)
            hash.combine([UInt8](repeating: 0x61, count: count))
            fed += count
            piece = piece * 7 % 1000 + 1
        }
        #expect(hash.hexDigest == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("Every message length around the padding boundaries differs, and splitting never changes a digest")
    func paddingBoundaryLengths() {
        var seen: Set<String> = []
        for length in 50...130 {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let whole = SHA256.digest(message)
            var split = SHA256()
            split.combine(message.prefix(length / 3))
            split.combine(message.dropFirst(length / 3))
            #expect(split.finalize() == whole, "length \(length)")
            seen.insert(split.hexDigest)
        }
        #expect(seen.count == 81)
    }

    @Test("HMAC-SHA-256 matches RFC 4231 test cases 1, 2 and 6 (a key longer than a block)")
    func hmacMatchesRFC4231() {
        #expect(
            SHA256.hmacHex(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(
            SHA256.hmacHex(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(
            SHA256.hmacHex(
                key: [UInt8](repeating: 0xaa, count: 131),
                message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

}
