import Foundation
import Testing
import WaveGIF
import WaveKit
import WaveTestSupport
import WaveRender
import WaveWebP
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// `render --max-bytes` and a manifest's `"fit": true`, as a user runs them.
@Suite struct FitCommandTests {
    static let scene = fitScenePreset

    func plainSize(_ folder: TemporaryFolder, _ preset: String, _ name: String) throws -> Int {
        let r = wavegen(["render", preset, "-o", folder.file(name), "-q"])
        #expect(r.code == 0)
        return try folder.bytes(name).count
    }

    @Test(arguments: ["gif", "webp"])
    func aBudgetBelowTheFileIsMetAndSaidHow(ext: String) throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write(FitCommandTests.scene, to: "scene.json")
        let plain = try plainSize(folder, preset, "plain.\(ext)")
        let budget = plain * 3 / 4
        let r = wavegen(["render", preset, "-o", folder.file("fit.\(ext)"), "--max-bytes", String(budget)])
        #expect(r.code == 0, "\(r.err)")
        let bytes = try folder.bytes("fit.\(ext)")
        #expect(bytes.count <= budget)
        let line = try #require(r.errLines.first { $0.contains("fits") })
        #expect(line.hasPrefix(folder.file("fit.\(ext)") + ": fits \(NumberText.grouped(budget)) bytes with "))
        #expect(line.contains("\(NumberText.grouped(bytes.count)) bytes, ") && line.hasSuffix(" dB PSNR against the full-quality file"))
        // The file decodes, and the same command gives the same bytes.
        if ext == "gif" { #expect(try GIFDecoder.decode(bytes).frames.count >= 1) } else { #expect(try WebPAnimationDecoder.decode(bytes).frames.count >= 1) }
        #expect(wavegen(["render", preset, "-o", folder.file("again.\(ext)"), "--max-bytes", String(budget), "-q"]).code == 0)
        #expect(try folder.bytes("again.\(ext)") == bytes)
    }

    /// On a transparent background a GIF is judged, and its PSNR said, on its matte page.
    @Test(arguments: ["gif", "webp"])
    func aTransparentGIFIsJudgedOnItsMatte(ext: String) throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write(FitCommandTests.scene.replacingOccurrences(of: "\"#FFFFFF\"", with: "\"transparent\""),
                                      to: "scene.json")
        let plain = try plainSize(folder, preset, "plain.\(ext)")
        let r = wavegen(["render", preset, "-o", folder.file("fit.\(ext)"), "--max-bytes", String(plain * 3 / 4)])
        #expect(r.code == 0, "\(r.err)")
        let line = try #require(r.errLines.first { $0.contains("fits") })
        #expect(line.hasSuffix(ext == "gif" ? " dB PSNR against the full-quality file on its #FFFFFF matte"
                                            : " dB PSNR against the full-quality file"), "\(line)")
    }

    @Test func aFileWithinTheBudgetIsUntouched() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write(FitCommandTests.scene, to: "scene.json")
        let plain = try plainSize(folder, preset, "plain.gif")
        let r = wavegen(["render", preset, "-o", folder.file("fit.gif"), "--max-bytes", "1MB"])
        #expect(r.code == 0)
        #expect(try folder.bytes("fit.gif").count == plain)
        #expect(try folder.bytes("fit.gif") == folder.bytes("plain.gif"))
        #expect(r.err.contains("fits 1,000,000 bytes as it is (\(NumberText.grouped(plain)) bytes)"))
    }

    @Test func nothingFitsExitsOneAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write(FitCommandTests.scene, to: "scene.json")
        let r = wavegen(["render", preset, "-o", folder.file("x.gif"), "--max-bytes", "100"])
        #expect(r.code == 1)
        #expect(r.errLines.count == 1)
        #expect(r.err.contains("x.gif: nothing fits in 100 bytes: the smallest file reached is "))
        #expect(r.err.contains("with edgeStep 128, gif.lossy 128 and 10 fps (every 2nd frame); not written"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.gif")))
        #expect(strayTemporaries(try folder.contents()).isEmpty)
        // A vector file has nothing to turn: checked, not tuned.
        let svg = wavegen(["render", preset, "-o", folder.file("x.svg"), "--max-bytes", "100"])
        #expect(svg.code == 1)
        #expect(svg.err.contains("the SVG is ") && svg.err.contains("has no quality knobs to turn"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.svg")))
    }

    @Test(arguments: ["0", "-3", "lots", "40 MBytes", "1.5"])
    func aBadSizeIsAUsageError(value: String) throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "spinner", "-o", folder.file("x.gif"), "--max-bytes", value])
        #expect(r.code == 64)
        #expect(r.errLines.first == "Error: --max-bytes expects a size in bytes such as 40000, 40kB or 39KiB, got '\(value)'")
    }

    @Test func verboseListsEveryFileTried() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write(FitCommandTests.scene, to: "scene.json")
        let plain = try plainSize(folder, preset, "plain.gif")
        let r = wavegen(["render", preset, "-o", folder.file("fit.gif"), "--max-bytes", String(plain - 1), "-v"])
        #expect(r.code == 0)
        let tried = r.errLines.filter { $0.hasPrefix("note: fit: ") }
        #expect(tried.first == "note: fit: the preset as it is: \(NumberText.grouped(plain)) bytes, exact")
        #expect(tried.count >= 3)
    }

    @Test func aManifestJobFitsItsOutputsAndTheLockFollowsTheBudget() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(FitCommandTests.scene, at: "scene.json")
        let plain = try plainSize(folder, folder.file("scene.json"), "plain.gif")
        func manifest(_ budget: Int) -> String {
            """
            {"jobs": [{"preset": "scene.json", "output": "out/{name}.gif", "maxBytes": \(budget), "fit": true}]}
            """
        }
        try folder.writeFile(manifest(plain * 3 / 4), at: "wavegen.json")
        let first = wavegen(["build", folder.path])
        #expect(first.code == 0, "\(first.err)")
        #expect(try folder.bytes("out/scene.gif").count <= plain * 3 / 4)
        #expect(first.outLines.first { $0.contains("out/scene.gif") }?.contains("(fitted: ") == true)
        // Built again: unchanged. Another budget: stale until rebuilt.
        #expect(wavegen(["build", folder.path]).paths("unchanged") == [folder.file("out/scene.gif")])
        try folder.writeFile(manifest(plain / 2), at: "wavegen.json")
        let check = wavegen(["build", folder.path, "--check"])
        #expect(check.code == 1)
        #expect(check.paths("stale") == [folder.file("out/scene.gif")])
        #expect(wavegen(["build", folder.path]).code == 0)
        #expect(try folder.bytes("out/scene.gif").count <= plain / 2)
        // Too small: over budget, named with what was reached; the file on disk stays.
        let kept = try folder.bytes("out/scene.gif")
        try folder.writeFile(manifest(100), at: "wavegen.json")
        let over = wavegen(["build", folder.path])
        #expect(over.code == 1)
        #expect(over.paths("over-budget") == [folder.file("out/scene.gif")])
        #expect(over.err.contains("out/scene.gif: nothing fits in 100 bytes: the smallest file reached is "))
        #expect(try folder.bytes("out/scene.gif") == kept)
    }

    /// The lock records what a fit chose; a build whose file is missing (a fresh checkout with the
    /// lock committed) takes that choice back when it makes the very file the lock records, and
    /// otherwise searches again. A record edited by hand never changes the file.
    @Test func aFitRecordedInTheLockIsTakenBackWhenTheFileIsMissing() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(FitCommandTests.scene, at: "scene.json")
        let plain = try plainSize(folder, folder.file("scene.json"), "plain.gif")
        try folder.writeFile("""
            {"jobs": [{"preset": "scene.json", "output": "out/{name}.gif", "maxBytes": \(plain / 2), "fit": true}]}
            """, at: "wavegen.json")
        #expect(wavegen(["build", folder.path]).code == 0)
        let file = try folder.bytes("out/scene.gif"), lock = try folder.text("wavegen.lock")
        let line = try #require(lock.split(separator: "\n").first { $0.contains("out/scene.gif") })
        let record = try #require(line.range(of: #""fit": \{[^}]*\}"#, options: .regularExpression).map { String(line[$0]) })
        #expect(record != "\"fit\": {}", "\(line)")
        for edited in [record, "\"fit\": {\"edgeStep\": 128}", "\"fit\": {\"edgeStep\": 5}", "\"fit\": {\"warp\": 9}", "\"fit\": {\"edgeStep\": \"x\"}", "\"fit\": 7", "\"fit\": {}"] {
            try folder.writeFile(lock.replacingOccurrences(of: record, with: edited), at: "wavegen.lock")
            try FileManager.default.removeItem(atPath: folder.file("out/scene.gif"))
            let r = wavegen(["build", folder.path])
            #expect(r.code == 0, "\(edited): \(r.err)")
            #expect(try folder.bytes("out/scene.gif") == file, "\(edited)")
            #expect(try folder.text("wavegen.lock") == lock, "\(edited)")
        }
        // Built again: unchanged, the record kept.
        #expect(wavegen(["build", folder.path]).paths("unchanged") == [folder.file("out/scene.gif")])
        #expect(try folder.text("wavegen.lock") == lock)
    }

    @Test func fitNeedsABudgetAndABoolean() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(#"{"jobs": [{"preset": "spinner", "output": "out/a.gif", "fit": true}]}"#, at: "wavegen.json")
        let missing = wavegen(["build", folder.path])
        #expect(missing.code == 65)
        #expect(missing.err.contains("wavegen.json:1:63: error: at jobs[0].fit: fits outputs to their \"maxBytes\", but the job has none"))
        try folder.writeFile(#"{"jobs": [{"preset": "spinner", "output": "out/a.gif", "maxBytes": 4000, "fit": "yes"}]}"#, at: "wavegen.json")
        let notBool = wavegen(["build", folder.path])
        #expect(notBool.code == 65)
        #expect(notBool.err.contains("error: at jobs[0].fit: expected true (fit outputs over \"maxBytes\" by turning quality knobs) or false, got \"yes\""))
    }
}
