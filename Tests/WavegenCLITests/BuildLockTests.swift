import Foundation
import Testing
import WaveTestSupport
import WaveKit
import WaveRender
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// wavegen.lock: what a build renders, what --check reports without rendering, orphans, --job,
/// --list and the folder rules.
@Suite struct BuildLockTests {
    func project() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "presets/blue.json")
        try writeManifest(folder, scales: "[1, 2]")
        return folder
    }

    func writeManifest(_ folder: TemporaryFolder, scales: String, set: String = "{}") throws {
        try folder.writeFile("""
            {
              "jobs": [
                { "name": "blue", "preset": "presets/blue.json", "output": "out/{name}{scale}.{format}", "formats": ["gif", "webp"], "scales": \(scales), "set": \(set) },
                { "name": "spin", "preset": "spinner", "output": "out/spin/{name}.gif", "set": {"size": [24, 20]} }
              ]
            }
            """, at: "wavegen.json")
    }

    /// The outputs a JSON report says were rendered (a rendered output has a width).
    func rendered(_ r: RunResult) throws -> [String] {
        let root = try JSONParser.parse(Array(r.out.utf8))
        guard case let .array(outputs)? = root["outputs"]?.value else { return [] }
        return outputs.compactMap { o in
            guard case .number? = o["width"]?.value, case let .string(p)? = o["path"]?.value else { return nil }
            return (p as NSString).lastPathComponent
        }
    }

    @Test func aRebuildAndACheckRenderNothingWhenNothingChanged() throws {
        let folder = try project()
        let manifest = folder.file("wavegen.json")
        let first = wavegen(["build", manifest, "--json"])
        #expect(first.code == 0, "\(first.err)")
        #expect(try rendered(first).count == 5)
        let lock = try String(contentsOfFile: folder.file("wavegen.lock"), encoding: .utf8)
        let lines = lock.split(separator: "\n").map(String.init)
        let entries = lines.filter { $0.contains("\"input\"") }
        #expect(entries.count == 5)
        #expect(entries == entries.sorted(), "entries are not sorted by path")
        #expect(entries.first?.hasPrefix("    \"out/blue.gif\": {\"input\": \"") == true, "\(lock)")

        let again = wavegen(["build", manifest, "--json"])
        #expect(again.code == 0)
        #expect(try rendered(again).isEmpty, "a no-change rebuild rendered")
        let check = wavegen(["build", manifest, "--check", "--json"])
        #expect(check.code == 0, "\(check.err)")
        #expect(try rendered(check).isEmpty, "--check rendered")
        #expect(try String(contentsOfFile: folder.file("wavegen.lock"), encoding: .utf8) == lock)
    }

    /// A changed encoder setting changes the input digest: --check calls those outputs stale and a
    /// build renders them (and only them) again.
    @Test func aChangedEncoderSettingInvalidates() throws {
        let folder = try project()
        let manifest = folder.file("wavegen.json")
        #expect(wavegen(["build", manifest]).code == 0)
        try writeManifest(folder, scales: "[1, 2]", set: #"{"webp": {"effort": 6}}"#)
        let check = wavegen(["build", manifest, "--check"])
        #expect(check.code == 1)
        #expect(check.paths("stale").map { ($0 as NSString).lastPathComponent } == ["blue.webp", "blue@2x.webp"])
        #expect(check.paths("unchanged").count == 3)
        let build = wavegen(["build", manifest, "--json"])
        #expect(build.code == 0)
        #expect(try rendered(build) == ["blue.webp", "blue@2x.webp"])
        #expect(wavegen(["build", manifest, "--check"]).code == 0)
    }

    @Test func inputDigestsCoverWhatDeterminesTheBytes() throws {
        let loader = PresetLoader.standard
        func digest(_ sets: [String], format: OutputFormat = .webp) throws -> String {
            let overrides = try sets.map { try #require(PresetOverride(parsing: $0)) }
            let (config, document) = try loader.loadDocument("orb", overrides: overrides)
            let loaded = BuildPlan.Loaded(config: config, plan: try LoopPlanner.plan(config), document: document)
            return try OutputDigest.input(loaded, format: format, fonts: FontDigests())
        }
        let base = try digest([])
        #expect(try digest([]) == base)
        #expect(try digest(["webp.effort=6"]) != base)
        #expect(try digest(["level=0.5"]) != base)
        #expect(try digest([], format: .gif) != base)
        // A format's own settings do not touch another format's digest.
        #expect(try digest(["gif.edges=cut"]) == base)
        #expect(try digest(["webp.effort=6"], format: .gif) == digest([], format: .gif))
        #expect(try digest(["gif.lossy=8"], format: .gif) != digest([], format: .gif))
        #expect(try digest(["gif.lossy=8"]) == base)
        // The same value written another way is the same input.
        #expect(try digest(["scale=1"]) == digest(["scale=1.0"]))
        #expect(OutputDigest.encoderIdentity.contains("wavegen-output \(OutputDigest.outputVersion)"))
    }

    /// A font named by family is digested as the file it resolves to: the same name resolving to
    /// another file (another font installed) is another input.
    @Test func theFontDigestFollowsTheResolvedFile() throws {
        func digest(resolvingTo file: String) throws -> String {
            var loader = PresetLoader.standard
            loader.fontResolver = { (_: String) throws(FontProblem) -> String in file }
            let (config, document) = try loader.loadDocument("orb", overrides: [try #require(PresetOverride(parsing: "label.font=Some Family:bold"))])
            #expect(config.label?.fonts.map(\.source) == [.file(file)])
            let loaded = BuildPlan.Loaded(config: config, plan: try LoopPlanner.plan(config), document: document)
            return try OutputDigest.input(loaded, format: .webp, fonts: FontDigests())
        }
        let dejavu = "/usr/share/fonts/truetype/dejavu/"
        #expect(try digest(resolvingTo: dejavu + "DejaVuSans-Bold.ttf") == digest(resolvingTo: dejavu + "DejaVuSans-Bold.ttf"))
        #expect(try digest(resolvingTo: dejavu + "DejaVuSans-Bold.ttf") != digest(resolvingTo: dejavu + "DejaVuSans.ttf"))
    }

    /// A missing, unreadable or hand-edited lock never causes a wrong skip.
    @Test func aBrokenLockMeansAFullRender() throws {
        let folder = try project()
        let manifest = folder.file("wavegen.json")
        #expect(wavegen(["build", manifest]).code == 0)
        try "{not json".write(toFile: folder.file("wavegen.lock"), atomically: false, encoding: .utf8)
        let broken = wavegen(["build", manifest, "--json"])
        #expect(broken.code == 0)
        #expect(broken.errLines.first?.hasPrefix("note: \(folder.path)/wavegen.lock: line 1, column 2: ") == true, "\(broken.err)")
        #expect(try rendered(broken).count == 5)
        #expect(wavegen(["build", manifest, "--json"]).out.contains("\"width\": null"))

        // An entry whose input digest was edited is rendered again; nothing is skipped wrongly.
        let lock = try String(contentsOfFile: folder.file("wavegen.lock"), encoding: .utf8)
        let line = try #require(lock.split(separator: "\n").first { $0.contains("out/blue.gif") })
        var fields = String(line).components(separatedBy: "\"input\": \"")
        fields[1] = String(repeating: "a", count: 64) + fields[1].dropFirst(64)
        try lock.replacingOccurrences(of: String(line), with: fields.joined(separator: "\"input\": \""))
            .write(toFile: folder.file("wavegen.lock"), atomically: false, encoding: .utf8)
        #expect(wavegen(["build", manifest, "--check"]).paths("stale").map { ($0 as NSString).lastPathComponent } == ["blue.gif"])
        let rebuilt = wavegen(["build", manifest, "--json"])
        #expect(try rendered(rebuilt) == ["blue.gif"])
    }

    /// Files wavegen wrote that are no longer planned: --check reports them, build warns, --prune
    /// deletes them and nothing else (not a file of the template's shape that wavegen.lock does
    /// not record, such as another command's APNG).
    @Test func orphansAreFoundAndPruned() throws {
        let folder = try project()
        let manifest = folder.file("wavegen.json")
        #expect(wavegen(["build", manifest]).code == 0)
        try folder.writeFile("keep", at: "out/notes.txt")
        try folder.writeFile("keep", at: "out/blue.png")
        #expect(wavegen(["render", "spinner", "-o", folder.file("out/blue@2x.png"), "-q"]).code == 0)
        try writeManifest(folder, scales: "[1]")
        let check = wavegen(["build", manifest, "--check"])
        #expect(check.code == 1)
        #expect(check.paths("orphaned").map { ($0 as NSString).lastPathComponent } == ["blue@2x.gif", "blue@2x.webp"])
        #expect(check.outLines.last == "3 outputs: 3 unchanged, 0 missing, 0 stale, 0 modified, 0 over budget, 0 failed, 2 orphaned")
        let build = wavegen(["build", manifest])
        #expect(build.code == 0)
        #expect(build.errLines.first?.hasPrefix("warning: 2 files wavegen wrote for this manifest are no longer planned") == true, "\(build.err)")
        #expect(folder.hasFile("out/blue@2x.gif"))
        let prune = wavegen(["build", manifest, "--prune"])
        #expect(prune.code == 0)
        #expect(prune.paths("pruned").count == 2)
        #expect(!folder.hasFile("out/blue@2x.gif") && !folder.hasFile("out/blue@2x.webp"))
        #expect(folder.hasFile("out/notes.txt") && folder.hasFile("out/blue.png") && folder.hasFile("out/blue.gif") && folder.hasFile("out/blue@2x.png"))
        #expect(wavegen(["build", manifest, "--check"]).code == 0)
        #expect(wavegen(["build", manifest, "--check", "--prune"]).code == 64)
    }

    @Test func jobsCanBeBuiltAndListedAlone() throws {
        let folder = try project()
        let manifest = folder.file("wavegen.json")
        let one = wavegen(["build", manifest, "--job", "spin"])
        #expect(one.code == 0, "\(one.err)")
        #expect(one.paths("written").map { ($0 as NSString).lastPathComponent } == ["spinner.gif"])
        #expect(!folder.hasFile("out/blue.gif"))
        #expect(wavegen(["build", manifest]).paths("written").count == 4)
        // Building one job keeps the other job's lock entries.
        #expect(wavegen(["build", manifest, "--job", "blue"]).paths("unchanged").count == 4)
        #expect(wavegen(["build", manifest, "--check"]).code == 0)

        let list = wavegen(["build", manifest, "--list"])
        #expect(list.code == 0)
        #expect(list.outLines.count == 5)
        #expect(list.outLines.first == "\(folder.path)/out/blue.gif  (jobs[0] (blue) gif @1x)")
        let typo = wavegen(["build", manifest, "--job", "spni"])
        #expect(typo.code == 64)
        #expect(typo.errLines.first?.contains("(did you mean 'spin'?; jobs: blue, spin)") == true, "\(typo.err)")
    }

    @Test func outputsOutsideTheManifestsFolderAreRefused() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(#"{"jobs": [{"preset": "spinner", "output": "../escaped-{name}.gif", "set": {"size": [8, 8]}}]}"#, at: "m/wavegen.json")
        let r = wavegen(["build", folder.file("m/wavegen.json")])
        #expect(r.code == 65)
        #expect(r.errLines.first?.hasSuffix("is outside the manifest's folder; pass --allow-outside to write there") == true, "\(r.err)")
        #expect(!folder.hasFile("escaped-spinner.gif"))
        #expect(wavegen(["build", folder.file("m/wavegen.json"), "--allow-outside", "-q"]).code == 0)
        #expect(folder.hasFile("escaped-spinner.gif"))
    }

    @Test func anOutputFolderThatIsAFileIsOneLine() throws {
        let folder = try project()
        try folder.writeFile("a file", at: "out/spin")
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 73)
        #expect(r.errLines == ["Error: jobs[1] (spin): \(folder.path)/out/spin/spinner.gif: cannot write: \(folder.path)/out/spin is a file, not a folder"])
    }
}

/// A mistake that stops every output is said once, for a build and for --check alike.
@Suite struct BuildSaidOnceTests {
    @Test(arguments: [[], ["--check"]])
    func aBadOverrideIsPrintedOnce(_ extra: [String]) throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        try folder.writeFile(#"{"jobs": [{"preset": "p.json", "output": "out/{name}{scale}.{format}", "formats": ["gif", "webp"], "scales": [1, 2, 3]}]}"#,
                             at: "wavegen.json")
        let r = wavegen(["build", folder.file("wavegen.json"), "--set", "lvl=0.3"] + extra)
        #expect(r.code == 65)
        #expect(r.errLines.filter { $0.contains("at lvl: unknown key") }.count == 1, "\(r.err)")
        #expect(r.errLines.count == 1, "\(r.err)")
        #expect(r.outLines.last == "6 outputs: " + (extra.isEmpty ? "0 written, 0 unchanged" : "0 unchanged, 0 missing, 0 stale, 0 modified") + ", 0 over budget, 6 failed")
    }
}

/// The command --check suggests builds what it checked: same manifest, jobs and overrides.
@Suite struct BuildCheckAdviceTests {
    @Test func theSuggestedCommandRepeatsTheOverrides() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        try folder.writeFile(#"{"jobs": [{"name": "a", "preset": "p.json", "output": "out/a.gif"}]}"#, at: "wavegen.json")
        let manifest = folder.file("wavegen.json")
        #expect(wavegen(["build", manifest, "-q"]).code == 0)
        let r = wavegen(["build", manifest, "--check", "--job", "a", "--set", "fps=5", "--background", "#FF0000"])
        #expect(r.code == 1)
        #expect(r.errLines.last == "Error: 1 of 1 outputs are missing, out of date or orphaned; run 'wavegen build \(manifest) --job a --set fps=5 --background \"#FF0000\"' to update them", "\(r.err)")
    }
}

/// A template whose file name could come out empty ("{scale}.gif" is ".gif" at @1x) is refused.
@Suite struct BuildFileNameTests {
    @Test func hiddenFileNamesAreRefused() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(#"{"jobs": [{"preset": "spinner", "output": "out/{scale}.gif", "scales": [1, 2]}]}"#, at: "wavegen.json")
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 65)
        #expect(r.errLines == ["\(folder.path)/wavegen.json:1:43: error: at jobs[0].output: \(folder.path)/out/.gif would be a hidden file (its name starts with \".\"); put {name} or other text before the fields"], "\(r.err)")
        #expect(!folder.hasFile("out"))
    }
}
