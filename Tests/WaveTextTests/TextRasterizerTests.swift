import Testing
import WaveText

let dejaVuBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

@Suite struct TextRasterizerTests {
    /// Coverage is within 0…1, the glyphs cover something, and a wider text gives a wider mask.
    @Test func coverageOfAWord() throws {
        let one = try TextRasterizer.render("8", fontPath: dejaVuBold, pixelSize: 20, strokeWidth: 0)
        let three = try TextRasterizer.render("888", fontPath: dejaVuBold, pixelSize: 20, strokeWidth: 0)
        #expect(one.fill.count == one.width * one.height)
        #expect(one.fill.allSatisfy { (0...1).contains($0) })
        #expect(one.fill.contains { $0 > 0.99 }, "no solid pixel")
        #expect(one.stroke.allSatisfy { $0 == 0 })
        #expect(three.width > 2 * one.width)
        // The ink of three equal glyphs is three times one's, to within the anti-aliasing.
        let ink = { (m: TextMask) in m.fill.reduce(0, +) }
        #expect(abs(ink(three) / ink(one) - 3) < 0.05)
    }

    /// An outline surrounds the glyphs: it covers every solid fill pixel's neighbourhood.
    @Test func strokeSurroundsTheFill() throws {
        let m = try TextRasterizer.render("O", fontPath: dejaVuBold, pixelSize: 24, strokeWidth: 2)
        #expect(m.stroke.reduce(0, +) > m.fill.reduce(0, +) * 0.5)
        for i in m.fill.indices where m.fill[i] > 0.5 { #expect(m.stroke[i] > 0.5) }
    }

    @Test func emptyTextIsAnEmptyMask() throws {
        let m = try TextRasterizer.render(" ", fontPath: dejaVuBold, pixelSize: 20, strokeWidth: 0)
        #expect(m.width == 0 && m.height == 0)
    }

    @Test func aMissingOrBrokenFontIsAnError() {
        #expect(throws: TextError("/no/such.ttf: cannot open resource (no such file?)")) {
            _ = try TextRasterizer.render("x", fontPath: "/no/such.ttf", pixelSize: 10, strokeWidth: 0)
        }
        #expect(throws: TextError.self) {
            _ = try TextRasterizer.render("x", fontPath: "/etc/hostname", pixelSize: 10, strokeWidth: 0)
        }
    }

    @Test func tooLargeATextIsRefused() {
        #expect(throws: TextError.self) {
            _ = try TextRasterizer.render(String(repeating: "W", count: 400), fontPath: dejaVuBold, pixelSize: 200, strokeWidth: 0)
        }
    }
}
