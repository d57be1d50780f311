import Foundation
import Testing
@testable import WaveKit

@Suite struct LabelTests {
    /// A solid 40 × 24 block as the "text", centered in the box across the water line.
    func labelScene() throws -> (WaveConfig, LoopPlan, LabelOverlay) {
        var (config, plan) = try scene("""
            {"size": [96, 64], "background": "#FFFFFF", "level": 0.5, "layers": [
              {"color": "#90CAF9", "amplitude": 0.1, "wavelength": 1, "phase": 0.5, "speed": 1},
              {"color": "#1E88E5", "amplitude": 0.1, "wavelength": 1, "speed": 1}]}
            """)
        config.label = Label(template: "{percent}%", size: 20, color: RGBA(0x0D, 0x47, 0xA1), colorOnWater: .white)
        plan = try LoopPlanner.plan(config)
        let w = 40, h = 24
        let overlay = LabelOverlay(label: config.label!, box: config.box, width: w, height: h,
                                   fill: [Float](repeating: 1, count: w * h), stroke: [Float](repeating: 0, count: w * h))
        return (config, plan, overlay)
    }

    @Test func textTemplate() {
        let l = Label(template: "{percent}% ({level})", size: 10, color: .black, colorOnWater: .white)
        #expect(l.text(level: 0.6) == "60% (0.60)")
        #expect(l.text(level: 0.005) == "1% (0.01)")
        #expect(l.text(level: 1) == "100% (1.00)")
    }

    /// `{{` and `}}` are single literal braces, so a text can show a placeholder's name; every
    /// template without an unknown placeholder or lone brace has no problem.
    @Test func bracesAreEscapedByDoubling() {
        let cases = [("{{percent}} = {percent}", "{percent} = 42"), ("{{{level}}}", "{0.42}"), ("}}{{", "}{"), ("100%", "100%")]
        for (template, shown) in cases {
            #expect(Label(template: template, size: 10, color: .black, colorOnWater: .white).text(level: 0.42) == shown)
            #expect(Label.problem(in: template) == nil)
        }
        for bad in ["{pct}", "{", "}", "a{b", "{percent", "{{percent}", "{per{cent}"] {
            #expect(Label.problem(in: bad) != nil, "\(bad)")
        }
    }

    @Test(arguments: [0, 9, 25])
    func splitsExactlyAlongTheFrontSurface(frame: Int) throws {
        let (config, plan, overlay) = try labelScene()
        let texts = LabelTexts(label: config.label!, level: config.level, overlays: [config.label!.text(level: 0.5): overlay])
        let renderer = FrameRenderer(config: config, plan: plan, format: .webp, label: texts)
        var cache = ColorCache()
        var out: [UInt8] = []
        renderer.render(frame: frame, into: &out, cache: &cache)
        let surfaces = WaveModel(config: config, plan: plan).surfaces(frame: frame, of: renderer.timing.frameCount)
        var above = 0, below = 0
        for y in overlay.y..<(overlay.y + overlay.height) {
            for x in overlay.x..<(overlay.x + overlay.width) {
                // The front surface's highest and lowest point across the pixel's width.
                let ys = (0...8).map { surfaces.surface(layer: 1, atX: Double(x) + Double($0) / 8) }
                let color = renderer.palette.colors[Int(out[y * config.width + x])]
                if Double(y + 1) <= ys.min()! {
                    #expect(color == RGBA(0x0D, 0x47, 0xA1), "above the water at \(x),\(y)")
                    above += 1
                } else if Double(y) >= ys.max()! {
                    #expect(color == .white, "under the water at \(x),\(y)")
                    below += 1
                } else {
                    // Split pixels blend the two colors by the part of the pixel under water.
                    var under = 0
                    for sy in 0..<32 {
                        for sx in 0..<32 where Double(y) + (Double(sy) + 0.5) / 32 >= surfaces.surface(layer: 1, atX: Double(x) + (Double(sx) + 0.5) / 32) {
                            under += 1
                        }
                    }
                    let expected = PremultipliedColor(RGBA(0x0D, 0x47, 0xA1)).mixed(with: PremultipliedColor(.white), Double(under) / 1024).straight
                    let error = max(abs(Int(color.r) - Int(expected.r)), abs(Int(color.g) - Int(expected.g)), abs(Int(color.b) - Int(expected.b)))
                    #expect(error <= 8, "edge at \(x),\(y): \(color), expected about \(expected)")
                }
            }
        }
        #expect(above > 0 && below > 0)
    }

    @Test func outlineSitsUnderTheFill() {
        let label = Label(template: "x", size: 10, color: .black, colorOnWater: .white, strokeWidth: 1, strokeColor: RGBA(255, 0, 0))
        let overlay = LabelOverlay(label: label, box: Rect(x: 0, y: 0, width: 10, height: 10), width: 2, height: 1,
                                   fill: [1, 0], stroke: [1, 1])
        let bg = PremultipliedColor(RGBA.white)
        #expect(overlay.paint(overlay.x, overlay.y, over: bg, submerged: 0).straight == .black)
        #expect(overlay.paint(overlay.x + 1, overlay.y, over: bg, submerged: 0).straight == RGBA(255, 0, 0))
    }
}

/// The text each frame shows: one function of the frame's level.
@Suite struct LabelFrameTextTests {
    let label = Label(template: "{percent}%", size: 10, color: .black, colorOnWater: .white)

    @Test func aRampCountsUpFromZeroToAHundred() {
        let ramp = LevelAnimation.ramp(from: 0, to: 1, ease: .linear, pingpong: false)
        #expect((0..<11).map { label.text(frame: $0, of: 11, level: ramp) } == (0...10).map { "\($0 * 10)%" })
        let texts = LabelTexts.texts(of: label, level: ramp, frameCounts: [300, 100])
        #expect(texts.count == 101)
        #expect(texts.first == "0%" && texts.last == "100%")
    }

    @Test func pingpongAndTideFollowTheirLevel() {
        let pingpong = LevelAnimation.ramp(from: 0.2, to: 0.6, ease: .linear, pingpong: true)
        #expect([0, 2, 4, 6].map { label.text(frame: $0, of: 8, level: pingpong) } == ["20%", "40%", "60%", "40%"])
        let tide = LevelAnimation.tide(base: 0.5, tide: 0.1)
        #expect([0, 1, 2, 3].map { label.text(frame: $0, of: 4, level: tide) } == ["50%", "60%", "50%", "40%"])
        #expect(label.text(frame: 3, of: 7, level: .still(0.55)) == "55%")
    }

    /// {percent} rounds level × 100 to the nearest whole number, halves away from zero, as documented.
    @Test func percentRounding() {
        #expect(label.text(level: 0.125) == "13%")
        #expect(label.text(level: 0.994) == "99%")
        #expect(label.text(level: 0.995) == "100%")
        #expect(label.text(level: 0.004) == "0%")
    }

    @Test func fontPathsAndNames() {
        #expect(Label.isFontPath("fonts/Inter.ttf"))
        #expect(Label.isFontPath("Inter.OTF"))
        #expect(Label.isFontPath("/usr/share/fonts/x"))
        #expect(!Label.isFontPath("DejaVu Sans:bold"))
        #expect(!Label.isFontPath("Inter"))
    }
}
