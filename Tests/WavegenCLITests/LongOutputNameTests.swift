import Foundation
import Testing
import WaveTestSupport
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// Any file name the file system takes can be written: the temporary file beside it has a name
/// within NAME_MAX (255 bytes) too.
@Suite struct LongOutputNameTests {
    /// 255 bytes: "é" is two.
    static let longestASCII = String(repeating: "a", count: 251) + ".gif"
    static let longestAccented = String(repeating: "é", count: 125) + "a.gif"

    @Test(arguments: [longestASCII, longestAccented, "a.gif", ".gif", String(repeating: "🌊", count: 62) + "a.gif"])
    func temporaryNamesFit(name: String) {
        let temp = AtomicFile.temporaryName(for: name)
        #expect(temp.utf8.count <= 255, "\(temp.utf8.count) bytes")
        #expect(temp.hasPrefix(".") && temp.hasSuffix(".tmp") && temp.contains(".wavegen-\(getpid())-"))
        // The name shows the target's whole, or as much of its start as fits.
        let body = temp.dropFirst()
        let visible = String(body[..<body.range(of: ".wavegen-\(getpid())-")!.lowerBound])
        #expect(name.hasPrefix(visible))
        #expect(visible == name || visible.utf8.count > AtomicFile.visibleNameBytes - 4)
    }

    @Test(arguments: [longestASCII, longestAccented])
    func renderWritesTheLongestName(name: String) throws {
        #expect(name.utf8.count == 255)
        let folder = try TemporaryFolder()
        let preset = try folder.write(blinkPreset, to: "p.json")
        let r = wavegen(["render", preset, "-o", folder.file(name)])
        #expect(r.code == 0, "\(r.err)")
        #expect(try folder.contents() == [name, "p.json"].sorted())
    }

    @Test(arguments: [longestASCII, longestAccented])
    func buildWritesTheLongestName(name: String) throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        let output = String(name.dropLast(4)) + ".{format}"
        try folder.writeFile("{\"jobs\": [{\"preset\": \"p.json\", \"output\": \"out/\(output)\", \"formats\": [\"gif\"]}]}", at: "wavegen.json")
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 0, "\(r.err)")
        #expect(try folder.contents("out") == [name])
    }

    /// A name one byte too long is refused before rendering, and leaves nothing behind.
    @Test func oneByteMoreIsRefusedCleanly() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write(blinkPreset, to: "p.json")
        let name = String(repeating: "a", count: 252) + ".gif"
        let r = wavegen(["render", preset, "-o", folder.file(name)])
        #expect(r.code == 73)
        #expect(r.errLines == ["Error: \(folder.file(name)): cannot write: the path has a name of 256 bytes (at most 255)"])
        #expect(try folder.contents() == ["p.json"])
    }
}
