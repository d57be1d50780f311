import Foundation
import Testing
import WaveTestSupport
import WaveGIF
import WaveKit
import WaveRender
import WaveWebP
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// examples/app-assets/wavegen.json, built in a temporary copy.
@Suite struct BuildExampleTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/app-assets")

    /// A copy of the example without its out/ folder.
    func copy() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(at: Self.example.appendingPathComponent("wavegen.json"), to: folder.url.appendingPathComponent("wavegen.json"))
        try FileManager.default.copyItem(at: Self.example.appendingPathComponent("presets"), to: folder.url.appendingPathComponent("presets"))
        return folder
    }

    static let loaderFiles = ["loader/spinner.gif", "loader/spinner.webp", "loader/spinner@2x.gif", "loader/spinner@2x.webp",
                              "loader/spinner@3x.gif", "loader/spinner@3x.webp"]
    static let brandFiles = ["brand/brand-orb-light.gif", "brand/brand-orb-light.webp", "brand/brand-orb-light@2x.gif", "brand/brand-orb-light@2x.webp",
                             "brand/brand-orb-dark.gif", "brand/brand-orb-dark.webp", "brand/brand-orb-dark@2x.gif", "brand/brand-orb-dark@2x.webp"]
    static let progressFiles = stride(from: 0, through: 100, by: 10).map { "progress/classic-" + NumberText.padded($0, digits: 3) + ".gif" }
    static let allFiles = loaderFiles + brandFiles + progressFiles

    @Test func theExampleManifestIsValid() throws {
        let manifest = try BuildManifest.load(Self.example.appendingPathComponent("wavegen.json").path)
        #expect(manifest.jobs.map(\.name) == ["loader", "brand", "progress"])
        let plan = try BuildPlan.make(manifest, overrides: [])
        #expect(plan.outputs.map { $0.path.replacingOccurrences(of: Self.example.path + "/out/", with: "") } == Self.allFiles)
        #expect(plan.warnings.isEmpty)
        for config in plan.configs {
            if case let .failure(f) = config.result { Issue.record("\(f.lines)") }
        }
    }

    @Test func buildRebuildChangeCheckAndBudget() throws {
        let folder = try copy()
        let manifest = folder.file("wavegen.json")
        let out = folder.path + "/out/"

        // A first build writes every output, in manifest order.
        let first = wavegen(["build", manifest])
        #expect(first.code == 0, "\(first.err)")
        #expect(first.err.isEmpty, "\(first.err)")
        #expect(first.paths("written") == Self.allFiles.map { out + $0 })
        #expect(first.outLines.last == "25 outputs: 25 written, 0 unchanged, 0 over budget, 0 failed")
        #expect(folder.regularFiles(under: "out") == Self.allFiles.sorted())
        let loader3x = try GIFDecoder.decode(try folder.bytes("out/loader/spinner@3x.gif"))
        #expect(loader3x.width == 222 && loader3x.height == 192)
        let darkWebP = try WebPAnimationDecoder.decode(try folder.bytes("out/brand/brand-orb-dark@2x.webp"))
        #expect(darkWebP.width == 192 && darkWebP.height == 192)
        #expect(Array(darkWebP.frames[0].prefix(4)) == [0x12, 0x12, 0x12, 255])
        let lightWebP = try WebPAnimationDecoder.decode(try folder.bytes("out/brand/brand-orb-light.webp"))
        #expect(Array(lightWebP.frames[0].prefix(4)) == [0xFA, 0xFA, 0xFA, 255])
        // The progress series: emptier to fuller. The bottom-left pixel is water from 10 % on,
        // and the top-left one only at 100 %.
        let empty = try GIFDecoder.decode(try folder.bytes("out/progress/classic-000.gif"))
        let full = try GIFDecoder.decode(try folder.bytes("out/progress/classic-100.gif"))
        let topLeft = { (gif: DecodedGIF) in Array(gif.frames[0].prefix(4)) }
        #expect(topLeft(empty) == [0xE3, 0xF2, 0xFD, 255])
        #expect(topLeft(full) != [0xE3, 0xF2, 0xFD, 255])

        // Building again rewrites nothing: the bytes are the same, and so are the times.
        try folder.backdate(under: "out")
        let second = wavegen(["build", manifest])
        #expect(second.code == 0, "\(second.err)")
        #expect(second.paths("unchanged") == Self.allFiles.map { out + $0 })
        #expect(second.outLines.last == "25 outputs: 0 written, 25 unchanged, 0 over budget, 0 failed")
        for name in Self.allFiles { #expect(try folder.modified("out/" + name) == backdatedTime, "\(name) was rewritten") }

        // Change the brand preset and spoil one loader file: --check lists exactly those and writes nothing.
        let presetPath = folder.file("presets/brand-orb.json")
        let preset = try String(contentsOfFile: presetPath, encoding: .utf8)
        #expect(preset.contains("\"level\": 0.55,"))
        try preset.replacingOccurrences(of: "\"level\": 0.55,", with: "\"level\": 0.65,")
            .write(toFile: presetPath, atomically: false, encoding: .utf8)
        let spoiled = Array(try folder.bytes("out/loader/spinner@2x.webp").dropLast(7))
        try Data(spoiled).write(to: URL(fileURLWithPath: folder.file("out/loader/spinner@2x.webp")))
        try FileManager.default.setAttributes([.modificationDate: backdatedTime], ofItemAtPath: folder.file("out/loader/spinner@2x.webp"))

        let check = wavegen(["build", manifest, "--check"])
        #expect(check.code == 1)
        // The brand outputs' inputs changed (stale); the spoiled file was changed by hand (modified).
        #expect(check.paths("stale") == Self.brandFiles.map { out + $0 })
        #expect(check.paths("modified") == [out + "loader/spinner@2x.webp"])
        #expect(check.paths("missing").isEmpty)
        #expect(check.outLines.last == "25 outputs: 16 unchanged, 0 missing, 8 stale, 1 modified, 0 over budget, 0 failed")
        #expect(check.errLines.contains { $0.hasPrefix("Error: jobs[0] (loader): \(out)loader/spinner@2x.webp: was modified") })
        #expect(check.errLines.contains { $0.hasPrefix("Error: jobs[1] (brand): \(out)brand/brand-orb-dark@2x.gif: is stale: since it was written, the preset changed (its file") })
        #expect(try folder.bytes("out/loader/spinner@2x.webp") == spoiled)
        for name in Self.allFiles { #expect(try folder.modified("out/" + name) == backdatedTime, "--check touched \(name)") }

        // A build rewrites the brand outputs and the spoiled file, and only those.
        let third = wavegen(["build", manifest])
        #expect(third.code == 0, "\(third.err)")
        #expect(third.paths("written") == (["loader/spinner@2x.webp"] + Self.brandFiles).map { out + $0 })
        #expect(third.outLines.last == "25 outputs: 9 written, 16 unchanged, 0 over budget, 0 failed")
        for name in Self.allFiles {
            let rewritten = name == "loader/spinner@2x.webp" || Self.brandFiles.contains(name)
            #expect((try folder.modified("out/" + name) != backdatedTime) == rewritten, "\(name)")
        }
        let check2 = wavegen(["build", manifest, "--check"])
        #expect(check2.code == 0, "\(check2.err)")
        #expect(check2.err.isEmpty)
        #expect(check2.outLines.last == "25 outputs: 25 unchanged, 0 missing, 0 stale, 0 modified, 0 over budget, 0 failed")

        // The loader job with a GIF budget tightened below the @3x file's size.
        let root = try JSONParser.parse(try folder.bytes("wavegen.json"))
        guard case let .array(jobs)? = root["jobs"]?.value else { Issue.record("no jobs"); return }
        let loader = jobs[0].serialized(indent: nil)
        #expect(loader.contains("\"gif\":40000"))
        let tight = loader.replacingOccurrences(of: "\"gif\":40000", with: "\"gif\":8000")
        let tightManifest = try folder.writeFile("{\"jobs\": [\(tight)]}", at: "tight.json")
        let before = try folder.bytes("out/loader/spinner@3x.gif")
        try FileManager.default.removeItem(atPath: folder.file("out/loader/spinner@3x.gif"))
        let budget = wavegen(["build", tightManifest, "--report", folder.file("report.json")])
        #expect(budget.code == 1)
        #expect(budget.paths("over-budget") == [out + "loader/spinner@3x.gif"])
        let size = NumberText.bytes(before.count)
        #expect(budget.outLines.contains("over-budget  \(String(repeating: " ", count: 8 - size.count))\(size)  \(out)loader/spinner@3x.gif  (budget 8.0 kB)"), "\(budget.out)")
        #expect(budget.outLines.last == "6 outputs: 0 written, 5 unchanged, 1 over budget, 0 failed")
        #expect(budget.errLines == ["Error: jobs[0] (loader): \(out)loader/spinner@3x.gif: \(before.count) bytes is over the budget of 8000 bytes (maxBytes.gif); not written"])
        #expect(!folder.hasFile("out/loader/spinner@3x.gif"))
        let report = try JSONParser.parse(try folder.bytes("report.json"))
        #expect(report["summary"]?["overBudget"]?.value == .number(1))
    }
}
