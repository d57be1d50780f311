import Testing
import WaveZip

/// The ZIP writer: entries come back (through libzip's reader) as written and in order; the same
/// entries give the same bytes; every local header says deflate, 1980-01-01 00:00; libzip's own
/// refusals become `ZipError`s with its message.
@Suite struct ZipArchiveTests {
    static let entries = [
        ZipArchive.Entry(path: "manifest.json", bytes: Array("{\"version\":\"2\"}\n".utf8)),
        ZipArchive.Entry(path: "a/x.json", bytes: Array(repeating: Array("{\"k\":[0,1,2]}".utf8), count: 200).flatMap { $0 }),
        ZipArchive.Entry(path: "i/empty.png", bytes: []),
        ZipArchive.Entry(path: "t/light.json", bytes: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }),
    ]

    @Test func entriesRoundTripInOrder() throws {
        let bytes = try ZipArchive.write(Self.entries)
        let read = try ZipArchive.entries(of: bytes)
        #expect(read.map(\.path) == Self.entries.map(\.path))
        #expect(read.map(\.bytes) == Self.entries.map(\.bytes))
        // Deflated: the repetitive entry shrinks.
        #expect(bytes.count < Self.entries.map(\.bytes.count).reduce(0, +))
    }

    @Test func sameEntriesSameBytes() throws {
        #expect(try ZipArchive.write(Self.entries) == ZipArchive.write(Self.entries))
        #expect(try ZipArchive.write(Self.entries) != ZipArchive.write(Array(Self.entries.reversed())))
    }

    /// Every local file header: signature, method 8 (deflate), DOS time 0 and date 1980-01-01.
    @Test func headersCarryFixedStamps() throws {
        let a = try ZipArchive.write(Self.entries)
        func u16(_ i: Int) -> Int { Int(a[i]) | Int(a[i + 1]) << 8 }
        func u32(_ i: Int) -> Int { u16(i) | u16(i + 2) << 16 }
        var at = 0, names: [String] = []
        while at + 30 <= a.count, u32(at) == 0x0403_4b50 {
            #expect(u16(at + 8) == 8 && u16(at + 10) == 0 && u16(at + 12) == 1 << 5 | 1)
            let nameLength = u16(at + 26)
            names.append(String(decoding: a[(at + 30)..<(at + 30 + nameLength)], as: UTF8.self))
            at += 30 + nameLength + u16(at + 28) + u32(at + 18)
        }
        #expect(names == Self.entries.map(\.path))
    }

    @Test func libzipRefusalsAreErrors() {
        #expect(throws: ZipError.self) { try ZipArchive.write([Self.entries[0], Self.entries[0]]) }
        #expect(throws: ZipError.self) { try ZipArchive.entries(of: Array("not a zip archive".utf8)) }
    }
}
