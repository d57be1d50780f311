import Foundation
import Testing
import WaveTestSupport
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// validate takes folders as build does, and says what render would warn about.
@Suite struct ValidateTests {
    @Test func aFolderMeansItsManifestAndPlannerWarningsAreShown() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(##"{"duration": 1.5, "layers": [{"color": "#1E88E5", "speed": 0.5}]}"##, at: "dur.json")
        try folder.writeFile(#"{"jobs": [{"preset": "dur.json", "output": "out/a{scale}.gif", "scales": [1, 2]}]}"#, at: "wavegen.json")
        let preset = wavegen(["validate", folder.file("dur.json")])
        #expect(preset.code == 0)
        #expect(preset.errLines.count == 1 && preset.errLines[0].hasPrefix("\(folder.path)/dur.json: warning: duration 1.5 s moves"), "\(preset.err)")
        let manifest = wavegen(["validate", folder.path])
        #expect(manifest.code == 0, "\(manifest.err)")
        #expect(manifest.out == "\(folder.path)/wavegen.json: ok\n")
        // Once, however many scales share the preset.
        #expect(manifest.errLines.count == 1 && manifest.errLines[0].hasPrefix("warning: jobs[0] (dur.json): "), "\(manifest.err)")
    }
}

/// What `validate` and `build` do with files beside presets and with warnings.
@Suite struct ValidateStrictTests {
    /// `validate presets/*.json` meets presets/schema.json: a JSON Schema document is skipped with
    /// a note, so the presets beside it are what counts; an export's folder validates the same way.
    @Test func jsonSchemaDocumentsAreSkipped() throws {
        let folder = try TemporaryFolder()
        #expect(wavegen(["presets", "export", "boat", folder.path]).code == 0)
        let names = try folder.contents().filter { $0.hasSuffix(".json") }
        #expect(names == ["boat.json", "schema.json"])
        let r = wavegen(["validate"] + names.map(folder.file))
        #expect(r.code == 0, "\(r.err)")
        #expect(r.errLines == ["note: \(folder.file("schema.json")): skipped: a JSON Schema document, not a preset"])
        #expect(r.outLines == ["\(folder.file("boat.json")): ok"])
        // A preset pointing at the schema is still a preset.
        let bad = try folder.write(#"{ "$schema": "./schema.json", "fps": 0 }"#, to: "bad.json")
        #expect(wavegen(["validate", bad]).code == 65)
    }

    /// A label that does not fit is a warning for validate and build, and with --strict an error
    /// (exit 65) for both, as for render --strict; build --strict then writes nothing.
    @Test func strictMakesWarningsErrors() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write(#"{ "extends": "orb", "size": [48, 48], "label": { "text": "Loading", "position": "bottom" } }"#, to: "p.json")
        try folder.writeFile(#"{ "jobs": [{ "preset": "p.json", "output": "out/p.gif" }] }"#, at: "wavegen.json")
        let manifest = folder.file("wavegen.json")
        let warning = "\(preset): warning: the label \"Loading\" does not fit: "
        let error = "\(preset): error: at label: the label \"Loading\" does not fit: "

        let validated = wavegen(["validate", preset])
        #expect(validated.code == 0)
        #expect(validated.errLines.count == 1 && validated.errLines[0].hasPrefix(warning), "\(validated.err)")
        let strict = wavegen(["validate", "--strict", preset, manifest])
        #expect(strict.code == 65)
        #expect(strict.errLines.count == 2 && strict.errLines.allSatisfy { $0.hasPrefix(error) }, "\(strict.err)")

        let strictBuild = wavegen(["build", "--strict", manifest])
        #expect(strictBuild.code == 65)
        #expect(strictBuild.errLines.count == 1 && strictBuild.errLines[0].hasPrefix(error), "\(strictBuild.err)")
        #expect(!folder.hasFile("out/p.gif") && !folder.hasFile("wavegen.lock"))
        let build = wavegen(["build", manifest, "-q"])
        #expect(build.code == 0, "\(build.err)")
        #expect(folder.hasFile("out/p.gif"))
        // A fixed duration that moves a speed: a warning, and an error under --strict.
        let moved = try folder.write(##"{ "size": [16, 16], "duration": 1.1, "layers": [{ "color": "#000000", "speed": 0.5 }] }"##, to: "moved.json")
        #expect(wavegen(["validate", moved]).code == 0)
        let movedStrict = wavegen(["validate", "--strict", moved])
        #expect(movedStrict.code == 65)
        #expect(movedStrict.errLines.first?.hasPrefix("\(moved): error: duration 1.1 s moves speeds beyond speedTolerance 2 %") == true, "\(movedStrict.err)")
    }
}

/// A manifest's problems and its presets' problems, as build and validate report them.
@Suite struct ManifestProblemTests {
    /// A job whose preset file is missing is named at its `preset` in the manifest, with the
    /// manifest's line and column, by build (exit 66, the other jobs still built) and validate.
    @Test func aMissingPresetNamesTheManifestAndTheJob() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile("""
            {
              "jobs": [
                { "preset": "classic", "output": "out/a.gif", "set": { "size": [16, 16] } },
                { "preset": "x.json", "output": "out/c.gif" },
                { "preset": "clasic", "output": "out/d.gif" }
              ]
            }
            """, at: "wavegen.json")
        let manifest = folder.file("wavegen.json")
        let expected = [
            "\(manifest):4:17: error: at jobs[1].preset: no preset \"x.json\" (\(folder.file("x.json"))): no such file",
            "\(manifest):5:17: error: at jobs[2].preset: no preset \"clasic\": no such file and no bundled preset of that name (did you mean \"classic\"?; bundled: boat, classic, dark, drop, gradient-drop, heart, orb, progress-bar, progress-bar-horizontal, spinner)",
        ]
        let built = wavegen(["build", manifest, "-q"])
        #expect(built.code == 66)
        #expect(built.errLines == expected)
        #expect(folder.hasFile("out/a.gif"))
        let validated = wavegen(["validate", manifest])
        #expect(validated.code == 66)
        #expect(validated.errLines == expected)
    }

    /// A job the manifest cannot read does not hide the problems of the others' presets: both are
    /// reported in one run, and nothing is built.
    @Test func aStructuralErrorDoesNotHidePresetErrors() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(#"{ "fps": 0 }"#, at: "bad.json")
        try folder.writeFile("""
            {
              "jobs": [
                { "preset": "bad.json", "output": "out/a.gif" },
                { "preset": "orb", "output": "out/b.gif", "scales": "2" }
              ]
            }
            """, at: "wavegen.json")
        let manifest = folder.file("wavegen.json")
        let expected = [
            "\(manifest):4:57: error: at jobs[1].scales: expected an array of scales such as [1, 2, 3], got \"2\"",
            "\(folder.file("bad.json")):1:10: error: at fps: must be at least 0.1 and at most 240, got 0",
        ]
        for args in [["build", manifest], ["validate", manifest]] {
            let r = wavegen(args)
            #expect(r.code == 65)
            #expect(r.errLines == expected)
        }
        #expect(!folder.hasFile("out"))
    }
}
