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

/// `wavegen build` on small manifests of tiny presets.
@Suite struct BuildCommandTests {
    /// A folder with two tiny presets and a manifest of two jobs (6 outputs).
    func project(_ manifest: String? = nil) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "presets/blue.json")
        try folder.writeFile(blinkPreset.replacingOccurrences(of: "#1E88E5", with: "#43A047"), at: "presets/green.json")
        try folder.writeFile(manifest ?? """
            {
              "jobs": [
                { "name": "blue", "preset": "presets/blue.json", "output": "out/{name}{scale}.{format}", "formats": ["gif", "webp"], "scales": [1, 2] },
                { "name": "green", "preset": "presets/green.json", "output": "out/green/{name}.{format}", "formats": ["gif", "webp"] }
              ]
            }
            """, at: "wavegen.json")
        return folder
    }

    @Test func buildsThenLeavesUnchangedFilesAlone() throws {
        let folder = try project()
        let manifest = folder.file("wavegen.json")
        let out = folder.path + "/out"
        let first = wavegen(["build", manifest])
        #expect(first.code == 0, "\(first.err)")
        #expect(first.err.isEmpty, "\(first.err)")
        #expect(first.paths("written") == ["\(out)/blue.gif", "\(out)/blue.webp", "\(out)/blue@2x.gif", "\(out)/blue@2x.webp",
                                           "\(out)/green/green.gif", "\(out)/green/green.webp"])
        #expect(first.outLines.last == "6 outputs: 6 written, 0 unchanged, 0 over budget, 0 failed")
        #expect(first.outLines.first == "written         858 B  \(out)/blue.gif", "\(first.out)")
        #expect(folder.regularFiles(under: "out") == ["blue.gif", "blue.webp", "blue@2x.gif", "blue@2x.webp", "green/green.gif", "green/green.webp"])
        let blue = try GIFDecoder.decode(try folder.bytes("out/blue.gif"))
        #expect(blue.width == 16 && blue.height == 16 && blue.frames.count == 10)
        let blue2x = try WebPAnimationDecoder.decode(try folder.bytes("out/blue@2x.webp"))
        #expect(blue2x.width == 32 && blue2x.height == 32)

        try folder.backdate(under: "out")
        let second = wavegen(["build", manifest])
        #expect(second.code == 0, "\(second.err)")
        #expect(second.paths("written").isEmpty)
        #expect(second.paths("unchanged").count == 6)
        #expect(second.outLines.first == "unchanged       858 B  \(out)/blue.gif", "\(second.out)")
        #expect(second.outLines.last == "6 outputs: 0 written, 6 unchanged, 0 over budget, 0 failed")
        for name in folder.regularFiles(under: "out") { #expect(try folder.modified("out/" + name) == backdatedTime, "\(name) was rewritten") }

        // Changing one preset rewrites its outputs only.
        try folder.writeFile(blinkPreset.replacingOccurrences(of: "#43A047", with: "#43A047").replacingOccurrences(of: "#1E88E5", with: "#E53935"),
                       at: "presets/blue.json")
        let third = wavegen(["build", manifest])
        #expect(third.code == 0, "\(third.err)")
        #expect(third.paths("written") == ["\(out)/blue.gif", "\(out)/blue.webp", "\(out)/blue@2x.gif", "\(out)/blue@2x.webp"])
        #expect(third.paths("unchanged") == ["\(out)/green/green.gif", "\(out)/green/green.webp"])
        #expect(third.outLines.last == "6 outputs: 4 written, 2 unchanged, 0 over budget, 0 failed")
        #expect(try folder.modified("out/green/green.gif") == backdatedTime)
        #expect(try folder.modified("out/blue.gif") != backdatedTime)
        #expect(strayTemporaries(try folder.contents("out")).isEmpty)
    }

    @Test func outputOrderIsTheManifestOrderWhateverTheJobCount() throws {
        var outputs: [String] = []
        for jobs in ["1", "2", "5"] {
            let folder = try project()
            let r = wavegen(["build", folder.file("wavegen.json"), "-j", jobs])
            #expect(r.code == 0, "\(r.err)")
            outputs.append(r.out.replacingOccurrences(of: folder.path, with: "FOLDER"))
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0] == outputs[2])
        #expect(outputs[0].hasPrefix("written         858 B  FOLDER/out/blue.gif\n"), "\(outputs[0])")
    }

    @Test func aFolderArgumentMeansItsWavegenJSON() throws {
        let folder = try project()
        let r = wavegen(["build", folder.path, "-q"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.isEmpty)
        #expect(r.err.isEmpty)
        #expect(folder.regularFiles(under: "out").count == 6)
    }

    @Test func checkFindsMissingAndStaleFilesAndWritesNothing() throws {
        let folder = try project()
        let manifest = folder.file("wavegen.json")
        let out = folder.path + "/out"

        // Nothing built yet: everything is missing, and --check creates nothing.
        let empty = wavegen(["build", manifest, "--check"])
        #expect(empty.code == 1)
        #expect(empty.paths("missing").count == 6)
        #expect(!folder.hasFile("out"))
        #expect(empty.outLines.last == "6 outputs: 0 unchanged, 6 missing, 0 stale, 0 modified, 0 over budget, 0 failed")

        #expect(wavegen(["build", manifest]).code == 0)
        let clean = wavegen(["build", manifest, "--check"])
        #expect(clean.code == 0, "\(clean.err)")
        #expect(clean.err.isEmpty)
        #expect(clean.outLines.last == "6 outputs: 6 unchanged, 0 missing, 0 stale, 0 modified, 0 over budget, 0 failed")

        try FileManager.default.removeItem(atPath: folder.file("out/blue@2x.gif"))
        let spoiled: [UInt8] = Array("not the right bytes".utf8)
        try Data(spoiled).write(to: URL(fileURLWithPath: folder.file("out/green/green.webp")))
        try folder.backdate(under: "out")
        let r = wavegen(["build", manifest, "--check"])
        #expect(r.code == 1)
        #expect(r.paths("missing") == ["\(out)/blue@2x.gif"])
        // A file changed by hand is "modified": its bytes are not those the lock records.
        #expect(r.paths("modified") == ["\(out)/green/green.webp"])
        #expect(r.outLines.last == "6 outputs: 4 unchanged, 1 missing, 0 stale, 1 modified, 0 over budget, 0 failed")
        #expect(r.errLines.contains("Error: jobs[0] (blue): \(out)/blue@2x.gif: is missing"), "\(r.err)")
        #expect(r.errLines.contains { $0.hasPrefix("Error: jobs[1] (green): \(out)/green/green.webp: was modified: its bytes are not those wavegen wrote") }, "\(r.err)")
        #expect(r.errLines.last?.hasPrefix("Error: 2 of 6 outputs are missing, out of date or orphaned; run 'wavegen build ") == true, "\(r.err)")
        // Nothing was written.
        #expect(!folder.hasFile("out/blue@2x.gif"))
        #expect(try folder.bytes("out/green/green.webp") == spoiled)
        for name in folder.regularFiles(under: "out") { #expect(try folder.modified("out/" + name) == backdatedTime) }

        let rebuild = wavegen(["build", manifest])
        #expect(rebuild.paths("written") == ["\(out)/blue@2x.gif", "\(out)/green/green.webp"])
        #expect(wavegen(["build", manifest, "--check"]).code == 0)
    }

    @Test func anOutputOverBudgetFailsAndIsNotWritten() throws {
        let folder = try project("""
            {"jobs": [
              { "name": "tight", "preset": "presets/blue.json", "output": "out/{name}.{format}", "formats": ["gif", "webp"], "maxBytes": {"gif": 20} },
              { "name": "all", "preset": "presets/green.json", "output": "out/all.webp", "maxBytes": 20 }
            ]}
            """)
        let out = folder.path + "/out"
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 1)
        #expect(r.paths("over-budget") == ["\(out)/blue.gif", "\(out)/all.webp"])
        #expect(r.paths("written") == ["\(out)/blue.webp"])
        #expect(r.outLines.last == "3 outputs: 1 written, 0 unchanged, 2 over budget, 0 failed")
        #expect(r.outLines.first?.hasSuffix("/out/blue.gif  (budget 20 B)") == true, "\(r.out)")
        let gif = try #require(r.errLines.first)
        #expect(gif.hasPrefix("Error: jobs[0] (tight): \(out)/blue.gif: "), "\(gif)")
        #expect(gif.hasSuffix(" bytes is over the budget of 20 bytes (maxBytes.gif); not written"), "\(gif)")
        #expect(r.errLines.count == 2)
        #expect(r.errLines.last?.contains("jobs[1] (all): \(out)/all.webp: ") == true)
        #expect(r.errLines.last?.hasSuffix("over the budget of 20 bytes (maxBytes); not written") == true)
        #expect(folder.regularFiles(under: "out") == ["blue.webp"])
    }

    @Test func aFailedJobDoesNotStopTheOthers() throws {
        let folder = try project("""
            {"jobs": [
              { "name": "bad", "preset": "presets/bad.json", "output": "out/bad.gif" },
              { "name": "good", "preset": "presets/blue.json", "output": "out/good.{format}", "formats": ["gif", "webp"] },
              { "name": "typo", "preset": "presets/green.json", "output": "out/{variant}.gif", "variants": {"ok": {}, "odd": {"layers[0].colour": "#FFF"}} }
            ]}
            """)
        try folder.writeFile(#"{"fps": 0}"#, at: "presets/bad.json")
        let out = folder.path + "/out"
        let r = wavegen(["build", folder.file("wavegen.json"), "-j", "3"])
        #expect(r.code == 65)
        #expect(r.paths("failed") == ["\(out)/bad.gif", "\(out)/odd.gif"])
        #expect(r.paths("written") == ["\(out)/good.gif", "\(out)/good.webp", "\(out)/ok.gif"])
        #expect(r.outLines.last == "5 outputs: 3 written, 0 unchanged, 0 over budget, 2 failed")
        #expect(r.errLines == [
            "\(folder.path)/presets/bad.json:1:9: error: at fps: must be at least 0.1 and at most 240, got 0",
            "\(folder.path)/wavegen.json:4:135: error: at jobs[2].variants.odd.layers[0].colour: unknown key (did you mean \"color\"?)",
        ])
        #expect(folder.regularFiles(under: "out") == ["good.gif", "good.webp", "ok.gif"])
    }

    @Test func aMissingPresetExits66AndOthersStillBuild() throws {
        let folder = try project("""
            {"jobs": [
              { "preset": "presets/none.json", "output": "out/none.gif" },
              { "preset": "nosuchbundledpreset", "output": "out/nobundle.gif" },
              { "preset": "presets/blue.json", "output": "out/blue.gif" }
            ]}
            """)
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 66)
        // Each named at its job's preset in the manifest.
        let manifest = folder.file("wavegen.json")
        #expect(r.errLines.first == "\(manifest):2:15: error: at jobs[0].preset: no preset \"presets/none.json\" (\(folder.path)/presets/none.json): no such file")
        #expect(r.errLines.dropFirst().first?.hasPrefix("\(manifest):3:15: error: at jobs[1].preset: no preset \"nosuchbundledpreset\": no such file and no bundled preset") == true, "\(r.err)")
        #expect(folder.regularFiles(under: "out") == ["blue.gif"])
    }

    @Test func bundledPresetsAndTheTemplateFields() throws {
        let folder = try project("""
            {"jobs": [
              { "preset": "classic", "output": "out/{name}-{variant}{scale}-{level}.{format}",
                "set": {"size": [16, 16], "fps": 10, "duration": 1},
                "formats": ["webp", "gif"], "scales": [1, 2], "levels": {"from": 0, "to": 1, "step": 0.5},
                "variants": {"light": {}, "dark": {"background": "#121212"}} }
            ]}
            """)
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 0, "\(r.err)")
        let names = r.paths("written").map { ($0 as NSString).lastPathComponent }
        var expected: [String] = []
        for variant in ["light", "dark"] {
            for level in ["000", "050", "100"] {
                for scale in ["", "@2x"] {
                    for format in ["webp", "gif"] { expected.append("classic-\(variant)\(scale)-\(level).\(format)") }
                }
            }
        }
        #expect(names == expected)
        #expect(r.outLines.last == "24 outputs: 24 written, 0 unchanged, 0 over budget, 0 failed")
        let dark = try GIFDecoder.decode(try folder.bytes("out/classic-dark@2x-000.gif"))
        #expect(dark.width == 32)
        #expect(Array(dark.frames[0].prefix(4)) == [0x12, 0x12, 0x12, 255])
    }

    /// "lottie" in "formats" writes NAME.json ({format} is the extension); a template ending in .json
    /// is a Lottie; the lock covers them like any output, and --prune keeps them. (With several
    /// scales the Lottie is written once, at scale 1: see BuildAssetLayoutTests.)
    @Test func lottieOutputsAreJSONFiles() throws {
        let folder = try project("""
            {"jobs": [
              { "name": "blue", "preset": "presets/blue.json", "output": "out/{name}{scale}.{format}", "formats": ["gif", "lottie"], "scales": [1, 2] },
              { "name": "plain", "preset": "presets/green.json", "output": "out/plain.json" }
            ]}
            """)
        let out = folder.path + "/out"
        let first = wavegen(["build", folder.file("wavegen.json")])
        #expect(first.code == 0, "\(first.err)")
        #expect(first.paths("written") == ["\(out)/blue.gif", "\(out)/blue.json", "\(out)/blue@2x.gif", "\(out)/plain.json"])
        let lottie = try JSONParser.parse(try folder.bytes("out/blue.json"))
        #expect(lottie["w"]?.value == .number(16) && lottie["ip"]?.value == .number(0))
        #expect(try folder.bytes("out/blue.json") == RenderPipeline().render(folder.file("presets/blue.json"), format: .lottie))
        let check = wavegen(["build", folder.file("wavegen.json"), "--check"])
        #expect(check.code == 0, "\(check.out)")
        #expect(check.outLines.last == "4 outputs: 4 unchanged, 0 missing, 0 stale, 0 modified, 0 over budget, 0 failed")
        // Without @2x and Lottie, its Lottie is an orphan like its GIF; a JSON file no template makes is not.
        try folder.writeFile("{}", at: "out/notes.json")
        try folder.writeFile("""
            {"jobs": [
              { "name": "blue", "preset": "presets/blue.json", "output": "out/{name}{scale}.{format}", "formats": ["gif"], "scales": [1] },
              { "name": "plain", "preset": "presets/green.json", "output": "out/plain.json" }
            ]}
            """, at: "wavegen.json")
        let prune = wavegen(["build", folder.file("wavegen.json"), "--prune"])
        #expect(prune.code == 0, "\(prune.err)")
        #expect(prune.paths("pruned") == ["\(out)/blue.json", "\(out)/blue@2x.gif"])
        #expect(folder.regularFiles(under: "out") == ["blue.gif", "notes.json", "plain.json"])
    }

    @Test func commandLineOverridesComeAfterTheJobs() throws {
        let folder = try project("""
            {"jobs": [
              { "preset": "presets/blue.json", "output": "out/{variant}.gif", "set": {"background": "#FF0000"},
                "variants": {"a": {}, "b": {"level": 0.3}} }
            ]}
            """)
        let manifest = folder.file("wavegen.json")
        #expect(wavegen(["build", manifest]).code == 0)
        #expect(Array(try GIFDecoder.decode(try folder.bytes("out/a.gif")).frames[0].prefix(4)) == [255, 0, 0, 255])
        #expect(Array(try GIFDecoder.decode(try folder.bytes("out/b.gif")).frames[0].prefix(4)) == [255, 0, 0, 255])

        let r = wavegen(["build", manifest, "--background", "#00FF00", "--size", "20x12", "--set", "fps=5"])
        #expect(r.code == 0, "\(r.err)")
        for name in ["a", "b"] {
            let gif = try GIFDecoder.decode(try folder.bytes("out/\(name).gif"))
            #expect(Array(gif.frames[0].prefix(4)) == [0, 255, 0, 255])
            #expect(gif.width == 20 && gif.height == 12)
            // At 5 fps the loop of 10 frames (2 wavelengths) lasts 2 s.
            #expect(gif.delays == Array(repeating: 20, count: 10))
        }
        // A bad override on the command line names --set.
        let bad = wavegen(["build", manifest, "--set", "fps=0"])
        #expect(bad.code == 65)
        #expect(bad.errLines == ["--set: error: at fps: must be at least 0.1 and at most 240, got 0"], "each problem is printed once")
    }

    @Test func reportAndJSONSummary() throws {
        let folder = try project("""
            {"jobs": [
              { "name": "blue", "preset": "presets/blue.json", "output": "out/{name}{scale}.{format}", "formats": ["gif", "webp"], "scales": [2], "maxBytes": {"webp": 10} }
            ]}
            """)
        let report = folder.file("report.json")
        let r = wavegen(["build", folder.file("wavegen.json"), "--json", "--report", report])
        #expect(r.code == 1)
        let printed = try JSONParser.parse(r.out)
        let written = try JSONParser.parse(try folder.bytes("report.json"))
        #expect(printed == written)
        #expect(printed["manifest"]?.value == .string(folder.file("wavegen.json")))
        #expect(printed["check"]?.value == .bool(false))
        #expect(printed["wavegenVersion"]?.value == .string(Wavegen.versionDescription))
        #expect(printed["exitCode"]?.value == .number(1))
        #expect(printed["summary"]?["written"]?.value == .number(1))
        #expect(printed["summary"]?["overBudget"]?.value == .number(1))
        guard case let .array(outputs)? = printed["outputs"]?.value else { Issue.record("no outputs"); return }
        #expect(outputs.count == 2)
        let gif = outputs[0]
        #expect(gif["path"]?.value == .string(folder.path + "/out/blue@2x.gif"))
        #expect(gif["format"]?.value == .string("gif"))
        #expect(gif["status"]?.value == .string("written"))
        #expect(gif["width"]?.value == .number(32))
        #expect(gif["height"]?.value == .number(32))
        #expect(gif["frames"]?.value == .number(10))
        #expect(gif["fps"]?.value == .number(10))
        #expect(gif["duration"]?.value == .number(1))
        #expect(gif["bytes"]?.value == .number(Double(try folder.bytes("out/blue@2x.gif").count)))
        #expect(gif["scale"]?.value == .number(2))
        #expect(gif["job"]?.value == .number(0))
        #expect(gif["jobName"]?.value == .string("blue"))
        if case let .number(n)? = gif["paletteSize"]?.value { #expect(n >= 2 && n <= 256) } else { Issue.record("no paletteSize") }
        if case let .number(ms)? = gif["milliseconds"]?.value { #expect(ms >= 0) } else { Issue.record("no milliseconds") }
        let webp = outputs[1]
        #expect(webp["status"]?.value == .string("over-budget"))
        #expect(webp["maxBytes"]?.value == .number(10))
        #expect(webp["errors"]?.serialized(indent: nil).contains("over the budget of 10 bytes") == true)
        // --json replaces the text lines; errors still go to stderr.
        #expect(!r.out.contains("written  "))
        #expect(r.errLines.count == 1)
    }

    @Test func progressOnlyOnATerminalAndNeverWithQuiet() throws {
        let folder = try project()
        let manifest = folder.file("wavegen.json")
        let plain = wavegen(["build", manifest])
        #expect(!plain.err.contains("\r"))
        #expect(!plain.err.contains("[1/6]"))

        let terminal = wavegenOnATerminal(["build", manifest, "-j", "1"])
        #expect(terminal.code == 0)
        // The count finished, then the outputs being rendered now.
        #expect(terminal.err.contains("\r\u{1B}[K[0/6] \(folder.path)/out/blue.gif"), "\(terminal.err.debugDescription)")
        #expect(terminal.err.contains("[5/6] \(folder.path)/out/green/green.webp"))
        #expect(terminal.err.contains("[6/6] "))
        #expect(terminal.err.hasSuffix("\r\u{1B}[K"), "the progress line is not cleared: \(terminal.err.debugDescription)")
        #expect(!terminal.err.contains("\n"))
        #expect(terminal.outLines.count == 7)

        let quiet = wavegenOnATerminal(["build", manifest, "--quiet"])
        #expect(quiet.code == 0)
        #expect(quiet.err.isEmpty)
        #expect(quiet.out.isEmpty)
    }

    @Test func manifestErrors() throws {
        let folder = try TemporaryFolder()
        let missing = wavegen(["build", folder.file("none.json")])
        #expect(missing.code == 66)
        #expect(missing.errLines == ["\(folder.path)/none.json: error: no such file"])
        let noDefault = wavegen(["build", folder.path])
        #expect(noDefault.code == 66)
        #expect(noDefault.errLines == ["\(folder.path)/wavegen.json: error: no such file"])

        let path = try folder.writeFile(#"{"jobs": [{"preset": "classic", "outptu": "x.gif"}]}"#, at: "bad.json")
        let bad = wavegen(["build", path])
        #expect(bad.code == 65)
        #expect(bad.errLines == [
            "\(path):1:11: error: at jobs[0].output: is required: the output path template, e.g. \"out/{name}{scale}.{format}\"",
            "\(path):1:43: error: at jobs[0].outptu: unknown key (did you mean \"output\"?)",
        ])
        #expect(bad.out.isEmpty)
    }

    /// A bad value that came from the manifest is named by the manifest entry that set it, at its
    /// line and column.
    @Test func overrideProblemsNameTheirManifestEntry() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(#"{"jobs": [{"preset": "classic", "output": "out/a.gif", "set": {"fps": 0}, "variants": {"v": {"level": 2}}}]}"#,
                             at: "wavegen.json")
        let r = wavegen(["build", folder.path, "--check"])
        #expect(r.code == 65)
        #expect(r.errLines == [
            "\(folder.path)/wavegen.json:1:71: error: at jobs[0].set.fps: must be at least 0.1 and at most 240, got 0",
            "\(folder.path)/wavegen.json:1:103: error: at jobs[0].variants.v.level: must be at least 0 and at most 1, got 2",
        ])
        try folder.writeFile(#"{"jobs": [{"preset": "classic", "output": "out/a.gif", "variants": {"v": {"extends": "dark"}}}]}"#,
                             at: "wavegen.json")
        let e = wavegen(["build", folder.path, "--check"])
        #expect(e.code == 65)
        #expect(e.errLines == ["\(folder.path)/wavegen.json:1:86: error: at jobs[0].variants.v.extends: cannot be overridden; only a preset file extends another"])
    }

    @Test func collidingOutputsNameBothJobs() throws {
        let folder = try project("""
            {"jobs": [
              { "name": "one", "preset": "presets/blue.json", "output": "out/same.gif" },
              { "name": "two", "preset": "presets/green.json", "output": "out/same.gif" },
              { "name": "three", "preset": "classic", "output": "out/c.{format}", "formats": ["gif"], "scales": [1, 2] }
            ]}
            """)
        let path = folder.file("wavegen.json")
        let r = wavegen(["build", path])
        #expect(r.code == 65)
        #expect(r.errLines == [
            "\(path):3:62: error: at jobs[1].output: \(folder.path)/out/same.gif would be written twice: by jobs[0] (one) [gif] and by jobs[1] (two) [gif]",
            "\(path):4:53: error: at jobs[2].output: \(folder.path)/out/c.gif would be written twice: by jobs[2] (three) [gif @1x] and by jobs[2] (three) [gif @2x]; add {scale} to the output template",
        ])
        #expect(!folder.hasFile("out"))
    }

    @Test(arguments: [
        (["build", "a.json", "b.json"], "build takes one manifest, got 2"),
        (["build", "-j", "0"], "--jobs expects a whole number ≥ 1, got '0'"),
        (["build", "--jobs", "many"], "--jobs expects a whole number ≥ 1, got 'many'"),
        (["build", "--set", "nokey"], "--set expects key=value with a key path like layers[0].color, got 'nokey'"),
        (["build", "--chek"], "unknown option '--chek' (did you mean '--check'?)"),
    ])
    func badArguments(args: [String], message: String) {
        let r = wavegen(args)
        #expect(r.code == 64)
        #expect(r.errLines.first == "Error: \(message)")
        #expect(r.errLines.dropFirst().first?.hasPrefix("Usage: wavegen build") == true)
    }

    @Test func helpAndOverview() {
        let help = wavegen(["help", "build"])
        #expect(help.code == 0)
        #expect(help.out.contains("USAGE: wavegen build [<manifest>]"))
        #expect(help.out.contains("--check"))
        #expect(help.out.contains("-j, --jobs <n>"))
        #expect(help.out.contains("--set <key=value>"))
        let overview = wavegen(["--help"])
        #expect(overview.outLines.contains { $0.hasPrefix("  build ") })
        #expect(overview.outLines.contains { $0.hasPrefix("  preview ") })
    }

    @Test func reportInAMissingFolderFailsBeforeBuilding() throws {
        let folder = try project()
        let r = wavegen(["build", folder.file("wavegen.json"), "--report", folder.file("no/such/report.json")])
        #expect(r.code == 73)
        #expect(!folder.hasFile("out"))
    }

    @Test func anOutputThatIsAFolderFails() throws {
        let folder = try project(#"{"jobs": [{"preset": "presets/blue.json", "output": "out/x.gif"}, {"preset": "presets/green.json", "output": "out/y.gif"}]}"#)
        try FileManager.default.createDirectory(atPath: folder.file("out/x.gif"), withIntermediateDirectories: true)
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 1)
        #expect(r.errLines == ["Error: jobs[0] (presets/blue.json): \(folder.path)/out/x.gif: cannot write: is a directory"])
        #expect(r.paths("written") == ["\(folder.path)/out/y.gif"])
    }
}
