import Foundation
import Testing

/// Bad presets, hostile files and broken outputs (Fixtures/hardening/cases.json): each must end
/// with its exit status and exact stderr lines, print nothing on stdout, and leave no output or
/// temporary file behind.
@Suite struct HardeningCorpusTests {
    @Test(arguments: HardeningCorpus.all)
    func corpusCase(_ c: HardeningCase) throws {
        try HardeningCorpus.run(c)
    }

    @Test func manifestIsComplete() throws {
        let cases = try HardeningCorpus.load()
        #expect(cases.count >= 50)
        let names = cases.map(\.name)
        #expect(Set(names).count == names.count, "case names repeat")
        for c in cases {
            #expect(c.stderrTo != nil || !c.stderr.isEmpty || c.exit == 0, "\(c.name): a failure must say why on stderr")
            for line in c.stderr {
                #expect(HardeningCorpusTests.isDocumentProblem(line) || line.hasPrefix("Error: ") || line.hasPrefix("warning: ")
                        || line.hasPrefix("Usage: ") || line.hasPrefix("  See "), "\(c.name): \(line)")
                #expect(!line.hasPrefix("Error: ") || !HardeningCorpusTests.isDocumentProblem(String(line.dropFirst(7))),
                        "\(c.name): a document problem is printed without a prefix: \(line)")
            }
        }
    }

    /// Whether `line` is in the form GCC-style problem matchers (GitHub Actions, editors) read:
    /// `FILE:LINE:COLUMN: error: message`, or `FILE: error: message` without a position.
    static func isDocumentProblem(_ line: String) -> Bool {
        line.wholeMatch(of: /[^\s:][^:]*(:[1-9][0-9]*:[1-9][0-9]*)?: (error|warning): .+/) != nil
    }

    @Test func documentProblemForm() {
        #expect(HardeningCorpusTests.isDocumentProblem("presets/a.json:12:20: error: at layers[2].amplitude: must be between 0 and 1, got 1.5"))
        #expect(HardeningCorpusTests.isDocumentProblem("--set: error: at fps: expected a number, got \"NaN\""))
        #expect(!HardeningCorpusTests.isDocumentProblem("Error: presets/a.json: at fps: expected a number"))
        #expect(!HardeningCorpusTests.isDocumentProblem("presets/a.json: line 1, column 2: error: x"))
    }

    /// The 100000 × 100000 PNG must fail on its size, not on a broken header: its IHDR checksum is right.
    @Test func crafted100000PixelHeaderIsAValidPNGHeader() throws {
        let bytes = Array(try Data(contentsOf: HardeningCorpus.folder.appendingPathComponent("images/huge-header.png")))
        #expect(Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Array(bytes[8..<16]) == [0, 0, 0, 13] + Array("IHDR".utf8))
        let be = { (i: Int) in bytes[i..<i + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        #expect(be(16) == 100_000 && be(20) == 100_000)
        #expect(be(29) == crc32(Array(bytes[12..<29])), "IHDR CRC")
    }

    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
