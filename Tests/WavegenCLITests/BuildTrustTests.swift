import Foundation
import Testing
import WaveTestSupport
import WaveKit
import WaveRender
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// What a build may touch: only files wavegen.lock records as written are ever orphans or pruned;
/// every path is checked before anything is written; an output never lands on an input, outside
/// the manifest's folder through a link, or on another output through a link.
@Suite struct BuildPruneTrustTests {
    /// `{variant}.{format}` with GIFs matches nothing wavegen wrote but the GIFs: the manifest, a
    /// preset and an unrelated JSON file are never orphans, even when their names fit a template.
    @Test func filesTheLockDoesNotRecordAreNeverOrphans() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        try folder.writeFile("{\"keep\": true}", at: "notes.json")
        try folder.writeFile(#"{"jobs": [{"preset": "p.json", "output": "{variant}.{format}", "formats": ["gif", "lottie"], "variants": {"a": {}, "b": {}}}]}"#,
                             at: "wavegen.json")
        let manifest = folder.file("wavegen.json")
        #expect(wavegen(["build", manifest, "-q"]).code == 0)
        let before = try folder.contents()
        #expect(before == ["a.gif", "a.json", "b.gif", "b.json", "notes.json", "p.json", "wavegen.json", "wavegen.lock"])
        try folder.writeFile(#"{"jobs": [{"preset": "p.json", "output": "{variant}.{format}", "formats": ["gif", "lottie"], "variants": {"a": {}}}]}"#,
                             at: "wavegen.json")
        // A file of the template's shape that wavegen did not write: not an orphan either.
        #expect(wavegen(["render", folder.file("p.json"), "-o", folder.file("c.gif"), "-q"]).code == 0)
        let check = wavegen(["build", manifest, "--check"])
        #expect(check.code == 1)
        #expect(check.paths("orphaned") == [folder.file("b.gif"), folder.file("b.json")], "\(check.out)")
        let prune = wavegen(["build", manifest, "--prune"])
        #expect(prune.code == 0, "\(prune.err)")
        #expect(prune.paths("pruned") == [folder.file("b.gif"), folder.file("b.json")])
        #expect(try folder.contents() == ["a.gif", "a.json", "c.gif", "notes.json", "p.json", "wavegen.json", "wavegen.lock"])
        #expect(try String(contentsOfFile: folder.file("notes.json"), encoding: .utf8) == "{\"keep\": true}")
        #expect(wavegen(["build", manifest, "--check"]).code == 0)
    }

    /// A removed job's files are orphans: the lock remembers every output of the manifest.
    @Test func aRemovedJobsOutputsAreOrphans() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        try folder.writeFile(#"{"jobs": [{"name": "a", "preset": "p.json", "output": "out/a.gif"}, {"name": "b", "preset": "p.json", "output": "out/b.webp"}]}"#,
                             at: "wavegen.json")
        let manifest = folder.file("wavegen.json")
        #expect(wavegen(["build", manifest, "-q"]).code == 0)
        try folder.writeFile(#"{"jobs": [{"name": "a", "preset": "p.json", "output": "out/a.gif"}]}"#, at: "wavegen.json")
        let check = wavegen(["build", manifest, "--check"])
        #expect(check.code == 1)
        #expect(check.paths("orphaned") == [folder.file("out/b.webp")])
        // Building job a alone reports the removed job's file too: no job of the manifest owns it.
        let one = wavegen(["build", manifest, "--job", "a", "--prune"])
        #expect(one.paths("pruned") == [folder.file("out/b.webp")], "\(one.out)\(one.err)")
        #expect(!folder.hasFile("out/b.webp"))
        #expect(wavegen(["build", manifest, "--check"]).code == 0)
    }

    /// Building one job, another job's files are not its orphans.
    @Test func anotherJobsFilesAreNotOrphansOfOneJob() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        try folder.writeFile(#"{"jobs": [{"name": "a", "preset": "p.json", "output": "out/a.gif"}, {"name": "b", "preset": "p.json", "output": "out/b{scale}.gif", "scales": [1, 2]}]}"#,
                             at: "wavegen.json")
        let manifest = folder.file("wavegen.json")
        #expect(wavegen(["build", manifest, "-q"]).code == 0)
        try folder.writeFile(#"{"jobs": [{"name": "a", "preset": "p.json", "output": "out/a.gif"}, {"name": "b", "preset": "p.json", "output": "out/b{scale}.gif", "scales": [1]}]}"#,
                             at: "wavegen.json")
        let a = wavegen(["build", manifest, "--job", "a", "--check"])
        #expect(a.code == 0, "\(a.out)\(a.err)")
        let b = wavegen(["build", manifest, "--job", "b", "--check"])
        #expect(b.paths("orphaned") == [folder.file("out/b@2x.gif")], "\(b.out)")
    }

    /// An orphan whose bytes changed since wavegen wrote it is left in place, with a warning, and
    /// the lock forgets it.
    @Test func aModifiedOrphanIsNotDeleted() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        try folder.writeFile(#"{"jobs": [{"preset": "p.json", "output": "out/{name}{scale}.gif", "scales": [1, 2]}]}"#, at: "wavegen.json")
        let manifest = folder.file("wavegen.json")
        #expect(wavegen(["build", manifest, "-q"]).code == 0)
        try folder.writeFile("edited by hand", at: "out/p@2x.gif")
        try folder.writeFile(#"{"jobs": [{"preset": "p.json", "output": "out/{name}{scale}.gif", "scales": [1]}]}"#, at: "wavegen.json")
        let prune = wavegen(["build", manifest, "--prune"])
        #expect(prune.code == 0)
        #expect(prune.paths("pruned").isEmpty)
        #expect(prune.errLines.contains { $0.hasPrefix("warning: \(folder.file("out/p@2x.gif")): orphan not deleted: its bytes are not those wavegen wrote") }, "\(prune.err)")
        #expect(try String(contentsOfFile: folder.file("out/p@2x.gif"), encoding: .utf8) == "edited by hand")
        #expect(wavegen(["build", manifest, "--check"]).code == 0)
    }

    /// A lock edited to claim the manifest cannot get it deleted.
    @Test func aLockThatClaimsAnInputCannotPruneIt() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        let text = #"{"jobs": [{"preset": "p.json", "output": "out/a.gif"}]}"#
        try folder.writeFile(text, at: "wavegen.json")
        let digest = OutputDigest.file(Array(text.utf8))
        let presetDigest = OutputDigest.file(Array(blinkPreset.utf8))
        try folder.writeFile("""
            {"lockVersion": 1, "generator": "x", "outputs": {
              "wavegen.json": {"input": "\(digest)", "file": "\(digest)", "job": "gone"},
              "p.json": {"input": "\(presetDigest)", "file": "\(presetDigest)", "job": "gone"},
              "../outside.gif": {"input": "\(digest)", "file": "\(digest)", "job": "gone"}
            }}
            """, at: "wavegen.lock")
        let prune = wavegen(["build", folder.file("wavegen.json"), "--prune"])
        #expect(prune.paths("pruned").isEmpty, "\(prune.out)")
        #expect(prune.errLines.contains("warning: \(folder.file("wavegen.json")): orphan not deleted: it is the manifest, which this build reads"), "\(prune.err)")
        #expect(prune.errLines.contains("warning: \(folder.file("p.json")): orphan not deleted: it is the preset, which this build reads"), "\(prune.err)")
        #expect(folder.hasFile("wavegen.json") && folder.hasFile("p.json"))
    }
}

/// Manifests in one folder share wavegen.lock: one never calls another's files orphans, and
/// entries an older wavegen wrote (no job recorded) belong to no manifest.
@Suite struct BuildSharedLockTests {
    @Test func anotherManifestsFilesAreNotOrphans() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        try folder.writeFile(#"{"jobs": [{"name": "a", "preset": "p.json", "output": "out/a{scale}.gif", "scales": [1, 2]}]}"#, at: "wavegen.json")
        try folder.writeFile(#"{"jobs": [{"name": "a", "preset": "p.json", "output": "out/small.gif"}]}"#, at: "small.json")
        #expect(wavegen(["build", folder.file("wavegen.json"), "-q"]).code == 0)
        let small = wavegen(["build", folder.file("small.json"), "--prune"])
        #expect(small.code == 0, "\(small.err)")
        #expect(small.paths("pruned").isEmpty && small.err.isEmpty, "\(small.out)\(small.err)")
        #expect(folder.hasFile("out/a.gif") && folder.hasFile("out/a@2x.gif"))
        #expect(wavegen(["build", folder.file("small.json"), "--check"]).code == 0)
        #expect(wavegen(["build", folder.file("wavegen.json"), "--check"]).code == 0)
        let lock = try String(contentsOfFile: folder.file("wavegen.lock"), encoding: .utf8)
        #expect(lock.contains(#""out/small.gif": {"input": "#) && lock.contains(#""job": "a", "manifest": "small.json", "parts""#), "\(lock)")
        #expect(wavegen(["build", folder.file("wavegen.json"), "--prune"]).paths("pruned").isEmpty)
        #expect(folder.hasFile("out/small.gif"))
    }

    @Test func entriesWithoutAJobAreNeverOrphans() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        try folder.writeFile(#"{"jobs": [{"preset": "p.json", "output": "out/a.gif"}]}"#, at: "wavegen.json")
        try folder.writeFile("old output", at: "out/old.gif")
        let digest = OutputDigest.file(Array("old output".utf8))
        try folder.writeFile(#"{"lockVersion": 1, "generator": "x", "outputs": {"out/old.gif": {"input": "\#(digest)", "file": "\#(digest)"}}}"#, at: "wavegen.lock")
        let r = wavegen(["build", folder.file("wavegen.json"), "--prune"])
        #expect(r.code == 0 && r.paths("pruned").isEmpty, "\(r.out)\(r.err)")
        #expect(folder.hasFile("out/old.gif"))
    }
}

@Suite struct BuildPathTrustTests {
    func build(_ manifest: String, preset: String = blinkPreset, extra: [String] = []) throws -> (TemporaryFolder, RunResult) {
        let folder = try TemporaryFolder()
        try folder.writeFile(preset, at: "p.json")
        try folder.writeFile(manifest, at: "wavegen.json")
        return (folder, wavegen(["build", folder.file("wavegen.json")] + extra))
    }

    /// A NUL or control character in the template, the preset's name or a variant's name, or a
    /// "/" in a field, is refused before anything is written, at the job's output.
    @Test(arguments: [
        (#"{"jobs": [{"preset": "p.json", "output": "wavegen.json\u0000.gif"}]}"#, blinkPreset,
         "/wavegen.json\\u0000.gif\" holds a NUL character"),
        (#"{"jobs": [{"preset": "p.json", "output": "out/a\u001b[2J.gif"}]}"#, blinkPreset,
         "/out/a\\u001b[2J.gif\" holds the control character U+001B"),
        (#"{"jobs": [{"preset": "p.json", "output": "{name}.gif"}]}"#, #"{"name": "wavegen.json\u0000", "size": [8, 8]}"#,
         "{name} would be \"wavegen.json\\u0000\" (the preset's name), which holds a NUL character; a field fills in one file name"),
        (#"{"jobs": [{"preset": "p.json", "output": "out/{name}.gif"}]}"#, #"{"name": "../../escape", "size": [8, 8]}"#,
         "{name} would be \"../../escape\" (the preset's name), which holds a \"/\"; a field fills in one file name"),
        (#"{"jobs": [{"preset": "p.json", "output": "out/{name}/x.gif"}]}"#, #"{"name": "..", "size": [8, 8]}"#,
         "{name} would be \"..\" (the preset's name), which names a folder; a field fills in one file name"),
        (#"{"jobs": [{"preset": "p.json", "output": "out/{variant}.gif", "variants": {"a\u0000b": {}}}]}"#, blinkPreset,
         "{variant} would be \"a\\u0000b\" (a variant's name), which holds a NUL character; a field fills in one file name"),
    ])
    func badPathsAreRefusedBeforeWriting(manifest: String, preset: String, message: String) throws {
        let (folder, r) = try build(manifest, preset: preset)
        #expect(r.code == 65)
        #expect(r.errLines.count == 1 && r.errLines[0].contains(":1:42: error: at jobs[0].output: ") && r.errLines[0].hasSuffix(message), "\(r.err)")
        #expect(try folder.contents() == ["p.json", "wavegen.json"])
        #expect(try String(contentsOfFile: folder.file("wavegen.json"), encoding: .utf8) == manifest)
    }

    /// An output that is the manifest, a preset, the lock or a rider, by name or through a link,
    /// is refused at its job: Lottie and presets share ".json".
    @Test(arguments: [
        ("{name}.{format}", ["lottie"], "is the preset, which this build reads"),
        ("wavegen.{format}", ["lottie"], "is the manifest, which this build reads"),
        ("wavegen.lock", ["lottie"], "is the lock file, which this build writes"),
        ("link.json", ["lottie"], "is the manifest, which this build reads"),
    ])
    func anOutputOnAnInputIsRefused(template: String, formats: [String], message: String) throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(##"{"name": "p", "size": [8, 8], "fps": 10, "layers": [{"color": "#1E88E5", "speed": 1}]}"##, at: "p.json")
        let manifest = #"{"jobs": [{"preset": "p.json", "output": "\#(template)", "formats": [\#(formats.map { "\"\($0)\"" }.joined(separator: ", "))]}]}"#
        try folder.writeFile(manifest, at: "wavegen.json")
        try folder.writeFile("{}", at: "wavegen.lock")
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.json"), withDestinationPath: "wavegen.json")
        let presetBefore = try folder.bytes("p.json")
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 65)
        #expect(r.errLines.count == 1 && r.errLines[0].hasSuffix(message + "; change the output template"), "\(r.err)")
        #expect(try folder.bytes("p.json") == presetBefore)
        #expect(try String(contentsOfFile: folder.file("wavegen.json"), encoding: .utf8) == manifest)
        #expect(try String(contentsOfFile: folder.file("wavegen.lock"), encoding: .utf8) == "{}")
    }

    /// The inside-the-folder rule follows links: `out -> ../elsewhere` is outside.
    @Test func aLinkedFolderOutsideIsOutside() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("elsewhere"), withIntermediateDirectories: true)
        try folder.writeFile(blinkPreset, at: "m/p.json")
        try folder.writeFile(#"{"jobs": [{"preset": "p.json", "output": "out/{name}.gif"}]}"#, at: "m/wavegen.json")
        try FileManager.default.createSymbolicLink(atPath: folder.file("m/out"), withDestinationPath: "../elsewhere")
        let r = wavegen(["build", folder.file("m/wavegen.json")])
        #expect(r.code == 65)
        #expect(r.errLines == ["\(folder.file("m/wavegen.json")):1:42: error: at jobs[0].output: \(folder.file("m/out/p.gif")) is outside the manifest's folder (through a link: it lands in \(OnDisk.realPath(folder.file("elsewhere")))/p.gif); pass --allow-outside to write there"], "\(r.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("elsewhere")).isEmpty)
        #expect(wavegen(["build", folder.file("m/wavegen.json"), "--allow-outside", "-q"]).code == 0)
        #expect(folder.hasFile("elsewhere/p.gif"))
    }

    /// Two outputs that are one file through a link, or a hard link, collide.
    @Test func outputsThatAreOneFileThroughALinkCollide() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        try FileManager.default.createDirectory(atPath: folder.file("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("alias"), withDestinationPath: "real")
        try folder.writeFile(#"{"jobs": [{"name": "a", "preset": "p.json", "output": "real/x.gif"}, {"name": "b", "preset": "p.json", "output": "alias/x.gif"}]}"#,
                             at: "wavegen.json")
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 65)
        #expect(r.errLines.count == 1 && r.errLines[0].contains("alias/x.gif would be written twice: by jobs[0] (a) [gif] and by jobs[1] (b) [gif]"), "\(r.err)")
        #expect(!folder.hasFile("real/x.gif"))

        try folder.writeFile("old", at: "one.gif")
        try FileManager.default.linkItem(atPath: folder.file("one.gif"), toPath: folder.file("two.gif"))
        try folder.writeFile(#"{"jobs": [{"name": "a", "preset": "p.json", "output": "one.gif"}, {"name": "b", "preset": "p.json", "output": "two.gif"}]}"#,
                             at: "wavegen.json")
        let hard = wavegen(["build", folder.file("wavegen.json")])
        #expect(hard.code == 65)
        #expect(hard.errLines.count == 1 && hard.errLines[0].contains("two.gif would be written twice"), "\(hard.err)")
    }

    /// `render` refuses to write over the files it reads: the preset (Lottie shares ".json"), by
    /// name or through a link, a preset it extends, its rider image.
    @Test func renderNeverWritesOverItsInputs() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "base.json")
        try folder.writeFile(#"{"extends": "base.json", "size": [16, 16]}"#, at: "p.json")
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.json"), withDestinationPath: "p.json")
        let before = try folder.bytes("p.json"), baseBefore = try folder.bytes("base.json")
        for (output, role) in [("p.json", "the preset"), ("link.json", "the preset"), ("base.json", "a preset it extends")] {
            let r = wavegen(["render", folder.file("p.json"), "-o", folder.file(output)])
            #expect(r.code == 73)
            #expect(r.errLines == ["Error: \(folder.file(output)): cannot write: it is \(role), which this command reads; name another output"], "\(r.err)")
        }
        #expect(try folder.bytes("p.json") == before && folder.bytes("base.json") == baseBefore)

        try FileManager.default.copyItem(atPath: HardeningCorpus.folder.appendingPathComponent("images/valid.png").path, toPath: folder.file("boat.png"))
        let r = wavegen(["render", "boat", "--set", "rider.image=\(folder.file("boat.png"))", "-o", folder.file("boat.png"), "--format", "apng"])
        #expect(r.code == 73)
        #expect(r.errLines.first?.hasSuffix("it is the preset's rider image, which this command reads; name another output") == true, "\(r.err)")
    }
}

/// `presets export` of a preset file into its own folder never replaces the preset, even with
/// --force, and writes nothing when it would.
@Suite struct PresetExportTrustTests {
    @Test func exportNeverReplacesThePresetItReads() throws {
        let folder = try TemporaryFolder()
        let text = #"{"extends": "orb", "size": [40, 40]}"#
        try folder.writeFile(text, at: "p.json")
        let r = wavegen(["presets", "export", folder.file("p.json"), folder.path, "--force"])
        #expect(r.code == 73)
        #expect(r.errLines == ["Error: \(folder.file("p.json")): cannot write: it is the preset, which this command reads; name another output"], "\(r.err)")
        #expect(try String(contentsOfFile: folder.file("p.json"), encoding: .utf8) == text)
        #expect(try folder.contents() == ["p.json"])
    }
}

/// The lock tells CI the truth: builds of one manifest at once keep each other's entries, an
/// interrupted build keeps what it did, and a stale output says which input changed.
@Suite struct BuildLockTrustTests {
    /// Four builds of different jobs at once, as separate processes: every job's entries survive.
    @Test func concurrentBuildsOfOneManifestMergeTheLock() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        let jobs = (0..<4).map { #"{"name": "j\#($0)", "preset": "p.json", "output": "out/j\#($0){scale}.gif", "scales": [1, 2, 3]}"# }
        try folder.writeFile(#"{"jobs": [\#(jobs.joined(separator: ", "))]}"#, at: "wavegen.json")
        for round in 0..<2 {
            let runs = try (0..<4).map { try HardeningProcess.start(["build", "wavegen.json", "--job", "j\($0)", "-q"], in: folder.url) }
            for run in runs { #expect(run.wait(timeout: 60).status == 0, "round \(round)") }
            let lock = try #require({ if case let .lock(l) = BuildLock.read(folder.file("wavegen.lock")) { return l }; return nil }())
            #expect(lock.entries.count == 12, "round \(round): \(lock.entries.keys.sorted())")
        }
        let check = wavegen(["build", folder.file("wavegen.json"), "--check"])
        #expect(check.code == 0, "\(check.err)")
    }

    /// A build stopped by SIGINT part way keeps the lock entries of the outputs it wrote, so the
    /// next build does not render them again.
    @Test func anInterruptedBuildKeepsWhatItDid() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(#"{"jobs": [{"preset": "classic", "output": "out/{name}{scale}.gif", "scales": [1, 2, 3, 4, 5, 6, 7, 8]}]}"#, at: "wavegen.json")
        let run = try HardeningProcess.start(["build", "wavegen.json", "-j", "1", "-q"], in: folder.url)
        let deadline = Date().addingTimeInterval(60)
        var recorded = 0
        while Date() < deadline, !run.hasEnded {
            if case let .lock(l) = BuildLock.read(folder.file("wavegen.lock")) { recorded = l.entries.count }
            if recorded >= 1 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        try #require(!run.hasEnded, "the build ended before it was interrupted")
        kill(run.pid, SIGINT)
        let r = run.wait(timeout: 20)
        #expect(r.signal == SIGINT)
        guard case let .lock(lock) = BuildLock.read(folder.file("wavegen.lock")) else { Issue.record("no lock after the interrupt"); return }
        #expect(lock.entries.count >= 1 && lock.entries.count < 8)
        let next = wavegen(["build", folder.file("wavegen.json"), "--check"])
        // What the lock recorded is unchanged; the rest is missing, not stale.
        #expect(next.paths("unchanged").count == lock.entries.count, "\(next.out)")
        #expect(next.paths("stale").isEmpty)
    }

    /// --check says which input of a stale output changed.
    @Test func staleSaysWhichInputChanged() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        try folder.writeFile(#"{"jobs": [{"preset": "p.json", "output": "out/a.gif", "maxBytes": 100000, "fit": true}]}"#, at: "wavegen.json")
        let manifest = folder.file("wavegen.json")
        #expect(wavegen(["build", manifest, "-q"]).code == 0)
        let override = wavegen(["build", manifest, "--check", "--set", "fps=5"])
        #expect(override.errLines.first?.hasSuffix("out/a.gif: is stale: since it was written, the preset changed (its file, a parent it extends, or an override: --set, the job's set, variant, scale or level)") == true, "\(override.err)")
        try folder.writeFile(#"{"jobs": [{"preset": "p.json", "output": "out/a.gif", "maxBytes": 90000, "fit": true}]}"#, at: "wavegen.json")
        let budget = wavegen(["build", manifest, "--check"])
        #expect(budget.errLines.first?.hasSuffix("out/a.gif: is stale: since it was written, its size budget changed") == true, "\(budget.err)")
    }

    /// Every library whose bytes reach an output is in its input digest: FreeType for labels,
    /// libdeflate and Zopfli for APNG, libdeflate for the vector writers' rider PNG.
    @Test func theDigestNamesEveryLibraryThatWritesBytes() throws {
        #expect(OutputDigest.encoderIdentity(for: .apng).contains("zopfli sample "))
        #expect(OutputDigest.encoderIdentity(for: .apng).contains("libdeflate "))
        #expect(OutputDigest.encoderIdentity(for: .svg).contains("libdeflate "))
        let loaded = try BuildPlan.make(BuildManifest(file: "m.json", directory: "", jobs: []), overrides: [])
        #expect(loaded.outputs.isEmpty)
        let config = try RenderPipeline().load("orb")
        let plan = try RenderPipeline().plan(config)
        let document = try PresetLoader.standard.loadDocument("orb", overrides: []).document
        let inputs = try OutputDigest.inputs(BuildPlan.Loaded(config: config, plan: plan, document: document), format: .gif, fonts: FontDigests())
        #expect(Set(inputs.parts.keys) == ["wavegen", "preset", "font"])
    }
}
