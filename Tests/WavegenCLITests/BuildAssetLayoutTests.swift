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

/// Where app teams put their files: Android's `drawable-{density}` folders and resource names, an
/// Xcode asset catalog's data sets, and one vector file for all of a job's scales.
@Suite struct BuildAssetLayoutTests {
    /// A folder holding `presets/blue.json` and `presets/brand-orb.json` (tiny presets) and
    /// `manifest` as wavegen.json.
    func project(_ manifest: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "presets/blue.json")
        try folder.writeFile(blinkPreset, at: "presets/brand-orb.json")
        try folder.writeFile(manifest, at: "wavegen.json")
        return folder
    }

    /// The error lines of a run, with the temporary folder taken out.
    func errors(_ r: RunResult, _ folder: TemporaryFolder) -> [String] {
        r.errLines.map { $0.replacingOccurrences(of: folder.path + "/", with: "") }
    }

    // MARK: {density}

    @Test func densityNames() {
        #expect([0.75, 1, 1.5, 2, 3, 4].map(OutputTemplate.densityText) == ["ldpi", "mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi"])
        #expect(OutputTemplate.densityText(2.5) == nil)
        #expect(OutputTemplate.densityText(16) == nil)
    }

    @Test func densityFoldersForEachScale() throws {
        let folder = try project("""
            {"jobs": [
              { "name": "android", "preset": "presets/blue.json", "output": "res/drawable-{density}/{name}.gif", "scales": [1, 1.5, 2, 3, 4] },
              { "name": "own", "preset": "presets/blue.json", "output": "own/{density}/{name}.gif", "set": {"scale": 3} }
            ]}
            """)
        let manifest = folder.file("wavegen.json")
        let build = wavegen(["build", manifest])
        #expect(build.code == 0, "\(build.err)")
        #expect(build.err.isEmpty, "\(build.err)")
        let res = folder.path + "/res"
        #expect(build.paths("written") == ["\(res)/drawable-mdpi/blue.gif", "\(res)/drawable-hdpi/blue.gif", "\(res)/drawable-xhdpi/blue.gif",
                                           "\(res)/drawable-xxhdpi/blue.gif", "\(res)/drawable-xxxhdpi/blue.gif", "\(folder.path)/own/xxhdpi/blue.gif"])
        #expect(try GIFDecoder.decode(try folder.bytes("res/drawable-hdpi/blue.gif")).width == 24)
        #expect(try GIFDecoder.decode(try folder.bytes("res/drawable-xxxhdpi/blue.gif")).width == 64)
        // The lock and the orphan logic see the same paths: nothing is stale or orphaned.
        let check = wavegen(["build", manifest, "--check"])
        #expect(check.code == 0, "\(check.err)")
        #expect(check.outLines.last == "6 outputs: 6 unchanged, 0 missing, 0 stale, 0 modified, 0 over budget, 0 failed")
        let one = wavegen(["build", manifest, "--job", "own"])
        #expect(one.code == 0 && one.err.isEmpty, "\(one.err)")
        // Dropping a scale orphans that density's file.
        try folder.writeFile("""
            {"jobs": [
              { "name": "android", "preset": "presets/blue.json", "output": "res/drawable-{density}/{name}.gif", "scales": [1, 1.5, 2, 3] },
              { "name": "own", "preset": "presets/blue.json", "output": "own/{density}/{name}.gif", "set": {"scale": 3} }
            ]}
            """, at: "wavegen.json")
        let prune = wavegen(["build", manifest, "--prune"])
        #expect(prune.code == 0, "\(prune.err)")
        #expect(prune.paths("pruned") == ["\(res)/drawable-xxxhdpi/blue.gif"])
    }

    @Test func aScaleWithoutADensityIsRefusedBeforeAnythingRenders() throws {
        let folder = try project("""
            {"jobs": [
              { "preset": "presets/blue.json", "output": "res/drawable-{density}/{name}.gif", "scales": [1, 2.5] }
            ]}
            """)
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 65)
        #expect(errors(r, folder) == [
            "wavegen.json:2:97: error: at jobs[0].scales[1]: 2.5 has no Android density, and the output uses {density}; "
                + "the scales {density} names are 0.75 (ldpi), 1 (mdpi), 1.5 (hdpi), 2 (xhdpi), 3 (xxhdpi), 4 (xxxhdpi)",
        ])
        #expect(!folder.hasFile("res") && !folder.hasFile("wavegen.lock"))
    }

    @Test func aPresetScaleWithoutADensityIsRefused() throws {
        let folder = try project("""
            {"jobs": [
              { "preset": "presets/blue.json", "output": "res/{density}/{name}.gif", "set": {"scale": 2.5} }
            ]}
            """)
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 65)
        #expect(errors(r, folder) == [
            "wavegen.json:2:46: error: at jobs[0].output: uses {density}, but the preset's scale 2.5 has no Android density; "
                + "add \"scales\" from 0.75 (ldpi), 1 (mdpi), 1.5 (hdpi), 2 (xhdpi), 3 (xxhdpi), 4 (xxxhdpi)",
        ])
        #expect(!folder.hasFile("res"))
    }

    // MARK: Android resource names

    @Test func androidResourceNames() {
        #expect(AndroidResourceName.problem("brand_orb") == nil)
        #expect(AndroidResourceName.problem("loader_2") == nil)
        #expect(AndroidResourceName.problem("brand-orb@2x") == "holds \"-\": only lowercase a–z, digits 0–9 and _ are allowed")
        #expect(AndroidResourceName.problem("Orb") == "holds \"O\": only lowercase a–z, digits 0–9 and _ are allowed")
        #expect(AndroidResourceName.problem("2orb") == "starts with \"2\": it must start with a letter a–z")
        #expect(AndroidResourceName.problem("_orb") == "starts with \"_\": it must start with a letter a–z")
        #expect(AndroidResourceName.problem("class") == "is a Java keyword")
        #expect(AndroidResourceName.suggestion(for: "brand-orb@2x", dropping: "@2x") == "brand_orb")
        #expect(AndroidResourceName.suggestion(for: "Brand Orb--Dark") == "brand_orb_dark")
        #expect(AndroidResourceName.suggestion(for: "3d") == "anim_3d")
        #expect(AndroidResourceName.suggestion(for: "new") == "new_anim")
        for name in ["brand-orb@2x", "Brand Orb--Dark", "3d", "new", "@@", "é"] {
            #expect(AndroidResourceName.problem(AndroidResourceName.suggestion(for: name)) == nil, "\(name)")
        }
        func template(_ s: String) -> OutputTemplate { try! OutputTemplate.parse(s).get() }
        #expect(AndroidResourceName.isResourceFolder(template("app/src/main/res/drawable-{density}/{name}.gif")))
        #expect(AndroidResourceName.isResourceFolder(template("res/raw/{name}.json")))
        #expect(AndroidResourceName.isResourceFolder(template("res/drawable/{name}.gif")))
        #expect(!AndroidResourceName.isResourceFolder(template("out/drawables/{name}.gif")))
        #expect(!AndroidResourceName.isResourceFolder(template("out/drawable.gif")))
    }

    @Test func aBadResourceNameIsRefusedWithAFixedName() throws {
        let folder = try project("""
            {"jobs": [
              { "preset": "presets/brand-orb.json", "output": "res/drawable-{density}/{name}{scale}.gif", "scales": [1, 2] },
              { "preset": "presets/blue.json", "output": "res/raw/Blue.json" },
              { "preset": "presets/blue.json", "output": "out/{name}-x.gif", "android": true },
              { "preset": "presets/blue.json", "output": "res/raw/blue_loader.json" }
            ]}
            """)
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 65)
        #expect(errors(r, folder) == [
            "wavegen.json:2:51: error: at jobs[0].output: res/drawable-mdpi/brand-orb.gif: \"brand-orb\" is not an Android resource name "
                + "(it is in an Android resource folder): it holds \"-\": only lowercase a–z, digits 0–9 and _ are allowed; "
                + "{scale} adds \"@2x\", which a resource name cannot hold: use drawable-{density} folders instead of {scale}; name it \"brand_orb\"",
            "wavegen.json:3:46: error: at jobs[1].output: res/raw/Blue.json: \"Blue\" is not an Android resource name (it is in an Android resource folder): "
                + "it holds \"B\": only lowercase a–z, digits 0–9 and _ are allowed; name it \"blue\"",
            "wavegen.json:4:46: error: at jobs[2].output: out/blue-x.gif: \"blue-x\" is not an Android resource name (the job sets \"android\": true): "
                + "it holds \"-\": only lowercase a–z, digits 0–9 and _ are allowed; name it \"blue_x\"",
        ])
        #expect(!folder.hasFile("res") && !folder.hasFile("out"))
    }

    @Test func theScaleTextIsNamedWhenItIsTheOnlyProblem() throws {
        let folder = try project("""
            {"jobs": [
              { "preset": "presets/blue.json", "output": "res/drawable/{name}{scale}.gif", "scales": [1, 3] }
            ]}
            """)
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 65)
        #expect(errors(r, folder) == [
            "wavegen.json:2:46: error: at jobs[0].output: res/drawable/blue@3x.gif: \"blue@3x\" is not an Android resource name "
                + "(it is in an Android resource folder): it holds \"@\": only lowercase a–z, digits 0–9 and _ are allowed; "
                + "{scale} adds \"@3x\", which a resource name cannot hold: use drawable-{density} folders instead of {scale}; name it \"blue\"",
        ])
    }

    @Test func androidMustBeABoolean() throws {
        let folder = try project(#"{"jobs": [{ "preset": "presets/blue.json", "output": "a.gif", "android": "yes" }]}"#)
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 65)
        #expect(r.err.contains("at jobs[0].android: expected true"), "\(r.err)")
    }

    // MARK: Asset catalogs

    /// The catalog job of the catalog tests, with `scales`.
    func catalogManifest(scales: String) -> String {
        """
        {"jobs": [
          { "name": "ios", "preset": "presets/blue.json", "catalog": "App/Loaders.xcassets", "output": "{name}-{format}{scale}.{format}",
            "formats": ["gif", "webp"], "scales": \(scales) }
        ]}
        """
    }

    @Test func aCatalogHoldsOneDataSetPerOutput() throws {
        let folder = try project(catalogManifest(scales: "[1, 2]"))
        let manifest = folder.file("wavegen.json")
        let first = wavegen(["build", manifest])
        #expect(first.code == 0, "\(first.err)")
        #expect(first.err.isEmpty, "\(first.err)")
        let catalog = "App/Loaders.xcassets"
        let dataSets = ["blue-gif", "blue-webp", "blue-gif@2x", "blue-webp@2x"]
        #expect(folder.regularFiles(under: catalog) == ["Contents.json"] + dataSets.sorted().flatMap { name in
            ["\(name).dataset/Contents.json", "\(name).dataset/\(name).\(name.contains("gif") ? "gif" : "webp")"]
        })
        #expect(first.paths("written").count == 9)
        #expect(first.outLines.last == "9 outputs: 9 written, 0 unchanged, 0 over budget, 0 failed")

        let root = try JSONParser.parse(try folder.bytes(catalog + "/Contents.json"))
        #expect(root["info"]?["author"]?.value == .string("xcode") && root["info"]?["version"]?.value == .number(1))
        #expect(root["data"] == nil)
        for name in dataSets {
            let contents = try JSONParser.parse(try folder.bytes("\(catalog)/\(name).dataset/Contents.json"))
            guard case let .array(items)? = contents["data"]?.value else { Issue.record("no data in \(name)"); continue }
            #expect(items.count == 1)
            guard case let .string(file)? = items.first?["filename"]?.value else { Issue.record("no filename in \(name)"); continue }
            #expect(items.first?["idiom"]?.value == .string("universal"))
            #expect(contents["info"]?["author"]?.value == .string("xcode") && contents["info"]?["version"]?.value == .number(1))
            let bytes = try folder.bytes("\(catalog)/\(name).dataset/\(file)")
            if file.hasSuffix(".gif") {
                #expect(items.first?["universal-type-identifier"]?.value == .string("com.compuserve.gif"))
                #expect(try GIFDecoder.decode(bytes).width == (name.hasSuffix("@2x") ? 32 : 16))
            } else {
                #expect(items.first?["universal-type-identifier"]?.value == .string("org.webmproject.webp"))
                #expect(try WebPAnimationDecoder.decode(bytes).width == (name.hasSuffix("@2x") ? 32 : 16))
            }
        }
        // The bytes Xcode itself writes, so opening the catalog changes nothing.
        #expect(String(decoding: try folder.bytes(catalog + "/blue-gif.dataset/Contents.json"), as: UTF8.self) == """
            {
              "data" : [
                {
                  "filename" : "blue-gif.gif",
                  "idiom" : "universal",
                  "universal-type-identifier" : "com.compuserve.gif"
                }
              ],
              "info" : {
                "author" : "xcode",
                "version" : 1
              }
            }

            """)
        let lock = try String(contentsOfFile: folder.file("wavegen.lock"), encoding: .utf8)
        #expect(lock.contains("\"\(catalog)/Contents.json\": {\"input\""), "\(lock)")
        #expect(lock.contains("\"\(catalog)/blue-gif@2x.dataset/Contents.json\": {\"input\""), "\(lock)")

        // A rebuild writes nothing, and --check passes.
        try folder.backdate(under: catalog)
        let again = wavegen(["build", manifest])
        #expect(again.code == 0, "\(again.err)")
        #expect(again.paths("written").isEmpty, "\(again.out)")
        #expect(again.paths("unchanged").count == 9)
        for name in folder.regularFiles(under: catalog) { #expect(try folder.modified(catalog + "/" + name) == backdatedTime, "\(name) was rewritten") }
        #expect(wavegen(["build", manifest, "--check"]).code == 0)

        // A Contents.json changed by hand or deleted is caught.
        try folder.writeFile("{}", at: catalog + "/blue-webp.dataset/Contents.json")
        try FileManager.default.removeItem(atPath: folder.file(catalog + "/Contents.json"))
        let broken = wavegen(["build", manifest, "--check"])
        #expect(broken.code == 1)
        #expect(broken.paths("missing") == [folder.file(catalog + "/Contents.json")])
        #expect(broken.paths("modified") == [folder.file(catalog + "/blue-webp.dataset/Contents.json")])
        #expect(wavegen(["build", manifest]).code == 0)
        #expect(wavegen(["build", manifest, "--check"]).code == 0)

        // Without @2x, its data sets are obsolete: --check names them and --prune removes them whole.
        try folder.writeFile(catalogManifest(scales: "[1]"), at: "wavegen.json")
        let check = wavegen(["build", manifest, "--check"])
        #expect(check.code == 1)
        let obsolete = ["blue-gif@2x.dataset/Contents.json", "blue-gif@2x.dataset/blue-gif@2x.gif",
                        "blue-webp@2x.dataset/Contents.json", "blue-webp@2x.dataset/blue-webp@2x.webp"].map { folder.file(catalog + "/" + $0) }
        #expect(check.paths("orphaned") == obsolete, "\(check.out)")
        let prune = wavegen(["build", manifest, "--prune"])
        #expect(prune.code == 0, "\(prune.err)")
        #expect(prune.paths("pruned") == obsolete)
        #expect(!folder.hasFile(catalog + "/blue-gif@2x.dataset") && !folder.hasFile(catalog + "/blue-webp@2x.dataset"))
        #expect(folder.regularFiles(under: catalog) == ["Contents.json", "blue-gif.dataset/Contents.json", "blue-gif.dataset/blue-gif.gif",
                                                        "blue-webp.dataset/Contents.json", "blue-webp.dataset/blue-webp.webp"])
        #expect(wavegen(["build", manifest, "--check"]).code == 0)
    }

    /// The JSON report lists each Contents.json as an output of format "contents".
    @Test func theReportListsContentsFiles() throws {
        let folder = try project(catalogManifest(scales: "[1]"))
        let r = wavegen(["build", folder.file("wavegen.json"), "--json"])
        #expect(r.code == 0, "\(r.err)")
        let root = try JSONParser.parse(Array(r.out.utf8))
        guard case let .array(outputs)? = root["outputs"]?.value else { Issue.record("no outputs"); return }
        let formats = outputs.compactMap { o -> String? in if case let .string(f)? = o["format"]?.value { return f } else { return nil } }
        #expect(formats == ["gif", "webp", "contents", "contents", "contents"])
        #expect(outputs.last?["path"]?.value == .string(folder.file("App/Loaders.xcassets/blue-webp.dataset/Contents.json")))
        #expect(outputs.last?["status"]?.value == .string("written"))
        #expect(root["summary"]?["outputs"]?.value == .number(5))
    }

    @Test func catalogTypeIdentifiers() {
        #expect(OutputFormat.allCases.map(AssetCatalog.typeIdentifier)
            == ["com.compuserve.gif", "org.webmproject.webp", "public.png", "public.svg-image", "public.json", "public.zip-archive"])
    }

    @Test func aDataSetHoldsOneFile() throws {
        let folder = try project("""
            {"jobs": [
              { "preset": "presets/blue.json", "catalog": "Loaders.xcassets", "output": "{name}.{format}", "formats": ["gif", "webp"] }
            ]}
            """)
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 65)
        #expect(errors(r, folder) == [
            "wavegen.json:2:77: error: at jobs[0].output: Loaders.xcassets/blue.dataset would hold both blue.gif and blue.webp; "
                + "a data set holds one file; give each format its own name, e.g. \"{name}-{format}.{format}\"",
        ])
        #expect(!folder.hasFile("Loaders.xcassets"))
    }

    @Test func aCatalogTemplateIsAFileName() throws {
        let folder = try project("""
            {"jobs": [
              { "preset": "presets/blue.json", "catalog": "Loaders.xcassets", "output": "out/{name}.gif" },
              { "preset": "presets/blue.json", "catalog": "Loaders", "output": "{name}.gif" }
            ]}
            """)
        let r = wavegen(["build", folder.file("wavegen.json")])
        #expect(r.code == 65)
        #expect(r.errLines.count == 2, "\(r.err)")
        #expect(r.err.contains("at jobs[0].output: with \"catalog\", the output is a file name only"), "\(r.err)")
        #expect(r.err.contains("at jobs[1].catalog: expected an Xcode asset catalog folder such as \"Loaders.xcassets\""), "\(r.err)")
    }

    // MARK: Vector outputs and scales

    @Test func oneVectorFileForAllScales() throws {
        let folder = try project("""
            {"jobs": [
              { "name": "web", "preset": "presets/blue.json", "output": "out/{name}{scale}.{format}", "formats": ["gif", "svg"], "scales": [1, 2, 3] },
              { "name": "big", "preset": "presets/blue.json", "output": "big/{name}{scale}.{format}", "formats": ["lottie", "gif"], "scales": [2, 3] }
            ]}
            """)
        let manifest = folder.file("wavegen.json")
        let r = wavegen(["build", manifest])
        #expect(r.code == 0, "\(r.err)")
        let out = folder.path + "/out", big = folder.path + "/big"
        #expect(r.paths("written") == ["\(out)/blue.gif", "\(out)/blue.svg", "\(out)/blue@2x.gif", "\(out)/blue@3x.gif",
                                       "\(big)/blue.json", "\(big)/blue@2x.gif", "\(big)/blue@3x.gif"])
        #expect(folder.regularFiles(under: "out") == ["blue.gif", "blue.svg", "blue@2x.gif", "blue@3x.gif"])
        #expect(r.errLines == [
            "note: jobs[0] (web): svg and lottie are resolution-independent; one file written instead of one per scale",
            "note: jobs[1] (big): svg and lottie are resolution-independent; one file written instead of one per scale",
        ])
        // The vector file is the scale-1 one, even when the job's scales leave 1 out.
        #expect(try folder.bytes("out/blue.svg") == RenderPipeline().render(folder.file("presets/blue.json"), format: .svg))
        #expect(try folder.bytes("big/blue.json") == RenderPipeline().render(folder.file("presets/blue.json"), format: .lottie))
        let check = wavegen(["build", manifest, "--check"])
        #expect(check.code == 0, "\(check.err)")
        #expect(check.outLines.last == "7 outputs: 7 unchanged, 0 missing, 0 stale, 0 modified, 0 over budget, 0 failed")
        // Vector formats only: one file, and no preset loaded for the other scales.
        try folder.writeFile("""
            {"jobs": [{ "name": "web", "preset": "presets/blue.json", "output": "out/{name}{scale}.{format}", "formats": ["svg"], "scales": [2, 3] }]}
            """, at: "wavegen.json")
        let vectors = wavegen(["build", manifest, "--list"])
        #expect(vectors.outLines.map { ($0.components(separatedBy: "  ")[0] as NSString).lastPathComponent } == ["blue.svg"])
        // One scale: nothing to merge, no note.
        try folder.writeFile("""
            {"jobs": [{ "name": "web", "preset": "presets/blue.json", "output": "out/{name}{scale}.{format}", "formats": ["gif", "svg"], "scales": [2] }]}
            """, at: "wavegen.json")
        let one = wavegen(["build", manifest, "--list"])
        #expect(one.outLines.map { ($0.components(separatedBy: "  ")[0] as NSString).lastPathComponent } == ["blue@2x.gif", "blue@2x.svg"])
    }
}
