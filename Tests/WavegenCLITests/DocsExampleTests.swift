import Foundation
import Testing
import WaveTestSupport
import WaveKit
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// The numbers docs/manifest.md quotes are those of examples/app-assets as wavegen builds it now:
/// every size on a `loader` output line, the over-budget and stale messages, and the JSON report's
/// example output.
@Suite struct DocsExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func manifestDocsQuoteRealSizes() throws {
        let folder = try TemporaryFolder()
        let example = Self.root.appendingPathComponent("examples/app-assets")
        for item in ["wavegen.json", "presets"] {
            try FileManager.default.copyItem(at: example.appendingPathComponent(item), to: folder.url.appendingPathComponent(item))
        }
        let r = wavegen(["build", folder.file("wavegen.json"), "--json"])
        #expect(r.code == 0, "\(r.err)")
        func size(_ name: String) throws -> Int { try folder.bytes("out/loader/" + name).count }

        let docs = try String(contentsOf: Self.root.appendingPathComponent("docs/manifest.md"), encoding: .utf8)
        var checked = 0
        for line in docs.split(separator: "\n").map(String.init) {
            // Text output: "written       3.8 kB  out/loader/spinner.gif".
            let fields = line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if fields.count >= 3, ["written", "unchanged", "over-budget", "missing", "stale"].contains(fields[0]), fields[2].hasPrefix("out/loader/") {
                #expect(fields[1] == NumberText.bytes(try size(String(fields[2].dropFirst(11)))), "\(line)")
                checked += 1
            }
            if line.contains("spinner@3x.gif:"), let n = line.firstNumber(before: " bytes is over the budget") {
                #expect(n == (try size("spinner@3x.gif")), "\(line)")
                checked += 1
            }
            if line.contains("spinner@2x.webp:"), let n = line.firstNumber(before: " rendered)") {
                #expect(n == (try size("spinner@2x.webp")), "\(line)")
                checked += 1
            }
            if let n = line.firstNumber(before: ",", after: "\"bytes\": ") {
                #expect(n == (try size("spinner@2x.gif")), "\(line)")
                checked += 1
            }
        }
        #expect(checked >= 6, "the docs' examples were not found")
    }
}

extension String {
    /// The whole number just before `end` (after `start`, when given), if the line has one.
    func firstNumber(before end: String, after start: String? = nil) -> Int? {
        guard let e = range(of: end) else { return nil }
        var head = self[..<e.lowerBound]
        if let start {
            guard let s = head.range(of: start) else { return nil }
            head = head[s.upperBound...]
        }
        return Int(head.reversed().prefix { $0.isNumber }.reversed().map(String.init).joined())
    }
}
