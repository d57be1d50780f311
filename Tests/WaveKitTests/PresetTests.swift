import Foundation
import Testing
import WaveTestSupport
@testable import WaveKit

/// Decodes preset text, returning the config or the problems (by key path, without file or position).
func decode(_ text: String) -> Result<WaveConfig, WaveError> {
    WaveConfig.decode(try! JSONParser.parse(text), defaultName: "test")
}

func problems(_ text: String) -> [String] {
    switch decode(text) {
    case .success: return []
    case let .failure(p): return p.problems.map { $0.keyPath.isEmpty ? $0.message : "at \($0.keyPath): \($0.message)" }
    }
}

@Suite struct PresetTests {
    @Test func defaultsApply() throws {
        let c = try decode("{}").get()
        #expect(c.width == 128 && c.height == 128)
        #expect(c.fps == 50)
        #expect(c.duration == .auto)
        #expect(c.background == .transparent)
        #expect(c.level == .still(0.5))
        #expect(c.layers.count == 1)
        #expect(c.layers[0].amplitude == 0.05 * 128)
        #expect(c.layers[0].wavelength == 128)
        #expect(c.name == "test")
    }

    @Test func lengthsAreFractionsOrPixelsAtScale() throws {
        let c = try decode("""
            {"size": [300, 200], "scale": 2, "layers": [{"color": "#fff", "amplitude": "18px", "wavelength": 0.5, "offset": -0.1}]}
            """).get()
        #expect(c.width == 600 && c.height == 400)
        #expect(c.layers[0].amplitude == 36)
        #expect(c.layers[0].wavelength == 300)
        #expect(abs(c.layers[0].offset - -40) < 1e-9)
    }

    @Test func colorsParse() {
        #expect(RGBA(parsing: "#abc") == RGBA(0xAA, 0xBB, 0xCC))
        #expect(RGBA(parsing: "#30CCF9") == RGBA(48, 204, 249))
        #expect(RGBA(parsing: "#30CCF980") == RGBA(48, 204, 249, 128))
        #expect(RGBA(parsing: "rgb(48, 204, 249)") == RGBA(48, 204, 249))
        #expect(RGBA(parsing: "rgba(0,0,0,0.5)") == RGBA(0, 0, 0, 128))
        // Out of range is clamped, as CSS clamps it.
        #expect(RGBA(parsing: "rgb(256,0,0)") == RGBA(255, 0, 0))
        #expect(RGBA(parsing: "rgba(0,0,0,2)") == RGBA(0, 0, 0))
        for bad in ["blu", "#12", "#12345", "rgb(1,2)", "#ggg"] {
            #expect(RGBA(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func reportsEveryProblemAtOnceWithPaths() {
        let p = problems("""
            {"fps": 0, "sise": [1, 2], "layers": [{"color": "blu"}, {"color": "#fff", "amplitude": 1.5, "sped": 2}],
             "level": 2, "shape": "hexagon", "format": 2}
            """)
        #expect(p.contains("at format: 2 is not a supported format version (this build reads 1)"))
        #expect(p.contains("at fps: must be at least 0.1 and at most 240, got 0"))
        #expect(p.contains("at sise: unknown key (did you mean \"size\"?)"))
        #expect(p.contains("at layers[0].color: expected a color (#RRGGBB, #RGB, rgb(), hsl() or a CSS name such as \"steelblue\"), got \"blu\" (did you mean \"blue\"?)"))
        #expect(p.contains("at layers[1].amplitude: must be between 0 and 1 of the box height, got 1.5"))
        #expect(p.contains("at layers[1].sped: unknown key (did you mean \"speed\"?)"))
        #expect(p.contains("at level: must be at least 0 and at most 1, got 2"))
        #expect(p.contains("at shape: \"hexagon\" is not one of \"rect\", \"rounded\", \"circle\", \"triangle\", \"heart\", \"drop\""))
        #expect(p.count == 8)
    }

    @Test(arguments: [
        ("{\"layers\": []}", "at layers: must hold 1 to 16 layers, got 0"),
        ("{\"layers\": [{}]}", "at layers[0].color: is required"),
        ("{\"size\": [4, 100]}", "at size[0]: must be between 8 and 4096, got 4"),
        ("{\"size\": [100.5, 100]}", "at size[0]: expected a whole number, got 100.5"),
        ("{\"size\": 100}", "at size: expected [width, height] in whole pixels, got 100"),
        ("{\"scale\": -1}", "at scale: must be greater than 0 and at most 16, got -1"),
        ("{\"size\": [4096, 4096], \"scale\": 3}", "at scale: the output would be 12288×12288 pixels; the largest side allowed is 8192"),
        ("{\"duration\": \"long\"}", "at duration: expected \"auto\" or a number of seconds, got \"long\""),
        ("{\"minFrames\": 50, \"maxFrames\": 10}", "at maxFrames: must be at least minFrames (50), got 10"),
        ("{\"level\": {\"from\": 0, \"to\": 1, \"ease\": \"bounce\"}}", "at level.ease: \"bounce\" is not one of \"linear\", \"easeInOut\""),
        ("{\"border\": {\"width\": 0.1}}", "at border.color: is required"),
        ("{\"cornerRadius\": 0.2}", "at cornerRadius: only applies to \"shape\": \"rounded\"; leave it out, or drop one inherited from another preset with null (\"cornerRadius\": null, --set cornerRadius=null)"),
        ("{\"gif\": {\"edges\": \"soft\"}}", "at gif.edges: \"soft\" is not one of \"matte\", \"cut\", \"dither\""),
        ("{\"webp\": {\"effort\": 9}}", "at webp.effort: must be between 0 and 6, got 9"),
        ("{\"gif\": {\"lossy\": 129}}", "at gif.lossy: must be between 0 and 128, got 129"),
        ("{\"gif\": {\"lossy\": -1}}", "at gif.lossy: must be between 0 and 128, got -1"),
        ("{\"gif\": {\"lossy\": 2.5}}", "at gif.lossy: expected a whole number, got 2.5"),
        ("{\"gif\": {\"colors\": 2}}", "at gif.colors: must be between 3 and 256, got 2"),
        ("{\"gif\": {\"colors\": 300}}", "at gif.colors: must be between 3 and 256, got 300"),
        ("{\"gif\": {\"colors\": \"few\"}}", "at gif.colors: expected a whole number, got \"few\""),
        ("{\"layers\": [{\"color\": \"#fff\", \"amplitude\": \"18 pixels\"}]}", "at layers[0].amplitude: \"18 pixels\" is not a length (expected a number or a string like \"18px\")"),
        ("[1, 2]", "expected an object, got an array"),
        ("{\"loops\": -1}", "at loops: must be between 0 and 65535, got -1"),
        ("{\"edgeStep\": 0.5}", "at edgeStep: must be at least 1 and at most 128, got 0.5"),
        ("{\"edgeStep\": \"fine\"}", "at edgeStep: expected a number, got \"fine\""),
        ("{\"background\": \"none\"}", "at background: expected a color (#RRGGBB, #RGB, rgb(), hsl() or a CSS name such as \"steelblue\"), got \"none\""),
    ])
    func rejectsBadValues(text: String, expected: String) {
        #expect(problems(text) == [expected])
    }

    @Test func ignoresDollarAndUnderscoreKeys() throws {
        #expect(problems("{\"$schema\": \"./schema.json\", \"_comment\": \"hi\"}").isEmpty)
    }

    @Test func levelForms() throws {
        #expect(try decode("{\"level\": {\"base\": 0.5, \"tide\": 0.1}}").get().level == .tide(base: 0.5, tide: 0.1))
        let ramp = try decode("{\"level\": {\"from\": 0.2, \"to\": 0.8, \"ease\": \"easeInOut\", \"pingpong\": true}}").get().level
        #expect(ramp == .ramp(from: 0.2, to: 0.8, ease: .easeInOut, pingpong: true))
        #expect(abs(ramp.level(frame: 5, of: 10) - 0.8) < 1e-12)
        #expect(abs(ramp.level(frame: 0, of: 10) - 0.2) < 1e-12)
        let oneWay = LevelAnimation.ramp(from: 0, to: 1, ease: .linear, pingpong: false)
        #expect(oneWay.level(frame: 9, of: 10) == 1)
    }

    @Test func geometryOfBorderedCircle() throws {
        let c = try decode("""
            {"size": [200, 100], "shape": "circle", "inset": "10px", "border": {"width": "4px", "color": "#000", "gap": "2px"}}
            """).get()
        #expect(c.outline == Rect(x: 60, y: 10, width: 80, height: 80))
        #expect(c.box == Rect(x: 66, y: 16, width: 68, height: 68))
    }
}

@Suite struct PresetLoaderTests {
    let scratch: TemporaryFolder
    init() throws { scratch = try TemporaryFolder() }

    func temporaryDirectory() throws -> URL { try scratch.subfolder() }

    @Test func extendsMergesObjectsAndReplacesArrays() throws {
        let dir = try temporaryDirectory()
        try """
            {"name": "base", "size": [64, 64], "gif": {"edges": "cut", "matte": "#000"}, "layers": [{"color": "#111"}, {"color": "#222"}]}
            """.write(to: dir.appendingPathComponent("base.json"), atomically: true, encoding: .utf8)
        try """
            {"extends": "base.json", "gif": {"matte": "#fff"}, "layers": [{"color": "#333"}]}
            """.write(to: dir.appendingPathComponent("child.json"), atomically: true, encoding: .utf8)
        let c = try PresetLoader(bundled: [:]).load(dir.appendingPathComponent("child.json").path)
        #expect(c.width == 64)
        #expect(c.gif == GIFOptions(edges: .cut, matte: .white))
        #expect(c.layers.map(\.color) == [RGBA(0x33, 0x33, 0x33)])
        #expect(c.name == "child")
    }

    @Test func extendsCycleNamesTheChain() throws {
        let dir = try temporaryDirectory()
        try "{\"extends\": \"b.json\"}".write(to: dir.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try "{\"extends\": \"a.json\"}".write(to: dir.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        let a = dir.appendingPathComponent("a.json").path, b = dir.appendingPathComponent("b.json").path
        #expect(throws: WaveError(DocumentProblem(file: a, line: 1, column: 13, keyPath: "extends", message: "cycle: \(a) → \(b) → \(a)"))) {
            try PresetLoader(bundled: [:]).load(a)
        }
    }

    @Test func extendsBundledAndOverrides() throws {
        let bundled = ["base": "{\"size\": [32, 32], \"layers\": [{\"color\": \"#123456\"}]}"]
        let c = try PresetLoader(bundled: bundled).load("base", overrides: [
            PresetOverride(parsing: "layers[0].color=#FF0000")!, PresetOverride(parsing: "level=0.3")!,
        ])
        #expect(c.layers[0].color == RGBA(255, 0, 0))
        #expect(c.level == .still(0.3))
        #expect(throws: WaveError.self) { try PresetLoader(bundled: bundled).load("base", overrides: [PresetOverride(parsing: "layers[3].color=#FF0000")!]) }
    }

    @Test func missingAndSpecialFilesAreUnreadable() throws {
        let dir = try temporaryDirectory()
        let loader = PresetLoader(bundled: [:])
        let missing = { (file: String, reason: String) in WaveError(DocumentProblem(file: file, message: reason, kind: .missingInput)) }
        #expect(throws: missing(dir.path + "/nope.json", "no such file")) { try loader.load(dir.path + "/nope.json") }
        #expect(throws: missing(dir.path, "is a directory, not a preset file")) { try loader.load(dir.path) }
        #expect(throws: missing("/dev/zero", "is not a regular file")) { try loader.load("/dev/zero") }
        #expect(throws: missing("nope", "no such file and no bundled preset of that name (bundled: )")) { try loader.load("nope") }
        let big = dir.appendingPathComponent("big.json")
        try Data(repeating: 0x20, count: PresetLoader.maximumFileSize + 1).write(to: big)
        #expect(throws: missing(big.path, "is \(PresetLoader.maximumFileSize + 1) bytes; presets are limited to \(PresetLoader.maximumFileSize) bytes")) { try loader.load(big.path) }
    }

    @Test func syntaxErrorsNameFileLineAndColumn() throws {
        let dir = try temporaryDirectory()
        let f = dir.appendingPathComponent("bad.json")
        try "{\n  \"fps\": 30,\n}".write(to: f, atomically: true, encoding: .utf8)
        #expect(throws: WaveError(DocumentProblem(file: f.path, line: 3, column: 1, message: "trailing comma before '}'"))) {
            try PresetLoader(bundled: [:]).load(f.path)
        }
    }

    @Test func everyBundledPresetLoadsAndPlans() throws {
        #expect(!BundledPresets.sources.isEmpty)
        // Rider images are decoded by libpng outside this target; stand in a small image.
        let loader = PresetLoader(imageDecoder: { bytes throws(ImageProblem) in
            guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { throw ImageProblem("not a PNG file") }
            return testRiderImage()
        })
        for name in BundledPresets.sources.keys.sorted() {
            let c = try loader.load(name)
            _ = try LoopPlanner.plan(c)
            #expect(!c.description.isEmpty, "\(name) has no description")
        }
    }

    @Test func bundledPresetsMatchTheFilesInPresets() throws {
        let presets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("presets")
        let files = try FileManager.default.contentsOfDirectory(atPath: presets.path).filter { $0.hasSuffix(".json") && $0 != "schema.json" }
        #expect(Set(files.map { String($0.dropLast(5)) }) == Set(BundledPresets.sources.keys))
        for f in files {
            let text = try String(contentsOf: presets.appendingPathComponent(f), encoding: .utf8)
            #expect(BundledPresets.sources[String(f.dropLast(5))] == text, "\(f) differs from the embedded copy; run scripts/dev/embed-presets")
        }
    }

    @Test func bundledSchemaMatchesTheFileInPresets() throws {
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("presets/schema.json")
        let bytes = Array(try Data(contentsOf: schema))
        #expect(Array(BundledPresets.schema.utf8) == bytes, "presets/schema.json differs from the embedded copy; run scripts/dev/embed-presets")
    }

    @Test func bundledAssetsMatchTheFilesInPresets() throws {
        let presets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("presets")
        let images = try FileManager.default.contentsOfDirectory(atPath: presets.appendingPathComponent("assets").path).filter { $0.hasSuffix(".png") }
        #expect(Set(images.map { "assets/" + $0 }) == Set(BundledPresets.decodedAssets.keys))
        for image in images {
            let bytes = Array(try Data(contentsOf: presets.appendingPathComponent("assets/" + image)))
            #expect(BundledPresets.decodedAssets["assets/" + image] == bytes, "\(image) differs from the embedded copy; run scripts/dev/embed-presets")
        }
    }
}

@Suite struct ExtendsAttributionTests {
    @Test func errorsNameTheFileTheValueComesFrom() throws {
        let scratch = try TemporaryFolder()
        let dir = scratch.url
        let parent = dir.appendingPathComponent("parent.json"), child = dir.appendingPathComponent("child.json")
        try "{\"shape\": \"rounded\", \"layers\": [{\"color\": \"blu\"}]}".write(to: parent, atomically: true, encoding: .utf8)
        try "{\"extends\": \"parent.json\", \"cornerRadius\": 0.3, \"fps\": -1}".write(to: child, atomically: true, encoding: .utf8)
        do {
            _ = try PresetLoader(bundled: [:]).load(child.path)
            Issue.record("loaded")
        } catch {
            #expect(error.lines == [
                "\(child.path):1:56: error: at fps: must be at least 0.1 and at most 240, got -1",
                "\(parent.path):1:43: error: at layers[0].color: expected a color (#RRGGBB, #RGB, rgb(), hsl() or a CSS name such as \"steelblue\"), got \"blu\" (did you mean \"blue\"?)",
            ])
        }
        // A child may set keys whose meaning depends on the parent.
        try "{\"shape\": \"rounded\", \"layers\": [{\"color\": \"#00f\"}]}".write(to: parent, atomically: true, encoding: .utf8)
        try "{\"extends\": \"parent.json\", \"cornerRadius\": 0.3}".write(to: child, atomically: true, encoding: .utf8)
        let c = try PresetLoader(bundled: [:]).load(child.path)
        #expect(c.shape == .rounded(cornerRadius: 0.3 * 128))
    }

    @Test func overridesAreNamedAsSuch() {
        #expect(throws: WaveError(DocumentProblem(file: "--set", keyPath: "fps", message: "must be at least 0.1 and at most 240, got 0"))) {
            try PresetLoader(bundled: ["base": "{}"]).load("base", overrides: [PresetOverride(parsing: "fps=0")!])
        }
    }

    /// However an override reaches the loader, a path deeper than the limit is refused before it
    /// is followed (a path of 100 000 parts would otherwise exhaust the stack).
    @Test func overlyDeepOverridePathsAreRefused() throws {
        let loader = PresetLoader(bundled: ["base": "{}"])
        let limit = KeyPathExpression.maximumParts
        let atLimit = try #require(PresetOverride(parsing: Array(repeating: "a", count: limit).joined(separator: ".") + "=1"))
        #expect(throws: WaveError(DocumentProblem(file: "--set", keyPath: "a", message: "unknown key (expected one of: \(WaveConfig.topLevelKeys.joined(separator: ", ")))"))) {
            try loader.load("base", overrides: [atLimit])
        }
        let deep = try #require(PresetOverride(parsing: Array(repeating: "a", count: 100_000).joined(separator: ".") + "=1"))
        #expect(throws: WaveError(DocumentProblem(file: "--set", message: "a key path may have at most \(limit) parts, got 100000"))) {
            try loader.load("base", overrides: [deep])
        }
    }

    @Test func fullWidthDigitsAreNotAColor() {
        #expect(RGBA(parsing: "#ＡＢＣ") == nil)
        #expect(RGBA(parsing: "rgb(１,2,3)") == nil)
    }

    @Test func tideMustStayInRange() {
        #expect(problems("{\"level\": {\"base\": 0.9, \"tide\": 0.2}}") == ["at level.tide: base ± tide must stay within 0…1, got 0.9 ± 0.2"])
    }
}
