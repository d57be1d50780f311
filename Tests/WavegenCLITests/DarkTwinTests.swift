import Foundation
import Testing
import WaveTestSupport
import WaveKit

/// A preset's `dark` twin: `--theme dark` renders exactly what the preset with the dark colors
/// written in as plain keys renders, in every format; bad dark keys are errors at their entries.
@Suite struct DarkTwinTests {
    /// A small preset using every color key, with a dark twin for each.
    static let twin = ##"""
    {
      "name": "twin",
      "size": [40, 40],
      "fps": 10,
      "background": "#FAFAFA",
      "shape": "rounded",
      "border": {"color": "#1E88E5", "width": "3px"},
      "layers": [{"color": "#90CAF9", "speed": 1}, {"color": "#1E88E5", "opacity": 0.8, "speed": 1}],
      "label": {"color": "#0D47A1", "colorOnWater": "#FFFFFF", "stroke": {"color": "#000000", "width": "1px"}},
      "gif": {"matte": "#FFFFFF"},
      "dark": {
        "background": "#121212", "layers[0].color": "#1565C0", "layers[1].color": "#0D47A1",
        "border.color": "#90CAF9", "label.color": "#FFFFFF", "label.colorOnWater": "#E3F2FD",
        "label.stroke.color": "rgb(40, 40, 40)", "gif.matte": "black", "_note": "comments are allowed"
      }
    }
    """##

    /// `twin` with the dark colors written in as plain keys and no `dark` object.
    static let plain = ##"""
    {
      "name": "twin",
      "size": [40, 40],
      "fps": 10,
      "background": "#121212",
      "shape": "rounded",
      "border": {"color": "#90CAF9", "width": "3px"},
      "layers": [{"color": "#1565C0", "speed": 1}, {"color": "#0D47A1", "opacity": 0.8, "speed": 1}],
      "label": {"color": "#FFFFFF", "colorOnWater": "#E3F2FD", "stroke": {"color": "rgb(40, 40, 40)", "width": "1px"}},
      "gif": {"matte": "black"}
    }
    """##

    static let extensions = ["gif", "webp", "png", "svg", "json"]

    @Test(arguments: extensions) func darkThemeIsThePresetWithTheColorsWrittenIn(ext: String) throws {
        let folder = try TemporaryFolder()
        let twin = try folder.write(Self.twin, to: "twin.json")
        let plain = try folder.write(Self.plain, to: "plain.json")
        for (args, out) in [([twin, "--theme", "dark"], "dark"), ([plain], "plain"), ([twin], "light"), ([twin, "--theme", "light"], "light2")] {
            let r = wavegen(["render"] + args + ["-o", folder.file("out-\(out).\(ext)"), "-q"])
            #expect(r.code == 0, "\(r.err)")
        }
        #expect(try folder.bytes("out-dark.\(ext)") == folder.bytes("out-plain.\(ext)"))
        #expect(try folder.bytes("out-dark.\(ext)") != folder.bytes("out-light.\(ext)"))
        #expect(try folder.bytes("out-light.\(ext)") == folder.bytes("out-light2.\(ext)"))
    }

    /// The dark colors come after the preset's values and before the command line's overrides.
    @Test func commandLineOverridesComeAfterTheTwin() throws {
        let folder = try TemporaryFolder()
        let twin = try folder.write(Self.twin, to: "twin.json")
        let plain = try folder.write(Self.plain, to: "plain.json")
        let extra = ["--background", "#FF0000", "--set", "layers[1].color=#00FF00"]
        #expect(wavegen(["render", twin, "--theme", "dark", "-o", folder.file("a.gif"), "-q"] + extra).code == 0)
        #expect(wavegen(["render", plain, "-o", folder.file("b.gif"), "-q"] + extra).code == 0)
        #expect(try folder.bytes("a.gif") == folder.bytes("b.gif"))
    }

    @Test func badDarkKeysAreErrorsAtTheirEntries() throws {
        let folder = try TemporaryFolder()
        let bad = try folder.write(##"""
        {
          "layers": [{"color": "#90CAF9"}, {"color": "#1E88E5"}],
          "dark": {
            "layers[9].color": "#000000",
            "fps": 30,
            "background": "blu",
            "border.color": "#FFFFFF",
            "gif.matte": "#00000080",
            "layers[0].colour": "#FFFFFF",
            "x..y": "#000000"
          }
        }
        """##, to: "bad.json")
        let allowed = #""dark" holds only colors: background, layers[N].color, border.color, label.color, label.colorOnWater, label.stroke.color, gif.matte"#
        let expected = [
            #"\#(bad):4:24: error: at dark["layers[9].color"]: names no layer: there are 2 layers (layers[0]…layers[1])"#,
            #"\#(bad):5:12: error: at dark["fps"]: fps is not a color key; \#(allowed)"#,
            #"\#(bad):6:19: error: at dark["background"]: expected a color (#RRGGBB, #RGB, rgb(), hsl() or a CSS name such as "steelblue"), got "blu" (did you mean "blue"?)"#,
            #"\#(bad):7:21: error: at dark["border.color"]: the preset has no border to color"#,
            #"\#(bad):8:18: error: at dark["gif.matte"]: must be an opaque color, got #00000080"#,
            #"\#(bad):9:25: error: at dark["layers[0].colour"]: layers[0].colour is not a color key; \#(allowed)"#,
            #"\#(bad):10:13: error: at dark["x..y"]: is not a key path (write e.g. "background" or "layers[0].color"); \#(allowed)"#,
        ]
        // The twin is checked whatever the theme, and validate checks it too.
        for args in [["render", bad, "-o", folder.file("x.gif")], ["render", bad, "--theme", "dark", "-o", folder.file("x.gif")], ["validate", bad]] {
            let r = wavegen(args)
            #expect(r.code == 65)
            #expect(r.errLines == expected, "\(r.err)")
        }
        #expect(!folder.hasFile("x.gif"))

        let notObject = try folder.write(##"{ "dark": "#000000" }"##, to: "n.json")
        let r = wavegen(["render", notObject, "--theme", "dark", "-o", folder.file("x.gif")])
        #expect(r.code == 65)
        #expect(r.errLines == [##"\##(notObject):1:11: error: at dark: expected an object, got "#000000""##], "\(r.err)")
    }

    @Test func darkThemeNeedsATwin() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "spinner", "--theme", "dark", "-o", folder.file("x.gif")])
        #expect(r.code == 65)
        #expect(r.errLines == [#"spinner: error: has no "dark" object, so it has no dark theme; add one (docs/presets.md, "Dark twin") or drop --theme dark"#], "\(r.err)")
        let wrong = wavegen(["render", "classic", "--theme", "dim", "-o", folder.file("x.gif")])
        #expect(wrong.code == 64)
        #expect(wrong.errLines.first == "Error: --theme expects light or dark, got 'dim'")
        #expect(!folder.hasFile("x.gif"))
    }

    /// A child's dark entries add to and replace its parent's, and null drops one; a bad entry
    /// inherited from the parent is reported in the parent.
    @Test func darkMergesThroughExtends() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(Self.twin, to: "twin.json")
        let child = try folder.write(##"""
        { "extends": "twin.json", "dark": { "background": "#000000", "label.stroke.color": null, "layers[0].color": "#333333" } }
        """##, to: "child.json")
        let plain = try folder.write(##"""
        { "extends": "twin.json", "dark": null, "background": "#000000", "layers": [{"color": "#333333", "speed": 1}, {"color": "#0D47A1", "opacity": 0.8, "speed": 1}],
          "border": {"color": "#90CAF9"}, "label": {"color": "#FFFFFF", "colorOnWater": "#E3F2FD"}, "gif": {"matte": "black"} }
        """##, to: "plain.json")
        #expect(wavegen(["render", child, "--theme", "dark", "-o", folder.file("a.gif"), "-q"]).code == 0)
        #expect(wavegen(["render", plain, "-o", folder.file("b.gif"), "-q"]).code == 0)
        #expect(try folder.bytes("a.gif") == folder.bytes("b.gif"))

        // A child with fewer layers makes the parent's layers[1] entry name no layer: reported in the parent.
        let fewer = try folder.write(##"{ "extends": "twin.json", "layers": [{"color": "#333333"}] }"##, to: "fewer.json")
        let r = wavegen(["render", fewer, "-o", folder.file("c.gif")])
        #expect(r.code == 65)
        #expect(r.errLines.count == 1)
        #expect(r.errLines.first?.hasPrefix(folder.file("twin.json") + ":") == true, "\(r.err)")
        #expect(r.errLines.first?.hasSuffix(#"error: at dark["layers[1].color"]: names no layer: there is 1 layer (layers[0])"#) == true, "\(r.err)")
    }

    /// classic and orb ship with dark twins.
    @Test(arguments: ["classic", "orb"]) func bundledTwinsRender(name: String) throws {
        let folder = try TemporaryFolder()
        #expect(wavegen(["render", name, "--theme", "dark", "-o", folder.file("d.png"), "-q"]).code == 0)
        #expect(wavegen(["render", name, "-o", folder.file("l.png"), "-q"]).code == 0)
        #expect(try folder.bytes("d.png") != folder.bytes("l.png"))
    }

    /// A manifest variant (or a job's `set`) chooses the theme with `"theme": "dark"`.
    @Test func manifestVariantChoosesTheTheme() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(Self.twin, to: "twin.json")
        _ = try folder.write(Self.plain, to: "plain.json")
        try folder.writeFile(#"""
        { "jobs": [
          { "preset": "twin.json", "output": "{variant}.gif", "variants": { "light": {}, "dark": { "theme": "dark" } } },
          { "preset": "twin.json", "output": "set.gif", "set": { "theme": "dark" } },
          { "preset": "plain.json", "output": "plain.gif" }
        ] }
        """#, at: "wavegen.json")
        let built = wavegen(["build", folder.file("wavegen.json"), "-q"])
        #expect(built.code == 0, "\(built.err)")
        #expect(try folder.bytes("dark.gif") == folder.bytes("plain.gif"))
        #expect(try folder.bytes("set.gif") == folder.bytes("plain.gif"))
        #expect(try folder.bytes("light.gif") != folder.bytes("plain.gif"))

        try folder.writeFile(#"{ "jobs": [{ "preset": "spinner", "output": "c.gif", "set": { "theme": "dark" } }] }"#, at: "m2.json")
        let r = wavegen(["build", folder.file("m2.json"), "-q"])
        #expect(r.code == 65)
        #expect(r.errLines == [#"\#(folder.file("m2.json")):1:72: error: at jobs[0].set.theme: the preset spinner has no "dark" object, so it has no dark theme; add one (docs/presets.md, "Dark twin") or drop the theme"#], "\(r.err)")
    }
}
