import Foundation
import Testing
import WaveTestSupport
import WaveKit

/// Overrides and inherited keys as a user meets them: `null` drops an inherited key, files named
/// on the command line are found from the current folder, and font problems point at the key.
@Suite struct PresetOverrideCommandTests {
    /// `dark` with its JSON written out, `shape` set to `circle` and `cornerRadius` left out: what
    /// a child of `dark` that drops the inherited radius must render.
    func darkAsACircle(in folder: TemporaryFolder) throws -> String {
        let shown = wavegen(["presets", "show", "dark"])
        #expect(shown.code == 0)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(shown.out.utf8)) as? [String: Any])
        #expect(object["cornerRadius"] != nil)
        object["cornerRadius"] = nil
        object["$schema"] = nil
        object["shape"] = "circle"
        let data = try JSONSerialization.data(withJSONObject: object)
        return try folder.write(String(decoding: data, as: UTF8.self), to: "dark.json")
    }

    /// A child of `dark` choosing a circle inherits `cornerRadius`: an error that says how to drop
    /// it; `"cornerRadius": null` in the child, `--set cornerRadius=null` and a manifest's `set`
    /// each drop it, and all three render the bytes of `dark` written out without the key.
    @Test func nullDropsAnInheritedKey() throws {
        let folder = try TemporaryFolder()
        let reference = try darkAsACircle(in: folder)
        #expect(wavegen(["render", reference, "-o", folder.file("reference.gif"), "-q"]).code == 0)

        let plain = try folder.write(#"{ "extends": "dark", "shape": "circle" }"#, to: "plain.json")
        let refused = wavegen(["render", plain, "-o", folder.file("plain.gif")])
        #expect(refused.code == 65)
        #expect(refused.errLines.count == 1)
        #expect(refused.errLines.first?.hasPrefix("dark:") == true)
        #expect(refused.errLines.first?.hasSuffix(#"error: at cornerRadius: only applies to "shape": "rounded"; leave it out, or drop one inherited from another preset with null ("cornerRadius": null, --set cornerRadius=null)"#) == true,
                "\(refused.err)")
        #expect(!folder.hasFile("plain.gif"))

        let child = try folder.write(#"{ "extends": "dark", "shape": "circle", "cornerRadius": null }"#, to: "child.json")
        #expect(wavegen(["render", child, "-o", folder.file("child.gif"), "-q"]).code == 0)
        #expect(try folder.bytes("child.gif") == folder.bytes("reference.gif"))

        let set = wavegen(["render", "dark", "--set", "shape=circle", "--set", "cornerRadius=null", "-o", folder.file("set.gif"), "-q"])
        #expect(set.code == 0, "\(set.err)")
        #expect(try folder.bytes("set.gif") == folder.bytes("reference.gif"))

        try folder.writeFile(#"{ "jobs": [{ "preset": "dark", "output": "out.gif", "set": { "shape": "circle", "cornerRadius": null } }] }"#,
                             at: "wavegen.json")
        let built = wavegen(["build", folder.file("wavegen.json"), "-q"])
        #expect(built.code == 0, "\(built.err)")
        #expect(try folder.bytes("out.gif") == folder.bytes("reference.gif"))
    }

    /// A `null` for a key the chain never set is the default, and a null array element is still
    /// an error at its position.
    @Test func nullMeansTheDefault() throws {
        let folder = try TemporaryFolder()
        let withNull = try folder.write(#"{ "size": [32, 32], "fps": null, "label": null }"#, to: "a.json")
        let without = try folder.write(#"{ "size": [32, 32] }"#, to: "b.json")
        #expect(wavegen(["render", withNull, "-o", folder.file("a.gif"), "-q"]).code == 0)
        #expect(wavegen(["render", without, "-o", folder.file("b.gif"), "-q"]).code == 0)
        #expect(try folder.bytes("a.gif") == folder.bytes("b.gif"))
        let element = try folder.write(#"{ "layers": [null] }"#, to: "c.json")
        let r = wavegen(["validate", element])
        #expect(r.code == 65)
        #expect(r.errLines == ["\(element):1:14: error: at layers[0]: expected an object, got null"])
    }

    /// `--set rider.image` and `--set label.font` name files from the current folder, even over a
    /// bundled preset or a preset in another folder, and their problems are named `--set KEY`.
    @Test func filesOnTheCommandLineResolveAgainstTheCurrentFolder() throws {
        let folder = try TemporaryFolder()
        let boat = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../presets/assets/boat.png"))
        try boat.write(to: folder.url.appendingPathComponent("ship.png"))
        try folder.writeFile(#"{ "extends": "classic", "size": [64, 64], "rider": { "image": "../ship.png" } }"#, at: "sub/p.json")
        try folder.writeFile(#"{ "extends": "classic", "size": [64, 64] }"#, at: "sub/q.json")
        let fromFile = try runExecutable(["render", "sub/p.json", "-o", "file.gif", "-q"], in: folder)
        #expect(fromFile.code == 0, "\(fromFile.err)")
        let fromSet = try runExecutable(["render", "sub/q.json", "--set", "rider.image=ship.png", "-o", "set.gif", "-q"], in: folder)
        #expect(fromSet.code == 0, "\(fromSet.err)")
        #expect(try folder.bytes("set.gif") == folder.bytes("file.gif"))
        let bundled = try runExecutable(["render", "classic", "--size", "64x64", "--set", "rider={\"image\": \"ship.png\"}", "-o", "bundled.gif", "-q"], in: folder)
        #expect(bundled.code == 0, "\(bundled.err)")
        #expect(try folder.bytes("bundled.gif") == folder.bytes("file.gif"))

        let missing = try runExecutable(["render", "boat", "--set", "rider.image=nope.png", "-o", "x.gif"], in: folder)
        #expect(missing.code == 66)
        #expect(missing.errLines == ["--set: error: at rider.image: nope.png: no such file"])
        try folder.writeFile("not a font\n", at: "bad.ttf")
        let badFont = try runExecutable(["render", "orb", "--set", "label.font=bad.ttf", "-o", "x.gif"], in: folder)
        #expect(badFont.code == 65)
        #expect(badFont.errLines == ["--set: error: at label.font: bad.ttf: unknown file format (not a TrueType or OpenType font)"])
        let font = try runExecutable(["render", "orb", "--size", "64x64", "--set", "label.font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "-o", "f.gif", "-q"], in: folder)
        #expect(font.code == 0, "\(font.err)")
        #expect(!folder.hasFile("x.gif"))
    }

    /// A file that is not a font is refused at the `label.font` that names it, with its position,
    /// by validate and render alike.
    @Test func aFileThatIsNotAFontIsRefusedAtItsKey() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile("not a font\n", at: "bad.ttf")
        let text = #"{ "extends": "orb", "label": { "font": "bad.ttf" } }"#
        let preset = try folder.write(text, to: "p.json")
        let column = try #require(text.range(of: "\"bad.ttf\"")).lowerBound.utf16Offset(in: text) + 1
        let expected = "\(preset):1:\(column): error: at label.font: \(folder.file("bad.ttf")): unknown file format (not a TrueType or OpenType font)"
        for args in [["validate", preset], ["render", preset, "-o", folder.file("p.gif")]] {
            let r = wavegen(args)
            #expect(r.code == 65)
            #expect(r.errLines == [expected])
        }
        #expect(!folder.hasFile("p.gif"))
    }
}

/// Slips a new user makes with values, each answered with what was meant.
@Suite struct ValueSlipTests {
    /// `--level 55` (a percent) says the level is a fraction and what 55 % is, exit 64.
    @Test func aLevelInPercentIsExplained() {
        let r = wavegen(["render", "orb", "--level", "55", "-o", "/nonexistent/x.gif"])
        #expect(r.code == 64)
        #expect(r.errLines.first == "Error: --level is a fraction of the height from 0 to 1 (0.55 for 55 %), got 55")
    }

    /// A size written as on the command line ("64x64") says how to write it in JSON.
    @Test func aSizeAsTextIsExplained() {
        let r = wavegen(["render", "classic", "--set", "size=64x64", "-o", "/nonexistent/x.gif"])
        #expect(r.code == 65)
        #expect(r.errLines == [#"--set: error: at size: expected [width, height] in whole pixels, got "64x64" (write [64, 64]; on the command line --size 64x64 says it too)"#])
    }

    /// A keyword in another spelling or with a typo gets the keyword it is close to.
    @Test func keywordsSuggestTheirSpelling() throws {
        let folder = try TemporaryFolder()
        for (json, expected) in [
            (#"{"level": {"ease": "ease-in-out"}}"#, #"at level.ease: "ease-in-out" is not one of "linear", "easeInOut" (did you mean "easeInOut"?)"#),
            (#"{"shape": "Circle"}"#, #"at shape: "Circle" is not one of "rect", "rounded", "circle", "triangle", "heart", "drop" (did you mean "circle"?)"#),
            (#"{"shape": "triangel"}"#, #"at shape: "triangel" is not one of "rect", "rounded", "circle", "triangle", "heart", "drop" (did you mean "triangle"?)"#),
            (#"{"shape": "hexagon"}"#, #"at shape: "hexagon" is not one of "rect", "rounded", "circle", "triangle", "heart", "drop""#),
        ] {
            let preset = try folder.write(json, to: "p.json")
            let r = wavegen(["validate", preset])
            #expect(r.code == 65)
            #expect(r.errLines.count == 1 && r.errLines[0].hasSuffix(" error: " + expected), "\(r.err)")
        }
    }

    /// A `--set` value starting with `{` that is not JSON says how to give it as a string.
    @Test func aBraceTextOnTheCommandLineSaysToQuoteIt() {
        let r = wavegen(["render", "orb", "--set", "label.text={percent} %", "-o", "/nonexistent/x.gif"])
        #expect(r.code == 64)
        #expect(r.errLines.first?.hasSuffix(#"; a text starting with { must be quoted as a JSON string: --set 'label.text="{percent} %"'"#) == true, "\(r.err)")
    }

    /// The overview and render's help name every format render writes.
    @Test func helpNamesEveryFormat() {
        let top = wavegen(["--help"]).out
        let render = wavegen(["render", "--help"]).out
        for format in OutputFormat.allCases {
            #expect(top.contains(format.name), "\(format.name)")
            #expect(render.contains(format.name), "\(format.name)")
        }
    }
}
