import Foundation
import Testing
import WaveTestSupport
@testable import WaveKit

/// Problems name the file, line and column of the value they are about, in the form compilers use.
@Suite struct DocumentProblemTests {
    let scratch: TemporaryFolder
    init() throws { scratch = try TemporaryFolder() }

    @Test func theCompilerForm() {
        #expect(DocumentProblem(file: "a.json", line: 12, column: 20, keyPath: "layers[2].amplitude", message: "too tall").description
            == "a.json:12:20: error: at layers[2].amplitude: too tall")
        #expect(DocumentProblem(file: "a.json", line: 1, column: 9, message: "NaN and Infinity are not JSON numbers").description
            == "a.json:1:9: error: NaN and Infinity are not JSON numbers")
        #expect(DocumentProblem(file: "--set", keyPath: "fps", message: "expected a number").description == "--set: error: at fps: expected a number")
        #expect(DocumentProblem(file: "a.json", message: "no such file", kind: .missingInput).description == "a.json: error: no such file")
        #expect(WaveError([DocumentProblem(file: "a", message: "x"), DocumentProblem(file: "b", message: "y", kind: .missingInput)]).kind == .missingInput)
        #expect(WaveError(DocumentProblem(file: "a", message: "x")).kind == .invalidInput)
    }

    func write(_ files: [String: String]) throws -> URL {
        let dir = try scratch.subfolder()
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir
    }

    func problems(_ reference: String, overrides: [PresetOverride] = [], bundled: [String: String] = [:]) -> [DocumentProblem] {
        do {
            _ = try PresetLoader(bundled: bundled).load(reference, overrides: overrides)
            return []
        } catch {
            return error.problems
        }
    }

    @Test func aNestedKeyIsFoundAtItsValue() throws {
        let dir = try write(["p.json": """
            {
              "size": [64, 64],
              "layers": [
                {"color": "#123456"},
                {"color": "#654321", "amplitude": "tall"}
              ]
            }
            """])
        let file = dir.appendingPathComponent("p.json").path
        #expect(problems(file) == [DocumentProblem(file: file, line: 5, column: 39, keyPath: "layers[1].amplitude",
                                                   message: "\"tall\" is not a length (expected a number or a string like \"18px\")")])
    }

    @Test func aMissingKeyIsFoundAtTheObjectThatShouldHoldIt() throws {
        let dir = try write(["p.json": "{\n  \"layers\": [\n    {\"opacity\": 0.5}\n  ]\n}"])
        let file = dir.appendingPathComponent("p.json").path
        #expect(problems(file) == [DocumentProblem(file: file, line: 3, column: 5, keyPath: "layers[0].color", message: "is required")])
    }

    @Test func aValueFromAParentIsFoundInTheParent() throws {
        let dir = try write([
            "base.json": "{\n  \"fps\": 30,\n  \"layers\": [{\"color\": \"#12\"}]\n}",
            "child.json": "{\n  \"extends\": \"base.json\",\n  \"fps\": 0\n}",
        ])
        let base = dir.appendingPathComponent("base.json").path, child = dir.appendingPathComponent("child.json").path
        #expect(problems(child).map(\.description) == [
            "\(child):3:10: error: at fps: must be at least 0.1 and at most 240, got 0",
            "\(base):3:24: error: at layers[0].color: expected a color (#RRGGBB, #RGB, rgb(), hsl() or a CSS name such as \"steelblue\"), got \"#12\" (a hex color has 3, 4, 6 or 8 digits)",
        ])
    }

    @Test func aCommandLineOverrideIsNamedWithoutAPosition() throws {
        let bundled = ["base": "{\n  \"fps\": 30\n}"]
        #expect(problems("base", overrides: [PresetOverride(parsing: "fps=0")!], bundled: bundled)
            == [DocumentProblem(file: "--set", keyPath: "fps", message: "must be at least 0.1 and at most 240, got 0")])
        // A key the override made up is the override's problem too.
        #expect(problems("base", overrides: [PresetOverride(parsing: "fpss.x=1")!], bundled: bundled).map(\.description)
            == ["--set: error: at fpss: unknown key (did you mean \"fps\"?)"])
    }

    @Test func aManifestOverrideIsFoundInTheManifest() throws {
        let value = try JSONParser.parse("\n\n    {\"base\": 2}")
        let origin = PresetOverride.Origin(file: "wavegen.json", keyPath: "jobs[0].set.level", line: value.line, column: value.column)
        let override = PresetOverride(path: KeyPathExpression(parsing: "level")!, value: value, origin: origin)
        #expect(problems("base", overrides: [override], bundled: ["base": "{}"])
            == [DocumentProblem(file: "wavegen.json", line: 3, column: 14, keyPath: "jobs[0].set.level.base",
                                message: "must be at least 0 and at most 1, got 2")])
    }

    @Test func aManifestIsNotAPreset() throws {
        let dir = try write(["wavegen.json": #"{"jobs": []}"#])
        let file = dir.appendingPathComponent("wavegen.json").path
        #expect(problems(file) == [DocumentProblem(file: file, message: "this is a build manifest, not a preset; build it with 'wavegen build \(file)'")])
    }

    @Test func aPresetIsNotAManifest() throws {
        let dir = try write(["p.json": ##"{"fps": 30, "layers": [{"color": "#123"}]}"##])
        let file = dir.appendingPathComponent("p.json").path
        #expect(throws: WaveError(DocumentProblem(
            file: file, message: "this is a preset, not a build manifest (no \"jobs\"); render it with 'wavegen render \(file)'"))) {
            try BuildManifest.load(file)
        }
    }
}
