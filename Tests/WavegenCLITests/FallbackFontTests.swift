import Foundation
import Testing
import WaveTestSupport
import WaveKit
import WaveText

/// `label.font` as a list: each character from the first font that has it.
@Suite struct FallbackFontTests {
    static let cjkFont = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"

    /// A CJK label with a Latin font and a CJK fallback: 水 and 位 come from WenQuanYi Zen Hei,
    /// the digits and % from DejaVu Sans Bold, each glyph as its own font draws it alone.
    @Test func eachCharacterComesFromTheFirstFontThatHasIt() throws {
        try #require(FileManager.default.fileExists(atPath: Self.cjkFont), "fonts-wqy-zenhei is not installed (scripts/setup --test)")
        let fonts: [FontData] = [.file(dejaVuSansBold), .file(Self.cjkFont)]
        let mixed = try TextRasterizer.outlines("水位 55%", fonts: fonts, pixelSize: 24, strokeWidth: 0)
        #expect(mixed.glyphs.map { $0.index >> 16 } == [1, 1, 0, 0, 0, 0])
        let cjk = try TextRasterizer.outlines("水位", fonts: [.file(Self.cjkFont)], pixelSize: 24, strokeWidth: 0)
        let latin = try TextRasterizer.outlines(" 55%", fonts: [.file(dejaVuSansBold)], pixelSize: 24, strokeWidth: 0)
        #expect(Array(mixed.glyphs.prefix(2).map(\.commands)) == cjk.glyphs.map(\.commands))
        #expect(Array(mixed.glyphs.dropFirst(2).map(\.commands)) == latin.glyphs.map(\.commands))
        #expect(try TextRasterizer.missingCharacters(Array("水5ॐ".unicodeScalars), fonts: fonts) == ["ॐ"])
        #expect(try TextRasterizer.missingCharacters(Array("水5".unicodeScalars), fonts: [.file(dejaVuSansBold)]) == ["水"])
    }

    /// Through the command line: families in a list render (frames written), the packed file
    /// renders the same bytes alone with the system's fonts hidden, and a character no font of the
    /// list has is the error naming it and the fonts.
    @Test func aListOfFamiliesRendersAndPacks() throws {
        try #require(FileManager.default.fileExists(atPath: Self.cjkFont), "fonts-wqy-zenhei is not installed (scripts/setup --test)")
        let executable = try #require(wavegenExecutable)
        let folder = try TemporaryFolder()
        let preset = try folder.write(#"{ "extends": "orb", "size": [160, 160], "label": { "text": "水位 {percent}%", "font": ["DejaVu Sans:bold", "WenQuanYi Zen Hei"], "size": 0.2 } }"#, to: "cjk.json")
        let r = wavegen(["render", preset, "-o", folder.file("cjk.gif"), "-q"])
        #expect(r.code == 0, "\(r.err)")
        #expect(wavegen(["presets", "pack", preset, "-o", folder.file("cjk.wavegen.json")]).code == 0)
        try FileManager.default.createDirectory(atPath: folder.file("alone"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: folder.file("cjk.wavegen.json"), toPath: folder.file("alone/cjk.wavegen.json"))
        let command = "cd alone && '\(executable.path)' render cjk.wavegen.json -o ../packed.gif -q"
        let packed = HiddenFonts.run(command, in: folder.path) ?? HiddenFonts.shell("cd '\(folder.path)' && \(command)")
        #expect(packed.code == 0, "\(packed.err)")
        #expect(try folder.bytes("cjk.gif") == folder.bytes("packed.gif"))

        let none = try folder.write(#"{ "extends": "orb", "label": { "text": "水ॐ", "font": ["DejaVu Sans:bold", "WenQuanYi Zen Hei"] } }"#, to: "none.json")
        let v = wavegen(["validate", none])
        #expect(v.code == 65)
        #expect(v.errLines == ["\(none): error: at label.text: none of the fonts DejaVu Sans:bold (\(dejaVuSansBold)), WenQuanYi Zen Hei (\(Self.cjkFont)) has a glyph for \"ॐ\" (U+0950); add a font that has it to label.font or leave that character out"], "\(v.err)")
    }
}
