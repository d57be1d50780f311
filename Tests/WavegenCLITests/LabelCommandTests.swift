import Foundation
import Testing
import WaveTestSupport
import WaveKit

/// Labels that cannot be drawn as asked are said, and fonts are found by name.
@Suite struct LabelCommandTests {
    /// "Loading" at the bottom of the orb is cut off by the circle: a warning naming the preset,
    /// exit 0; under --strict an error at label, exit 65 (a preset that is wrong), and no file.
    @Test func aLabelThatDoesNotFitWarnsAndFailsWhenStrict() throws {
        let folder = try TemporaryFolder()
        let args = ["render", "orb", "--set", "label.text=Loading", "--set", "label.position=bottom", "-o", folder.file("o.gif")]
        let warned = wavegen(args)
        #expect(warned.code == 0, "\(warned.err)")
        #expect(warned.errLines.contains { $0.hasPrefix("orb: warning: the label \"Loading\" does not fit: ") && $0.contains("pixels of its text would be cut off") },
                "\(warned.err)")
        try FileManager.default.removeItem(atPath: folder.file("o.gif"))
        let strict = wavegen(args + ["--strict"])
        #expect(strict.code == 65)
        #expect(strict.errLines.first?.hasPrefix("orb: error: at label: the label \"Loading\" does not fit: ") == true, "\(strict.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("o.gif")))
        // A label that fits says nothing.
        let fits = wavegen(["render", "orb", "-o", folder.file("p.gif"), "-q"])
        #expect(fits.code == 0 && fits.err.isEmpty, "\(fits.err)")
    }

    /// Characters the font lacks are an error naming them and the font, from render and validate.
    @Test func missingGlyphsAreNamed() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write(#"{ "extends": "orb", "label": { "text": "水位 {percent}%" } }"#, to: "water.json")
        let expected = "\(preset): error: at label.text: the font \(Label.defaultFont) has no glyph for \"水\" (U+6C34), \"位\" (U+4F4D); use another label.font or leave those characters out"
        let r = wavegen(["render", preset, "-o", folder.file("w.gif")])
        #expect(r.code == 65)
        #expect(r.errLines == [expected])
        let v = wavegen(["validate", preset])
        #expect(v.code == 65)
        #expect(v.errLines == [expected])
    }

    /// "DejaVu Sans:bold" is found through fontconfig: validate reports the file fc-match names
    /// (DejaVuSans-Bold.ttf, from fonts-dejavu-core), and the render equals the default font's.
    @Test func aFontByFamilyAndStyle() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write(#"{ "extends": "orb", "label": { "font": "DejaVu Sans:bold" } }"#, to: "named.json")
        let file = try ChildProcess.run(["/usr/bin/fc-match", "-f", "%{file}", "DejaVu Sans:bold"], in: folder.path, timeout: 60).out
        #expect(file.hasSuffix("/DejaVuSans-Bold.ttf"))
        let v = wavegen(["validate", preset])
        #expect(v.code == 0, "\(v.err)")
        #expect(v.outLines == ["\(preset): font DejaVu Sans:bold → \(file)", "\(preset): ok"])
        #expect(wavegen(["render", preset, "-o", folder.file("named.gif"), "-q"]).code == 0)
        #expect(wavegen(["render", "orb", "-o", folder.file("orb.gif"), "-q"]).code == 0)
        #expect(try folder.bytes("named.gif") == folder.bytes("orb.gif"))
        // A name may change a bundled preset's font for one render; so may a file, relative to
        // the current folder (here: one that is not there).
        let serif = wavegen(["render", "orb", "--set", "label.font=DejaVu Serif:bold", "-o", folder.file("serif.gif"), "-q"])
        #expect(serif.code == 0, "\(serif.err)")
        #expect(try folder.bytes("serif.gif") != folder.bytes("orb.gif"))
        let relative = wavegen(["render", "orb", "--set", "label.font=x.ttf", "-o", folder.file("x.gif")])
        #expect(relative.code == 66)
        #expect(relative.errLines == ["--set: error: at label.font: x.ttf: no such file"])
        // A path is a path, as before; the default is reported as such.
        #expect(wavegen(["validate", "orb"]).outLines == ["orb: font (default) → \(Label.defaultFont)", "orb: ok"])
    }

    /// A family that is not installed is an error at label.font naming what was asked (exit 66, a
    /// missing input), not another family's font.
    @Test func anUnknownFamilyIsRefused() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write("{ \"extends\": \"orb\",\n  \"label\": { \"font\": \"No Such Family Wavegen:bold\" } }", to: "unknown.json")
        let r = wavegen(["validate", preset])
        #expect(r.code == 66)
        #expect(r.errLines.count == 1)
        #expect(r.errLines.first?.hasPrefix("\(preset):2:22: error: at label.font: no installed font of the family \"No Such Family Wavegen\"") == true, "\(r.err)")
    }

    /// A placeholder that is not `{percent}` or `{level}` (or a lone brace) is an error at
    /// label.text with the likely one; `{{` and `}}` are literal braces.
    @Test func unknownPlaceholdersAreErrors() throws {
        let folder = try TemporaryFolder()
        let known = "the text may hold {percent} and {level}, and {{ or }} for a literal brace"
        for (text, expected) in [
            ("{pct}%", "unknown placeholder {pct} (did you mean {percent}?); \(known)"),
            ("{Level}", "unknown placeholder {Level} (did you mean {level}?); \(known)"),
            ("{lvl}", "unknown placeholder {lvl} (did you mean {level}?); \(known)"),
            ("{x}", "unknown placeholder {x}; \(known)"),
            ("50 }", "a lone \"}\"; the text may hold {percent} and {level}, and }} for a literal brace"),
        ] {
            let json = #"{ "extends": "orb", "label": { "text": "\#(text)" } }"#
            let preset = try folder.write(json, to: "p.json")
            let column = try #require(json.range(of: "\"\(text)\"")).lowerBound.utf16Offset(in: json) + 1
            let r = wavegen(["render", preset, "-o", folder.file("p.gif")])
            #expect(r.code == 65)
            #expect(r.errLines == ["\(preset):1:\(column): error: at label.text: \(expected)"])
            #expect(!folder.hasFile("p.gif"))
        }
        let escaped = wavegen(["render", "orb", "--set", #"label.text="{{percent}}""#, "-o", folder.file("e.gif"), "-q"])
        #expect(escaped.code == 0, "\(escaped.err)")
    }
}
