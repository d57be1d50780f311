import Foundation
import Testing
import WaveTestSupport
@testable import WaveKit
@testable import WaveBuild

@Suite struct BuildManifestTests {
    func load(_ text: String) throws -> (folder: TemporaryFolder, result: Result<BuildManifest, WaveError>) {
        let folder = try TemporaryFolder()
        let path = try folder.write(text, to: "wavegen.json")
        do {
            return (folder, .success(try BuildManifest.load(path)))
        } catch {
            return (folder, .failure(error))
        }
    }

    /// The error lines a manifest gives, with the temporary folder taken out.
    func problems(_ text: String) throws -> [String] {
        let (folder, result) = try load(text)
        guard case let .failure(error) = result else { return [] }
        return error.lines.map { $0.replacingOccurrences(of: folder.path + "/", with: "") }
    }

    @Test func templateFields() throws {
        let t = try OutputTemplate.parse("out/{name}-{variant}{scale}-{level}.{format}").get()
        #expect(t.uses(.name) && t.uses(.variant) && t.uses(.scale) && t.uses(.level) && t.uses(.format))
        #expect(t.render([.name: "orb", .variant: "dark", .scale: "@2x", .level: "030", .format: "webp"]) == "out/orb-dark@2x-030.webp")
        #expect(OutputTemplate.scaleText(nil) == "")
        #expect(OutputTemplate.scaleText(1) == "")
        #expect(OutputTemplate.scaleText(2) == "@2x")
        #expect(OutputTemplate.scaleText(3) == "@3x")
        #expect(OutputTemplate.scaleText(1.5) == "@1.5x")
        #expect(OutputTemplate.levelText(0) == "000")
        #expect(OutputTemplate.levelText(0.3) == "030")
        #expect(OutputTemplate.levelText(0.7) == "070")
        #expect(OutputTemplate.levelText(1) == "100")
        #expect(OutputTemplate.levelText(0.125) == "013")
        #expect(try OutputTemplate.parse("a.gif").get().literalExtension == "gif")
        #expect(try OutputTemplate.parse("a.{format}").get().literalExtension == nil)
        #expect(try OutputTemplate.parse("dir.v2/a").get().literalExtension == nil)
    }

    @Test func templateErrors() {
        #expect(throws: OutputTemplate.TemplateError("unknown field {nmae} (did you mean {name}?)")) { try OutputTemplate.parse("out/{nmae}.gif").get() }
        #expect(throws: OutputTemplate.TemplateError("a \"{\" without a \"}\" in \"out/{name.gif\"")) { try OutputTemplate.parse("out/{name.gif").get() }
        #expect(throws: OutputTemplate.TemplateError("a \"}\" without a \"{\" in \"out/name}.gif\"")) { try OutputTemplate.parse("out/name}.gif").get() }
        #expect(throws: OutputTemplate.TemplateError("\"out/\" names a folder, not a file")) { try OutputTemplate.parse("out/").get() }
    }

    @Test func aFullJob() throws {
        let (folder, result) = try load("""
            {
              "$schema": "whatever",
              "_comment": "ignored",
              "jobs": [
                {
                  "_note": "ignored too",
                  "name": "brand",
                  "preset": "presets/brand.json",
                  "output": "out/{name}-{variant}{scale}-{level}.{format}",
                  "formats": ["gif", "webp"],
                  "scales": [1, 2],
                  "levels": {"from": 0.2, "to": 0.5, "step": 0.1},
                  "variants": {"light": {}, "dark": {"background": "#121212", "layers[0].color": "#18FFFF", "_why": "ignored"}},
                  "set": {"fps": 25},
                  "maxBytes": {"gif": 5000}
                },
                { "preset": "classic", "output": "out/classic.webp", "maxBytes": 9000 }
              ]
            }
            """)
        let manifest = try result.get()
        #expect(manifest.jobs.count == 2)
        let job = manifest.jobs[0]
        #expect(job.label == "jobs[0] (brand)")
        #expect(job.preset == folder.path + "/presets/brand.json")
        #expect(job.formats == [.gif, .webp])
        #expect(job.scales == [1, 2])
        #expect(job.levels == [0.2, 0.3, 0.4, 0.5])
        #expect(job.variants?.map(\.name) == ["light", "dark"])
        #expect(job.variants?[1].overrides.map(\.path.description) == ["background", "layers[0].color"])
        #expect(job.variants?[1].overrides[1].value == JSONNode(.string("#18FFFF")))
        #expect(job.overrides.map(\.path.description) == ["fps"] && job.overrides.map(\.value) == [JSONNode(.number(25))])
        #expect(job.overrides[0].origin == PresetOverride.Origin(file: folder.path + "/wavegen.json", keyPath: "jobs[0].set.fps", line: 14, column: 22))
        #expect(job.budget.limit(for: .gif) == 5000)
        #expect(job.budget.limit(for: .webp) == nil)
        #expect(job.budget.source(for: .gif) == "maxBytes.gif")

        let plain = manifest.jobs[1]
        #expect(plain.label == "jobs[1] (classic)")
        #expect(plain.preset == "classic")
        #expect(plain.formats == [.webp])
        #expect(plain.budget.limit(for: .webp) == 9000)
        #expect(plain.budget.source(for: .webp) == "maxBytes")
    }

    @Test func levelRanges() throws {
        let whole = try load(#"{"jobs": [{"preset": "classic", "output": "{level}.gif", "levels": {"step": 0.1}}]}"#).result.get()
        #expect(whole.jobs[0].levels == [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1])
        #expect(whole.jobs[0].levels?.map(OutputTemplate.levelText) == ["000", "010", "020", "030", "040", "050", "060", "070", "080", "090", "100"])
        let thirds = try load(#"{"jobs": [{"preset": "classic", "output": "{level}.gif", "levels": {"from": 0.5, "to": 1, "step": 0.3}}]}"#).result.get()
        #expect(thirds.jobs[0].levels == [0.5, 0.8])
        let list = try load(#"{"jobs": [{"preset": "classic", "output": "{level}.gif", "levels": [0.25, 1, 0]}]}"#).result.get()
        #expect(list.jobs[0].levels == [0.25, 1, 0])
    }

    @Test func unknownKeysAreErrorsWithPositionAndSuggestion() throws {
        let lines = try problems("""
            {
              "job": [],
              "jobs": [
                { "preset": "classic", "outptu": "a.gif", "output": "b.gif", "scale": [2], "zzz": 1 }
              ]
            }
            """)
        #expect(lines == [
            "wavegen.json:2:10: error: at job: unknown key (did you mean \"jobs\"?)",
            "wavegen.json:4:38: error: at jobs[0].outptu: unknown key (did you mean \"output\"?)",
            "wavegen.json:4:75: error: at jobs[0].scale: unknown key (did you mean \"scales\"?)",
            "wavegen.json:4:87: error: at jobs[0].zzz: unknown key (expected one of: name, preset, output, formats, scales, levels, variants, set, maxBytes, fit, android, catalog, live)",
        ])
    }

    @Test func syntaxErrorsCarryLineAndColumn() throws {
        #expect(try problems("{\n  \"jobs\": [\n    {\"preset\": \"classic\",}\n  ]\n}") == [
            "wavegen.json:3:26: error: trailing comma before '}'",
        ])
        #expect(try problems("") == ["wavegen.json:1:1: error: empty document; expected a JSON object"])
    }

    @Test func valueErrors() throws {
        let lines = try problems("""
            {"jobs": [
              {"output": "a.gif"},
              {"preset": "classic", "output": "out/{nmae}.{format}", "formats": ["gif", "png", "gif"]},
              {"preset": "classic", "output": "out/{name}{variant}.gif", "scales": [0, 2, 2, 17]},
              {"preset": "classic", "output": "out/{level}.gif", "levels": {"from": 0.8, "to": 0.2, "step": 0.1}},
              {"preset": "classic", "output": "out/x.{format}"},
              {"preset": "classic", "output": "out/x"},
              {"preset": "classic", "output": "out/x.gif", "formats": ["gif", "webp"]},
              {"preset": "classic", "output": "out/{variant}.gif", "variants": {"a/b": {}, "ok": 3, "fine": {"layers[": 1}}},
              {"preset": "classic", "output": "out/y.gif", "maxBytes": {"gif": 1.5, "wepb": 10}},
              {"preset": "classic", "output": "out/z.gif", "maxBytes": "10k", "levels": [1.5], "set": []},
              {"preset": 3, "output": ""},
              "classic"
            ]}
            """)
        #expect(lines == [
            "wavegen.json:2:3: error: at jobs[0].preset: is required: a preset file (relative to the manifest) or a bundled preset's name",
            "wavegen.json:3:35: error: at jobs[1].output: unknown field {nmae} (did you mean {name}?)",
            "wavegen.json:3:77: error: at jobs[1].formats[1]: \"png\" is not a format (did you mean \"apng\"?)",
            "wavegen.json:3:84: error: at jobs[1].formats[2]: \"gif\" is listed twice",
            "wavegen.json:4:35: error: at jobs[2].output: uses {variant} but the job has no \"variants\"",
            "wavegen.json:4:73: error: at jobs[2].scales[0]: must be a number greater than 0 and at most 16, got 0",
            "wavegen.json:4:79: error: at jobs[2].scales[2]: 2 is listed twice",
            "wavegen.json:4:82: error: at jobs[2].scales[3]: must be a number greater than 0 and at most 16, got 17",
            "wavegen.json:5:64: error: at jobs[3].levels: \"from\" (0.8) is above \"to\" (0.2)",
            "wavegen.json:6:35: error: at jobs[4].output: uses {format} but the job has no \"formats\" (add \"formats\": [\"gif\", \"webp\"])",
            "wavegen.json:7:35: error: at jobs[5].output: cannot tell the format: end the output with .gif, .webp, .png (or .apng), .svg, .json or .lottie, or add \"formats\" and use {format}",
            "wavegen.json:8:35: error: at jobs[6].output: ends in .gif but \"formats\" includes webp; end it with .{format}",
            "wavegen.json:9:76: error: at jobs[7].variants.a/b: a variant name must be non-empty and may not contain /, \\, { or }",
            "wavegen.json:9:86: error: at jobs[7].variants.ok: expected an object of preset key path → value (use {} for the preset as it is), got 3",
            "wavegen.json:9:109: error: at jobs[7].variants.fine.layers[: \"layers[\" is not a preset key path (expected e.g. background or layers[0].color)",
            "wavegen.json:10:68: error: at jobs[8].maxBytes.gif: expected a whole number of bytes (at least 1), got 1.5",
            "wavegen.json:10:81: error: at jobs[8].maxBytes.wepb: unknown key (did you mean \"webp\"?)",
            "wavegen.json:11:60: error: at jobs[9].maxBytes: expected a number of bytes, or {\"gif\": bytes, \"webp\": bytes}, got \"10k\"",
            "wavegen.json:11:78: error: at jobs[9].levels[0]: must be a number between 0 and 1, got 1.5",
            "wavegen.json:11:91: error: at jobs[9].set: expected an object of preset key path → value, e.g. {\"layers[0].color\": \"#18FFFF\"}, got an array",
            "wavegen.json:12:14: error: at jobs[10].preset: expected a preset file or bundled name, got 3",
            "wavegen.json:12:27: error: at jobs[10].output: expected an output path template such as \"out/{name}{scale}.{format}\", got \"\"",
            "wavegen.json:13:3: error: at jobs[11]: expected a job object, got \"classic\"",
        ])
    }

    @Test func theTopLevel() throws {
        #expect(try problems("[]") == ["wavegen.json:1:1: error: expected an object with a \"jobs\" array, got an array"])
        #expect(try problems("{}") == ["wavegen.json:1:1: error: at jobs: is required: a list of jobs, each with a \"preset\" and an \"output\""])
        #expect(try problems(#"{"jobs": []}"#) == ["wavegen.json:1:10: error: at jobs: is empty; list at least one job"])
        #expect(try problems(#"{"jobs": {}}"#) == ["wavegen.json:1:10: error: at jobs: expected an array of jobs, got an object"])
    }

    @Test func presetReferences() throws {
        let folder = try TemporaryFolder()
        try folder.write(##"{"size": [16, 16], "layers": [{"color": "#1E88E5"}]}"##, to: "mine")
        let dir = folder.path
        #expect(BuildManifest.presetReference("classic", in: dir) == "classic")
        #expect(BuildManifest.presetReference("mine", in: dir) == dir + "/mine")
        #expect(BuildManifest.presetReference("presets/x.json", in: dir) == dir + "/presets/x.json")
        #expect(BuildManifest.presetReference("x.json", in: dir) == dir + "/x.json")
        #expect(BuildManifest.presetReference("/abs/x.json", in: dir) == "/abs/x.json")
        #expect(BuildManifest.presetReference("x.json", in: "") == "x.json")
        #expect(BuildManifest.resolve("out/a.gif", in: "") == "out/a.gif")
        #expect(BuildManifest.resolve("out/a.gif", in: "assets") == "assets/out/a.gif")
        #expect(BuildManifest.resolve("/tmp/a.gif", in: "assets") == "/tmp/a.gif")
    }

    @Test func aFolderMeansItsWavegenJSON() throws {
        let folder = try TemporaryFolder()
        #expect(BuildManifest.locate(nil) == "wavegen.json")
        #expect(BuildManifest.locate(folder.path) == folder.path + "/wavegen.json")
        #expect(BuildManifest.locate(folder.path + "/") == folder.path + "/wavegen.json")
        #expect(BuildManifest.locate("x/m.json") == "x/m.json")
    }
}
