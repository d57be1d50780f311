import Foundation
import Testing
import WaveTestSupport
import WaveKit
import WaveRender
import WaveText

/// The installed font the built-in default was cut from (Debian's fonts-dejavu-core).
let dejaVuSansBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

/// The default label font is built into the binary: a label renders the same with no fonts
/// installed, and the same as with the installed DejaVu Sans Bold it was cut from.
@Suite struct DefaultFontTests {
    /// Every format of a labelled preset (the bundled orb, and a label with accents, a stroke and
    /// Greek and Cyrillic) is the same file with the system's font folders hidden as with them; in
    /// the hidden namespace no font file is there and fontconfig finds nothing.
    @Test func aLabelRendersTheSameWithTheSystemFontsHidden() throws {
        let executable = try #require(wavegenExecutable)
        let folder = try TemporaryFolder()
        _ = try folder.write(##"{ "extends": "orb", "label": { "text": "Zoë – Ωμέγα Жж {percent}%", "size": 0.08, "stroke": { "width": 0.01, "color": "#000" } } }"##, to: "accents.json")
        let renders = [("orb", "gif"), ("orb", "webp"), ("orb", "svg"), ("orb", "lottie"), ("accents.json", "gif"), ("accents.json", "svg")]
        func commands(_ prefix: String) -> String {
            renders.map { p, f in "'\(executable.path)' render \(p) --format \(f) -o \(prefix)-\(p)-\(f) -q" }.joined(separator: " && ")
        }
        let open = HiddenFonts.shell("cd '\(folder.path)' && \(commands("open"))")
        #expect(open.code == 0, "\(open.err)")
        guard let hidden = HiddenFonts.run(commands("hidden") + " && ls /usr/share/fonts | wc -l && fc-list | wc -l && ! test -e " + dejaVuSansBold
                                           + " && '\(executable.path)' render orb --set 'label.font=DejaVu Sans:bold' -o named.gif -q; echo $?", in: folder.path) else { return }
        #expect(hidden.code == 0, "\(hidden.err)")
        // No entries in the font folder, no font for fontconfig, and a render naming a family fails (66).
        #expect(hidden.out.split(separator: "\n") == ["0", "0", "66"], "\(hidden.out)\(hidden.err)")
        for (p, f) in renders {
            let a = try folder.bytes("open-\(p)-\(f)"), b = try folder.bytes("hidden-\(p)-\(f)")
            #expect(!a.isEmpty && a == b, "\(p) as \(f) differs with the fonts hidden")
        }
    }

    /// The built-in subset draws every character it has exactly as the installed font does, mask
    /// for mask and outline for outline (glyph ids kept), and lacks what it left out.
    @Test func theSubsetDrawsAsTheInstalledFont() throws {
        let installed = dejaVuSansBold
        try #require(FileManager.default.fileExists(atPath: installed), "fonts-dejavu-core is not installed")
        let text = "Az09%½€–…Łż Ωέ Жж {}"
        for size in [7.0, 16, 33.5] {
            let a = try TextRasterizer.render(text, fontPath: installed, pixelSize: size, strokeWidth: 1)
            let b = try TextRasterizer.render(text, fonts: [LabelFont.builtInDefault], pixelSize: size, strokeWidth: 1)
            #expect(a == b, "size \(size)")
            #expect(try TextRasterizer.outlines(text, fontPath: installed, pixelSize: size, strokeWidth: 0)
                    == TextRasterizer.outlines(text, fonts: [LabelFont.builtInDefault], pixelSize: size, strokeWidth: 0))
        }
        #expect(try TextRasterizer.missingCharacters(Array("a水ॐ".unicodeScalars), fonts: [LabelFont.builtInDefault]) == ["水", "ॐ"])
        #expect(try TextRasterizer.missingCharacters(Array("a水".unicodeScalars), fontPath: installed) == ["水"])
    }
}
