import Foundation
import Testing
import WaveTestSupport
@testable import WaveKit

/// `"extends": "NAME@N"`: a bundled parent pinned to a bundled preset version, read from a frozen
/// copy (presets/versions/NAME@M.json, here an injected table) once the current preset has changed.
@Suite struct PresetVersionTests {
    let scratch: TemporaryFolder
    init() throws { scratch = try TemporaryFolder() }

    /// A folder holding `child.json` with `text`.
    func child(_ text: String) throws -> (folder: URL, path: String) {
        let dir = try scratch.subfolder()
        let path = dir.appendingPathComponent("child.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (dir, path)
    }

    /// orb as a later wavegen might ship it: another background and one layer.
    static let changedOrb = ##"{ "format": 1, "name": "orb", "size": [96, 96], "background": "#000000", "level": 0.3, "layers": [ { "color": "#FF0000" } ] }"##

    /// This build's bundled presets, with orb changed in version 2 and its version-1 look frozen.
    static let later = PresetLoader(bundled: BundledPresets.sources.merging(["orb": changedOrb]) { $1 },
                                    bundledVersions: ["orb@1": BundledPresets.sources["orb"]!], bundledFormatVersion: 2)

    @Test func thisBuildIsVersionOneWithNothingFrozen() {
        #expect(BundledPresets.formatVersion == 1)
        #expect(BundledPresets.versions.isEmpty)
        #expect(PresetLoader().bundledFormatVersion == BundledPresets.formatVersion)
    }

    @Test func pinnedParentSurvivesAChangeToTheBundledPreset() throws {
        let (dir, path) = try child(#"{ "extends": "orb@1", "fps": 25 }"#)
        let today = try PresetLoader().load(path)
        let later = try Self.later.load(path)
        #expect(later == today)
        #expect(try Self.later.resolve(path).root.canonicalText == PresetLoader().resolve(path).root.canonicalText)

        // A bare name follows the current look; "orb@2" is the current look of the later build.
        let (bareDir, bare) = try child(#"{ "extends": "orb", "fps": 25 }"#)
        #expect(try Self.later.load(bare).background != today.background)
        #expect(try Self.later.resolve("orb@2").root.canonicalText == Self.later.resolve("orb").root.canonicalText)
    }

    @Test func aFrozenCopyServesEveryVersionUpToItsOwn() throws {
        // orb unchanged from 1 to 2 and changed in 3: frozen once, as orb@2.
        let loader = PresetLoader(bundled: BundledPresets.sources.merging(["orb": Self.changedOrb]) { $1 },
                                  bundledVersions: ["orb@2": BundledPresets.sources["orb"]!], bundledFormatVersion: 3)
        #expect(try loader.versionedBundledText("orb@1") == BundledPresets.sources["orb"])
        #expect(try loader.versionedBundledText("orb@2") == BundledPresets.sources["orb"])
        #expect(try loader.versionedBundledText("orb@3") == Self.changedOrb)
        // Presets that did not change read their current text at every version.
        #expect(try loader.versionedBundledText("classic@1") == BundledPresets.sources["classic"])
        #expect(try loader.versionedBundledText("nope@1") == nil)
    }

    @Test(arguments: [
        ("orb@3", "bundled preset version 3 is newer than this wavegen knows (orb has orb@1 to orb@2); a newer wavegen is needed"),
        ("orb@0", "no version 0 of orb (orb has orb@1 to orb@2)"),
        ("orb@x", "\"x\" is not a version: write a whole number after '@' (orb has orb@1 to orb@2)"),
    ])
    func refusedVersionsAreLocatedAtExtends(_ reference: String, _ message: String) throws {
        let (dir, path) = try child("{\n  \"extends\": \"\(reference)\"\n}\n")
        let expected = WaveError(DocumentProblem(file: path, line: 2, column: 14, keyPath: "extends", message: "\(reference): \(message)"))
        #expect(throws: expected) { try Self.later.load(path) }
    }

    @Test func unpinnedExtendsAreFoundInEveryFileOfTheChain() throws {
        let (dir, path) = try child(#"{ "extends": "mid.json" }"#)
        let mid = dir.appendingPathComponent("mid.json").path
        try "{\n  \"extends\": \"classic\"\n}".write(toFile: mid, atomically: true, encoding: .utf8)
        let found = PresetLoader().unpinnedExtends(path)
        #expect(found == [DocumentProblem(file: mid, line: 2, column: 14, keyPath: "extends",
                                           message: "follows the current bundled look of classic; pin it with \"classic@1\"")])
        try "{\n  \"extends\": \"classic@1\"\n}".write(toFile: mid, atomically: true, encoding: .utf8)
        #expect(PresetLoader().unpinnedExtends(path).isEmpty)
    }
}
