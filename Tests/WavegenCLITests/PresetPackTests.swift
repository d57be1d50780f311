import Foundation
import Testing
import WaveTestSupport
import WaveKit

/// `presets pack` writes one file that renders alone, anywhere, as its preset renders here.
@Suite struct PresetPackTests {
    /// A preset with a rider beside it, a font file and a two-level `extends` chain ending at a
    /// bundled preset.
    static func customPreset(in folder: TemporaryFolder) throws -> String {
        try FileManager.default.createDirectory(atPath: folder.file("base"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf", toPath: folder.file("brand.ttf"))
        try Data(BundledPresets.decodedAssets["assets/boat.png"]!).write(to: URL(fileURLWithPath: folder.file("ship.png")))
        _ = try folder.write(#"{ "extends": "orb", "size": [96, 96], "rider": { "image": "../ship.png", "width": 0.4 } }"#, to: "base/grand.json")
        _ = try folder.write(#"{ "extends": "grand.json", "label": { "text": "Zoë {percent}%", "font": "../brand.ttf", "size": 0.2 } }"#, to: "base/parent.json")
        return try folder.write(##"{ "extends": "base/parent.json", "layers": [{ "color": "#3366cc" }, { "color": "#88aaff", "opacity": 0.6 }, { "color": "#224488" }] }"##,
                                to: "custom.json")
    }

    /// Every bundled preset and the custom one, packed, then rendered each alone in an empty
    /// folder with the system's font folders hidden: GIF and SVG (glyph outlines, embedded rider) bytes equal the
    /// originals'. The custom one's font is embedded cut down, with its licence recorded.
    @Test func packedPresetsRenderTheSameAloneWithNoFonts() throws {
        let executable = try #require(wavegenExecutable)
        let folder = try TemporaryFolder()
        let custom = try Self.customPreset(in: folder)
        let presets = BundledPresets.sources.keys.sorted() + [custom]
        let formats = ["gif", "svg"]
        var renders: [String] = []
        for (i, preset) in presets.enumerated() {
            let packed = wavegen(["presets", "pack", preset, "-o", folder.file("p\(i).wavegen.json")])
            #expect(packed.code == 0, "\(preset): \(packed.err)")
            print("packed \(preset): \(try folder.bytes("p\(i).wavegen.json").count) bytes")
            let alone = folder.file("alone\(i)")
            try FileManager.default.createDirectory(atPath: alone, withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: folder.file("p\(i).wavegen.json"), toPath: alone + "/p\(i).wavegen.json")
            for f in formats {
                // GIFs at 10 fps (the same override on both sides): a rider's GIF takes long in a debug build.
                let options = f == "gif" ? ["--fps", "10", "-q"] : ["-q"]
                #expect(wavegen(["render", preset, "-o", folder.file("orig\(i).\(f)")] + options).code == 0)
                renders.append("(cd '\(alone)' && '\(executable.path)' render p\(i).wavegen.json -o '\(folder.file("packed\(i).\(f)"))' \(options.joined(separator: " ")))")
            }
        }
        let script = renders.joined(separator: " && ") + " && fc-list | wc -l"
        let hidden = HiddenFonts.run(script, in: folder.path) ?? HiddenFonts.shell(script)
        #expect(hidden.code == 0, "\(hidden.err)")
        if HiddenFonts.unavailable == nil { #expect(hidden.out == "0\n", "fontconfig still finds fonts: \(hidden.out)") }
        for i in presets.indices {
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("alone\(i)")) == ["p\(i).wavegen.json"])
            for f in formats {
                let a = try folder.bytes("orig\(i).\(f)"), b = try folder.bytes("packed\(i).\(f)")
                #expect(!a.isEmpty && a == b, "\(presets[i]) as \(f): the packed file renders other bytes")
            }
        }
        // The custom preset's file: extends gone, image and font embedded, the font cut down.
        let text = String(decoding: try folder.bytes("alone\(presets.count - 1)/p\(presets.count - 1).wavegen.json"), as: UTF8.self)
        let root = try JSONParser.parse(Array(text.utf8))
        #expect(root["extends"] == nil)
        #expect(root["generator"]?.value == .string("wavegen \(WavegenVersion.current)"))
        #expect(root["requires"]?.value == .string(WavegenVersion.current))
        guard case let .string(image)? = root["rider"]?["image"]?.value, case let .string(font)? = root["label"]?["font"]?.value,
              case let .array(fonts)? = root["embeddedFonts"]?.value else {
            Issue.record("no embedded image or font in \(text.prefix(300))")
            return
        }
        #expect(image.hasPrefix("data:image/png;base64,"))
        #expect(font.hasPrefix("data:font/ttf;base64,"))
        #expect(fonts.first?["from"]?.value == .string("../brand.ttf"))
        #expect(fonts.first?["name"]?.value == .string("DejaVu Serif Bold"))
        #expect(fonts.first?["license"]?.value == .string("Fonts are (c) Bitstream (see below). DejaVu changes are in public domain."))
        // "Zoë %" and the digits and point {percent} can show.
        #expect(fonts.first?["characters"]?.value == .number(16))
        guard case let .number(size)? = fonts.first?["bytes"]?.value else { Issue.record("no size"); return }
        #expect(Int(size) < (try folder.bytes("brand.ttf").count) / 3)
    }

    /// A packed file asking for a later release is refused with one line naming it (exit 65),
    /// whatever else the file holds.
    @Test func aLaterReleaseIsRefusedInOneLine() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write("{ \"requires\": \"99.1.0\", \"wavesOfTheFuture\": true, \"layers\": 3 }", to: "new.wavegen.json")
        for args in [["render", preset, "-o", folder.file("x.gif")], ["validate", preset], ["presets", "show", preset]] {
            let r = wavegen(args)
            #expect(r.code == 65)
            #expect(r.errLines == ["\(preset):1:15: error: at requires: this preset needs wavegen 99.1.0 or newer; this is wavegen \(WavegenVersion.current)"], "\(r.err)")
        }
        let same = try folder.write("{ \"requires\": \"\(WavegenVersion.current)\" }", to: "same.json")
        #expect(wavegen(["validate", same]).code == 0)
        let bad = try folder.write("{ \"requires\": \"soon\" }", to: "bad.json")
        #expect(wavegen(["validate", bad]).errLines == ["\(bad):1:15: error: at requires: must be a wavegen release such as \"\(WavegenVersion.current)\", got \"soon\""])
    }

    /// An embedded font or image that is not base64, not a font or PNG, or too large is an error
    /// at its value's line and column, and nothing is written.
    @Test func badEmbeddedFilesAreLocated() throws {
        let folder = try TemporaryFolder()
        let big = String(repeating: "A", count: (DataURI.maximumEmbeddedSize / 3 + 2) * 4)
        let cases: [(String, String, String)] = [
            ("font: not base64", #""label": { "font": "data:font/ttf;base64,@@@@" }"#, "1:22: error: at label.font: the embedded font is not valid base64"),
            ("font: not a font", #""label": { "font": "data:font/ttf;base64,AAAAAAAA" }"#, "1:22: error: at label.font: the embedded font (6 bytes): broken file (too short or cut off)"),
            ("font: in a list", #""label": { "font": ["DejaVu Sans", "data:font/ttf;base64,AAAAAAAA"] }"#, "1:38: error: at label.font[1]: the embedded font (6 bytes): broken file (too short or cut off)"),
            ("font: too large", "\"label\": { \"font\": \"data:font/ttf;base64,\(big)\" }", "1:22: error: at label.font: the embedded font is about \(big.count / 4 * 3) bytes; at most \(DataURI.maximumEmbeddedSize) are accepted"),
            ("font: wrong type", #""label": { "font": "data:image/png;base64,AAAA" }"#, "1:22: error: at label.font: an embedded font is written data:font/…;base64,…, got data:image/png;base64,…"),
            ("image: not a PNG", #""rider": { "image": "data:image/png;base64,AAAAAAAA" }"#, "1:23: error: at rider.image: the embedded image: not a PNG file"),
            ("image: not base64", #""rider": { "image": "data:image/png;base64,!" }"#, "1:23: error: at rider.image: the embedded image is not valid base64"),
        ]
        for (what, member, expected) in cases {
            let preset = try folder.write("{ \(member) }", to: "bad.json")
            let r = wavegen(["render", preset, "-o", folder.file("bad.gif")])
            #expect(r.code == 65, "\(what): \(r.err)")
            #expect(r.errLines.count == 1 && r.errLines.first?.hasPrefix("\(preset):\(expected)") == true, "\(what): \(r.err.prefix(400))")
            #expect(!FileManager.default.fileExists(atPath: folder.file("bad.gif")))
        }
    }

    /// Usage: pack needs --output, refuses to replace a file without --force, and names a
    /// missing preset.
    @Test func packUsage() throws {
        let folder = try TemporaryFolder()
        #expect(wavegen(["presets", "pack", "orb"]).code == 64)
        let out = folder.file("orb.wavegen.json")
        #expect(wavegen(["presets", "pack", "orb", "-o", out]).code == 0)
        let again = wavegen(["presets", "pack", "orb", "-o", out])
        #expect(again.code == 73)
        #expect(again.errLines.first == "Error: \(out): already exists; use --force to overwrite it")
        #expect(wavegen(["presets", "pack", "orb", "-o", out, "--force"]).code == 0)
        #expect(wavegen(["presets", "pack", "nope", "-o", folder.file("n.json")]).code == 66)
        #expect(wavegen(["presets", "show", "orb", "-o", out]).code == 64)
    }
}
