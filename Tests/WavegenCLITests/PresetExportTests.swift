import Foundation
import Testing
import WaveKit
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview
import WaveTestSupport

/// `wavegen presets export NAME [DIR]`: a copy of a bundled preset that renders as is.
@Suite struct PresetExportTests {
    static let names = BundledPresets.sources.keys.sorted()

    /// Renders `reference` to `output` in this process and returns the file's SHA-256.
    func renderedDigest(_ reference: String, to output: String) throws -> String {
        let r = wavegen(["render", reference, "-o", output, "--quiet"])
        #expect(r.code == 0, "\(reference): \(r.err)")
        return SHA256.hex(Array(try Data(contentsOf: URL(fileURLWithPath: output))))
    }

    @Test(arguments: names)
    func exportedCopyRendersTheSameBytes(_ name: String) throws {
        let folder = try TemporaryFolder()
        let dir = folder.file("export/\(name)")
        let r = wavegen(["presets", "export", name, dir])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.isEmpty)
        for format in ["gif", "webp"] {
            let byName = try renderedDigest(name, to: folder.file("by-name.\(format)"))
            let fromFile = try renderedDigest(dir + "/\(name).json", to: folder.file("from-file.\(format)"))
            #expect(byName == fromFile, "\(name).\(format): the exported copy renders differently")
        }
    }

    @Test(arguments: names)
    func writesThePresetItsImagesAndTheSchema(_ name: String) throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["presets", "export", name, folder.path])
        #expect(r.code == 0, "\(r.err)")
        #expect(try folder.bytes("\(name).json") == Array(BundledPresets.sources[name]!.utf8))
        #expect(try folder.bytes("schema.json") == Array(BundledPresets.schema.utf8))
        let written = try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
        let files = written.filter { !$0.hasSuffix("assets") }
        #expect(files == BundledPresets.exportedFiles(name)!.map(\.path).sorted())
        #expect(r.outLines.count == files.count)
        #expect(strayTemporaries(written).isEmpty)
    }

    @Test func boatCarriesItsRiderImage() throws {
        let folder = try TemporaryFolder()
        #expect(wavegen(["presets", "export", "boat", folder.path]).code == 0)
        #expect(try folder.contents() == ["assets", "boat.json", "schema.json"])
        #expect(try folder.bytes("assets/boat.png") == BundledPresets.decodedAssets["assets/boat.png"])
        #expect(wavegen(["validate", folder.file("boat.json")]).code == 0)
    }

    /// An exported preset keeps `extends` by name: from a preset file in any folder, a bundled name
    /// is the bundled parent, even beside an exported copy of that parent (`boat.json`).
    @Test func extendsByNameStillResolvesToTheBundledParent() throws {
        let folder = try TemporaryFolder()
        #expect(wavegen(["presets", "export", "boat", folder.path]).code == 0)
        let child = try folder.write("{\"$schema\": \"./schema.json\", \"extends\": \"boat\", \"name\": \"boat\"}", to: "child.json")
        try FileManager.default.removeItem(atPath: folder.file("assets"))
        let byName = try renderedDigest("boat", to: folder.file("by-name.gif"))
        #expect(try renderedDigest(child, to: folder.file("child.gif")) == byName)
    }

    @Test func createsTheFolderAndItsParents() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["presets", "export", "classic", folder.file("a/b/c")])
        #expect(r.code == 0, "\(r.err)")
        #expect(try folder.contents("a/b/c") == ["classic.json", "schema.json"])
    }

    @Test func refusesToOverwriteWithoutForce() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("mine", to: "schema.json")
        let r = wavegen(["presets", "export", "classic", folder.path])
        #expect(r.code == 73)
        #expect(r.errLines == ["Error: \(folder.file("schema.json")): already exists; use --force to overwrite it"])
        // Nothing is written when any file is in the way.
        #expect(try folder.contents() == ["schema.json"])
        #expect(try folder.bytes("schema.json") == Array("mine".utf8))

        let forced = wavegen(["presets", "export", "classic", folder.path, "--force"])
        #expect(forced.code == 0, "\(forced.err)")
        #expect(try folder.bytes("schema.json") == Array(BundledPresets.schema.utf8))
        #expect(wavegen(["presets", "export", "classic", folder.path]).code == 73)
    }

    @Test func aFileWhereTheFolderShouldBe() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("x", to: "taken")
        let r = wavegen(["presets", "export", "classic", file])
        #expect(r.code == 73)
        #expect(r.errLines == ["Error: \(file): cannot write: not a folder"])
    }

    @Test func unknownNameSuggestsOne() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["presets", "export", "clasic", folder.path])
        #expect(r.code == 66)
        #expect(r.errLines.count == 1)
        #expect(r.errLines.first?.hasPrefix("Error: clasic: no bundled preset of that name (did you mean \"classic\"?; bundled: ") == true, "\(r.err)")
        #expect(try folder.contents().isEmpty)
    }

    @Test(arguments: [["presets", "export"], ["presets", "export", "classic", "a", "b"], ["presets", "show", "classic", "--force"],
                      ["presets", "--force"], ["presets", "exprot", "classic"]])
    func usageErrors(_ args: [String]) {
        let r = wavegen(args)
        #expect(r.code == 64, "\(args)")
        #expect(r.errLines.first?.hasPrefix("Error: ") == true)
    }

    @Test func misspelledActionGetsADidYouMean() {
        #expect(wavegen(["presets", "exprot", "classic"]).errLines.first?.contains("(did you mean 'export'?)") == true)
    }

    @Test func defaultsToTheCurrentFolder() throws {
        let folder = try TemporaryFolder()
        let r = try runExecutable(["presets", "export", "boat"], in: folder)
        #expect(r.code == 0, "\(r.err)")
        #expect(r.outLines.map { $0.split(separator: ":").first.map(String.init) ?? "" } == ["boat.json", "assets/boat.png", "schema.json"])
        #expect(try folder.contents() == ["assets", "boat.json", "schema.json"])
    }

    @Test(arguments: names)
    func showHintsAtExport(_ name: String) {
        let r = wavegen(["presets", "show", name])
        #expect(r.code == 0)
        #expect(r.out == BundledPresets.sources[name]!.appending(BundledPresets.sources[name]!.hasSuffix("\n") ? "" : "\n"))
        let expected = BundledPresets.refersToFiles(name)
            ? ["hint: 'wavegen presets export \(name) DIR' writes a copy that renders as is (with its assets and schema.json)"] : []
        #expect(r.errLines == expected)
    }

    @Test func everyBundledPresetNamesTheSchema() {
        // So every `presets show` prints the hint; a preset without "$schema" or images would not.
        for name in Self.names { #expect(BundledPresets.refersToFiles(name), "\(name)") }
        #expect(!BundledPresets.refersToFiles("nope"))
    }
}
