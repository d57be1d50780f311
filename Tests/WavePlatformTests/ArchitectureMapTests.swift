import Foundation
import Testing

/// docs/architecture.md's picture of the targets is the map a newcomer reads first: it names every
/// target Package.swift declares, and nothing Package.swift does not declare.
@Suite struct ArchitectureMapTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The library, executable and system-library targets of Package.swift (test targets and the
    /// tests' support library left out).
    static func declaredTargets() throws -> Set<String> {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = #/\.(target|executableTarget|systemLibrary)\(\s*name:\s*"([A-Za-z0-9_-]+)"/#
        return Set(manifest.matches(of: pattern).map { String($0.output.2) }).subtracting(["WaveTestSupport"])
    }

    /// The first code block after "## Targets" in docs/architecture.md.
    static func picture() throws -> String {
        let doc = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let section = try #require(doc.range(of: "\n## Targets\n")).upperBound
        let blocks = doc[section...].components(separatedBy: "```")
        try #require(blocks.count >= 3, "no code block under ## Targets")
        return blocks[1]
    }

    /// Names in the picture that look like targets: `Wave…`, `C` + a capital (the C wrappers),
    /// `wavegen…`.
    static func pictured(_ text: String) -> Set<String> {
        let pattern = #/(?:^|[^A-Za-z0-9_.-])(Wave[A-Z][A-Za-z]*|Wavegen[A-Z]+|C[A-Z][A-Za-z]+|wavegen(?:-[a-z]+)?)(?![A-Za-z0-9_.-])/#
        return Set(text.matches(of: pattern).map { String($0.output.1) })
    }

    @Test func thePictureNamesEveryTargetAndNoOther() throws {
        let declared = try Self.declaredTargets(), shown = Self.pictured(try Self.picture())
        #expect(declared.count >= 20, "too few targets read from Package.swift: \(declared.sorted())")
        #expect(declared.subtracting(shown).isEmpty, "targets missing from docs/architecture.md's picture: \(declared.subtracting(shown).sorted())")
        #expect(shown.subtracting(declared).isEmpty, "the picture names what Package.swift does not declare: \(shown.subtracting(declared).sorted())")
    }

    /// The check tells a missing or a made-up target.
    @Test func theCheckFindsWhatItLooksFor() {
        #expect(Self.pictured("WaveKit ── CGIF, wavegen-bench and wavegen (WaveRender/Writers)") == ["WaveKit", "CGIF", "wavegen-bench", "wavegen", "WaveRender"])
        #expect(Self.pictured("Glibc, Darwin, Cairo, wavegen.json, FrameRenderer, WAVE").isEmpty)
    }
}
