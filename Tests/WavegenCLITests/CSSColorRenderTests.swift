import Foundation
import Testing
import WaveTestSupport

/// A color written as CSS names it renders exactly as its hex form, in every format.
@Suite struct CSSColorRenderTests {
    static func preset(_ color: String, background: String) -> String {
        """
        {"size": [24, 24], "fps": 10, "duration": 1, "background": "\(background)",
         "layers": [{"color": "\(color)", "amplitude": 0.1}, {"color": "\(color)", "opacity": 0.5, "speed": -1}]}
        """
    }

    @Test(arguments: ["gif", "webp", "png", "svg", "json"])
    func aNamedColorRendersAsItsHex(_ ext: String) throws {
        let folder = try TemporaryFolder()
        var outputs: [[UInt8]] = []
        for (sub, color, background) in [("named", "hotpink", "steelblue"), ("hex", "#FF69B4", "#4682B4"),
                                         ("functions", "rgb(255 105 180)", "hsl(207.27deg, 44%, 49.02%)")] {
            try FileManager.default.createDirectory(atPath: folder.file(sub), withIntermediateDirectories: true)
            let preset = try folder.write(Self.preset(color, background: background), to: sub + "/p.json")
            let r = wavegen(["render", preset, "-q", "-o", folder.file("\(sub)/out.\(ext)")])
            #expect(r.code == 0, "\(r.err)")
            outputs.append(try folder.bytes("\(sub)/out.\(ext)"))
        }
        #expect(!outputs[0].isEmpty)
        #expect(outputs[0] == outputs[1])
        #expect(outputs[2] == outputs[1])
    }

    /// --background and --set take the CSS forms as the preset does.
    @Test func optionsTakeCSSColors() throws {
        let folder = try TemporaryFolder()
        let named = wavegen(["render", "spinner", "--size", "24x24", "-q", "--background", "Ivory", "--set", "layers[0].color=hotpink",
                             "-o", folder.file("named.gif")])
        let hex = wavegen(["render", "spinner", "--size", "24x24", "-q", "--background", "#FFFFF0", "--set", "layers[0].color=#FF69B4",
                           "-o", folder.file("hex.gif")])
        #expect(named.code == 0 && hex.code == 0, "\(named.err)\(hex.err)")
        #expect(try folder.bytes("named.gif") == folder.bytes("hex.gif"))
    }

    /// A manifest's variants take the CSS forms, and a bad one is reported where it is written.
    @Test func manifestVariantsTakeCSSColors() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("""
            {"jobs": [{"preset": "spinner", "output": "out/{variant}.gif", "variants": {
              "named": {"size": [24, 24], "background": "Ivory", "layers[0].color": "hotpink"},
              "hex": {"size": [24, 24], "background": "#FFFFF0", "layers[0].color": "#FF69B4"}}}]}
            """, to: "wavegen.json")
        let r = wavegen(["build", manifest, "-q"])
        #expect(r.code == 0, "\(r.err)")
        #expect(try folder.bytes("out/named.gif") == folder.bytes("out/hex.gif"))

        let bad = try folder.write("""
            {"jobs": [{"preset": "spinner", "output": "out/{variant}.gif", "variants": {"x": {"layers[0].color": "hotpnk"}}}]}
            """, to: "bad.json")
        #expect(wavegen(["validate", bad]).errLines == [
            "\(bad):1:102: error: at jobs[0].variants.x.layers[0].color: expected a color (#RRGGBB, #RGB, rgb(), hsl() or a CSS name such as \"steelblue\"), got \"hotpnk\" (did you mean \"hotpink\"?)",
        ])
    }
}
