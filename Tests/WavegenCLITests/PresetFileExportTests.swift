import Foundation
import Testing
import WaveKit
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview
import WaveTestSupport

/// `wavegen presets show|export FILE`: a preset file, merged with the presets it extends.
@Suite struct PresetFileExportTests {
    /// child.json extends base/mid.json, which extends the bundled boat@1 and swaps in its own
    /// rider image, base/img/ship.png.
    func chain(_ folder: TemporaryFolder, image: String = "img/ship.png", imageAt: String = "base/img/ship.png") throws -> String {
        for path in [folder.file("base"), PathText.folder(of: folder.file(imageAt))] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        try Data(BundledPresets.decodedAssets["assets/boat.png"]!).write(to: URL(fileURLWithPath: folder.file(imageAt)))
        _ = try folder.write("{\n  \"extends\": \"boat@1\",\n  \"rider\": { \"image\": \"\(image)\", \"tilt\": 0.5 },\n  \"level\": 0.2\n}\n", to: "base/mid.json")
        return try folder.write("{\n  \"extends\": \"base/mid.json\",\n  \"fps\": 25,\n  \"background\": \"navy\"\n}\n", to: "child.json")
    }

    func render(_ reference: String, to output: String) throws -> [UInt8] {
        let r = wavegen(["render", reference, "-o", output, "--quiet"])
        #expect(r.code == 0, "\(reference): \(r.err)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    func keys(_ node: JSONNode?) -> [String] {
        guard case let .object(members)? = node?.value else { return [] }
        return members.map(\.key)
    }

    @Test func showPrintsTheMergedPresetInSchemaOrder() throws {
        let folder = try TemporaryFolder()
        let child = try chain(folder)
        let r = wavegen(["presets", "show", child])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.isEmpty)
        let shown = try JSONParser.parse(Array(r.out.utf8))
        #expect(keys(shown) == ["$schema", "format", "name", "description", "size", "fps", "background", "level", "layers", "rider"])
        #expect(keys(shown["rider"]) == ["image", "width", "x", "anchor", "tilt"])
        #expect(shown["name"]?.value == .string("child"))
        #expect(shown["rider"]?["image"]?.value == .string("img/ship.png"))
        #expect(shown["rider"]?["tilt"]?.value == .number(0.5))
        #expect(r.out.hasPrefix("{\n  \"$schema\": \"./schema.json\",\n  \"format\": 1,\n  \"name\": \"child\",\n"))
        #expect(r.out.hasSuffix("\n}\n"))
    }

    @Test func exportWritesAMergedCopyThatRendersTheSameBytes() throws {
        let folder = try TemporaryFolder()
        let child = try chain(folder)
        let out = folder.file("out")
        let r = wavegen(["presets", "export", child, out])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.outLines.map { String($0.split(separator: ":")[0]) } == [out + "/child.json", out + "/img/ship.png", out + "/schema.json"])
        #expect(try folder.contents("out") == ["child.json", "img", "schema.json"])
        #expect(try folder.bytes("out/img/ship.png") == BundledPresets.decodedAssets["assets/boat.png"])
        #expect(try folder.bytes("out/schema.json") == Array(BundledPresets.schema.utf8))
        let exported = try JSONParser.parse(try folder.bytes("out/child.json"))
        #expect(exported["extends"] == nil)
        #expect(exported["$schema"]?.value == .string("./schema.json"))
        // The same text as show prints, but for "$schema".
        #expect(try folder.bytes("out/child.json") == Array(wavegen(["presets", "show", child]).out.utf8))

        var original: [String: [UInt8]] = [:]
        for format in ["gif", "webp"] { original[format] = try render(child, to: folder.file("original.\(format)")) }
        // The copy no longer needs the presets it extended.
        try FileManager.default.removeItem(atPath: folder.file("base"))
        for format in ["gif", "webp"] {
            #expect(try render(out + "/child.json", to: folder.file("exported.\(format)")) == original[format], "\(format)")
        }
        #expect(wavegen(["validate", out + "/child.json"]).code == 0)
    }

    @Test func anImageOutsideThePresetFolderIsCopiedBesideIt() throws {
        let folder = try TemporaryFolder()
        let child = try chain(folder, image: "../shared/ship.png", imageAt: "shared/ship.png")
        let original = try render(child, to: folder.file("original.gif"))
        let out = folder.file("out")
        let r = wavegen(["presets", "export", child, out])
        #expect(r.code == 0, "\(r.err)")
        #expect(try folder.contents("out") == ["child.json", "schema.json", "ship.png"])
        let exported = try JSONParser.parse(try folder.bytes("out/child.json"))
        #expect(exported["rider"]?["image"]?.value == .string("ship.png"))
        #expect(try render(out + "/child.json", to: folder.file("exported.gif")) == original)
    }

    @Test(arguments: ["show", "export"])
    func aMissingFileIsNamed(_ action: String) throws {
        let folder = try TemporaryFolder()
        let missing = folder.file("missing.json")
        let r = wavegen(["presets", action, missing] + (action == "export" ? [folder.file("out")] : []))
        #expect(r.code == 66)
        #expect(r.errLines == ["\(missing): error: no such file"])
        #expect(r.out.isEmpty)
        #expect(try folder.contents().isEmpty)
    }

    @Test(arguments: ["show", "export"])
    func aBadPresetGetsItsLocatedProblems(_ action: String) throws {
        let folder = try TemporaryFolder()
        let child = try chain(folder)
        _ = try folder.write("{\n  \"extends\": \"base/mid.json\",\n  \"fps\": 0\n}\n", to: "child.json")
        let r = wavegen(["presets", action, child] + (action == "export" ? [folder.file("out")] : []))
        #expect(r.code == 65)
        #expect(r.errLines.count == 1)
        #expect(r.errLines.first?.hasPrefix("\(child):3:10: error: at fps: ") == true, "\(r.err)")
        #expect(r.out.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
    }

    @Test func aParentThatIsMissingIsReportedAtExtends() throws {
        let folder = try TemporaryFolder()
        let child = try folder.write("{\n  \"extends\": \"gone.json\"\n}\n", to: "child.json")
        let r = wavegen(["presets", "show", child])
        #expect(r.code == 66)
        #expect(r.errLines == ["\(child):2:14: error: at extends: \(folder.file("gone.json")): no such file"])
    }
}

/// `"extends": "orb@1"` and `validate --strict`'s advice to pin a bundled parent.
@Suite struct PresetVersionCommandTests {
    @Test(arguments: BundledPresets.sources.keys.sorted())
    func pinnedNameRendersTheSameBytes(_ name: String) throws {
        let folder = try TemporaryFolder()
        let child = try folder.write("{\"extends\": \"\(name)@1\", \"name\": \"\(name)\"}", to: "child.json")
        for (reference, output) in [(name, "by-name.gif"), ("\(name)@1", "pinned.gif"), (child, "child.gif")] {
            let r = wavegen(["render", reference, "-o", folder.file(output), "--quiet"])
            #expect(r.code == 0, "\(reference): \(r.err)")
        }
        #expect(try folder.bytes("pinned.gif") == folder.bytes("by-name.gif"))
        #expect(try folder.bytes("child.gif") == folder.bytes("by-name.gif"))
    }

    @Test func aNewerVersionIsRefusedAtExtends() throws {
        let folder = try TemporaryFolder()
        let child = try folder.write("{\"extends\": \"orb@2\"}", to: "child.json")
        for args in [["validate", child], ["render", child, "-o", folder.file("x.gif")]] {
            let r = wavegen(args)
            #expect(r.code == 65, "\(args)")
            #expect(r.errLines == ["\(child):1:13: error: at extends: orb@2: bundled preset version 2 is newer than this wavegen knows (orb has orb@1); a newer wavegen is needed"])
        }
    }

    @Test(arguments: [
        ("orb@0", "no version 0 of orb (orb has orb@1)"),
        ("orb@x", "\"x\" is not a version: write a whole number after '@' (orb has orb@1)"),
    ])
    func otherBadVersions(_ reference: String, _ message: String) throws {
        let folder = try TemporaryFolder()
        let child = try folder.write("{\"extends\": \"\(reference)\"}", to: "child.json")
        let r = wavegen(["validate", child])
        #expect(r.code == 65)
        #expect(r.errLines == ["\(child):1:13: error: at extends: \(reference): \(message)"])
    }

    @Test func strictValidateWarnsAtABareBundledParent() throws {
        let folder = try TemporaryFolder()
        let bare = try folder.write("{\n  \"extends\": \"orb\"\n}\n", to: "bare.json")
        let strict = wavegen(["validate", "--strict", "--quiet", bare])
        #expect(strict.code == 0, "\(strict.err)")
        #expect(strict.errLines == ["\(bare):2:14: warning: at extends: follows the current bundled look of orb; pin it with \"orb@1\""])
        let plain = wavegen(["validate", "--quiet", bare])
        #expect(plain.code == 0)
        #expect(plain.errLines.isEmpty)

        let pinned = try folder.write("{\n  \"extends\": \"orb@1\"\n}\n", to: "pinned.json")
        let r = wavegen(["validate", "--strict", "--quiet", pinned])
        #expect(r.code == 0)
        #expect(r.errLines.isEmpty)
        // A manifest's preset files are checked too, each once.
        let manifest = try folder.write(#"{"jobs": [{"preset": "bare.json", "output": "a.gif"}, {"preset": "bare.json", "output": "b.webp"}, {"preset": "orb", "output": "c.gif"}]}"#, to: "wavegen.json")
        let m = wavegen(["validate", "--strict", "--quiet", manifest])
        #expect(m.code == 0, "\(m.err)")
        #expect(m.errLines == strict.errLines)
        #expect(wavegen(["validate", "--quiet", manifest]).errLines.isEmpty)
        // A bundled name validated on its own has no extends of its own to pin.
        #expect(wavegen(["validate", "--strict", "--quiet", "orb"]).errLines.isEmpty)
    }
}
