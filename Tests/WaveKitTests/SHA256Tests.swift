import Testing
import WaveKit

@Suite struct SHA256Tests {
    /// FIPS 180-4 examples and the message lengths around the padding boundary, against known digests.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ])
    func knownDigests(message: String, digest: String) {
        #expect(SHA256.hex(Array(message.utf8)) == digest)
    }

    @Test func incrementalEqualsWhole() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for split in [0, 1, 55, 56, 63, 64, 65, 999] {
            var h = SHA256()
            h.update(bytes[..<split])
            h.update(bytes[split...])
            #expect(h.finalize() == { var w = SHA256(); w.update(bytes); return w.finalize() }())
        }
    }

    /// A long message (many blocks straight from the caller's buffer), whole and in uneven pieces,
    /// against the digest Python's hashlib gives for the same bytes.
    @Test func aLongMessageWholeAndInPieces() {
        let bytes = (0..<3_000_017).map { UInt8($0 % 251) }
        let expected = "d39e3524dc23d5a0b2882f1468f1e6703609ee2cdc9a1de1dba8a77858b80f56"
        #expect(SHA256.hex(bytes) == expected)
        var h = SHA256()
        var start = 0
        for size in [1, 63, 64, 65, 127, 4096, 100_003] where start < bytes.count {
            h.update(bytes[start..<min(bytes.count, start + size)])
            start += size
        }
        h.update(bytes[start...])
        #expect(h.finalize().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() == expected)
        // A collection without contiguous storage takes the copying path.
        var lazy = SHA256()
        lazy.update(bytes.lazy.map { $0 })
        #expect(lazy.finalize().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() == expected)
    }
}
