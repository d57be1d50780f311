import Foundation
import Testing
import WaveAPNG
import WaveGIF
@testable import WaveKit
import WaveRender
import WaveWebP

/// A label that follows the level, as each format shows it.
@Suite struct LabelTextTests {
    static let ramp = "level={\"from\": 0, \"to\": 1}"

    /// The pixels of `frame` (straight RGBA, `width` a row) in `area`, rows then columns.
    func pixels(_ frame: [UInt8], width: Int, _ area: (x: Range<Int>, y: Range<Int>)) -> [UInt8] {
        var out: [UInt8] = []
        for y in area.y { for x in area.x { out += frame[(y * width + x) * 4..<(y * width + x) * 4 + 4] } }
        return out
    }

    /// How many pixels of two equal-sized straight RGBA runs differ by more than 24 levels in a
    /// premultiplied channel (the colour of an almost transparent pixel does not count).
    func differing(_ a: [UInt8], _ b: [UInt8]) -> Int {
        func premultiplied(_ v: [UInt8], _ p: Int, _ c: Int) -> Int { c == 3 ? Int(v[p + 3]) : Int(v[p + c]) * Int(v[p + 3]) / 255 }
        return stride(from: 0, to: a.count, by: 4).filter { p in (0..<4).contains { abs(premultiplied(a, p, $0) - premultiplied(b, p, $0)) > 24 } }.count
    }

    /// The frames of `animation` written as `format` and decoded (straight RGBA).
    func decodedFrames(_ animation: Animation, _ format: OutputFormat) throws -> [[UInt8]] {
        let bytes = try RenderPipeline().write(animation, to: [format.writer(for: animation.config)])[0].bytes
        switch format {
        case .gif: return try GIFDecoder.decode(bytes).frames
        case .webp: return try WebPAnimationDecoder.decode(bytes).frames
        case .apng: return try APNGDecoder(bytes).frames.map(\.rgba)
        case .svg, .lottie, .dotlottie: Issue.record("a vector format has no frames"); return []
        }
    }

    /// The first, a middle and the last frame of a 0 → 1 ramp show 0 %, the middle frame's own
    /// percent and 100 %: the label's pixels are those of the same scene with that text written
    /// out (rendered separately), and not those of the other texts.
    @Test(arguments: [OutputFormat.gif, .webp, .apng])
    func rampLabelShowsEachFramesLevel(_ format: OutputFormat) throws {
        let animation = try smallAnimation("orb", [LabelTextTests.ramp], size: 80)
        let decoded = try decodedFrames(animation, format)
        let n = decoded.count
        let texts = try #require(animation.label)
        #expect(texts.text(frame: 0, of: n) == "0%")
        #expect(texts.text(frame: n - 1, of: n) == "100%")
        let middle = texts.text(frame: n / 2, of: n)
        #expect(middle != "0%" && middle != "100%")
        var separately: [String: [[UInt8]]] = [:]
        for text in ["0%", middle, "100%"] {
            let written = try smallAnimation("orb", [LabelTextTests.ramp, "label.text=\"\(text)\""], size: 80)
            separately[text] = try decodedFrames(written, format)
            #expect(separately[text]!.count == n)
        }
        // The area of the widest text, "100%".
        let wide = try #require(texts.overlays["100%"])
        let area = (x: max(0, wide.x)..<min(80, wide.x + wide.width), y: max(0, wide.y)..<min(80, wide.y + wide.height))
        for k in [0, n / 2, n - 1] {
            let shown = texts.text(frame: k, of: n)
            let ours = pixels(decoded[k], width: 80, area)
            for (text, frames) in separately {
                let d = differing(ours, pixels(frames[k], width: 80, area))
                if text == shown {
                    #expect(d <= 2, "frame \(k) against \"\(text)\": \(d) pixels differ")
                } else {
                    #expect(d > 20, "frame \(k) looks like \"\(text)\" (\(d) pixels differ), it should show \"\(shown)\"")
                }
            }
        }
    }

    /// The SVG of a ramp holds one glyph group per text of its planned frames; at the middle of
    /// every frame's time window exactly one is shown, and it is that frame's text: the glyphs
    /// FreeType lays out for it, each at its place.
    @Test func svgShowsEachFramesTextInItsTimeWindow() throws {
        let animation = try smallAnimation("orb", [LabelTextTests.ramp, "fps=10"], size: 64)
        let svg = String(decoding: try RenderPipeline().write(animation, to: [SVGWriter()])[0].bytes, as: UTF8.self)
        let n = animation.plan.frameCount
        let texts = try #require(animation.label)
        let distinct = LabelTexts.texts(of: texts.label, level: texts.level, frameCounts: [n])
        #expect(distinct.count > 2)
        let groups = matches(#"<g id="w[0-9a-f]+t(\d+)">((?:<use [^>]+/>)*)</g>"#, in: svg)
        #expect(groups.count == distinct.count)
        let keyframes = matches(#"@keyframes w[0-9a-f]+l(\d+)\{((?:[0-9.]+%\{opacity:[01]\})+)\}"#, in: svg)
        #expect(keyframes.count == distinct.count)
        let steps = keyframes.map { k in
            (Int(k[1])!, matches(#"([0-9.]+)%\{opacity:([01])\}"#, in: k[2]).map { (Double($0[1])!, $0[2] == "1") })
        }
        for k in 0..<n {
            let u = (Double(k) + 0.5) / Double(n) * 100
            // step-end: each keyframe's value holds until the next.
            let shown = steps.filter { _, stops in stops.last { $0.0 <= u }?.1 == true }.map(\.0)
            #expect(shown.count == 1, "frame \(k): groups \(shown) shown")
            guard let j = shown.first, let uses = groups.first(where: { Int($0[1]) == j })?[2] else { continue }
            let text = texts.text(frame: k, of: n)
            let outline = try #require(try LabelOverlay.outlines(for: animation.config, text: text))
            let overlay = try #require(texts.overlays[text])
            let expected = outline.glyphs.filter { !$0.commands.isEmpty }.map { g in
                "g\(g.index) \(NumberText.decimal(Double(overlay.x) + g.x, places: 2)) \(NumberText.decimal(Double(overlay.y) + g.y, places: 2))"
            }
            let written = matches(##"<use href="#w[0-9a-f]+(g\d+)" x="([^"]+)" y="([^"]+)"/>"##, in: uses).map { "\($0[1]) \($0[2]) \($0[3])" }
            #expect(written == expected, "frame \(k) should show \"\(text)\"")
        }
    }

    /// Every colour a ramp's label shows is in the palette: where the text fully covers a pixel
    /// the GIF shows the label's colour, its colour on water, or (where the surface crosses the
    /// pixel) about a blend of the two, on every frame; a colour missing from the palette would
    /// show as the nearest wave colour, far from both.
    @Test func rampLabelColoursAreInThePalette() throws {
        let label = "label={\"text\": \"{percent}%\", \"size\": 0.4, \"color\": \"#C62828\", \"colorOnWater\": \"#FFEB3B\"}"
        let animation = try smallAnimation("classic", [LabelTextTests.ramp, label, "fps=25"], size: 64)
        let written = try RenderPipeline().write(animation, to: [OutputFormat.gif.writer(for: animation.config)])[0]
        let decoded = try GIFDecoder.decode(written.bytes)
        let texts = try #require(animation.label)
        let a = SIMD3<Double>(0xC6, 0x28, 0x28), b = SIMD3<Double>(0xFF, 0xEB, 0x3B)
        var checked = 0, aboveWater = 0, underWater = 0
        for (k, frame) in decoded.frames.enumerated() {
            let overlay = texts.overlay(frame: k, of: decoded.frames.count)
            for v in 0..<overlay.height {
                for u in 0..<overlay.width where overlay.fill[v * overlay.width + u] >= 1 {
                    let x = overlay.x + u, y = overlay.y + v
                    guard x >= 0, y >= 0, x < 64, y < 64 else { continue }
                    let p = (y * 64 + x) * 4
                    let c = SIMD3<Double>(Double(frame[p]), Double(frame[p + 1]), Double(frame[p + 2]))
                    // Distance to the segment between the two colours.
                    let t = max(0, min(1, ((c - a) * (b - a)).sum() / ((b - a) * (b - a)).sum()))
                    let off = c - (a + (b - a) * t)
                    let distance = (off * off).sum().squareRoot()
                    #expect(distance <= 16, "frame \(k) pixel \(x),\(y): \(c) is not a label colour")
                    if c == a { aboveWater += 1 }
                    if c == b { underWater += 1 }
                    checked += 1
                }
            }
        }
        // The two colours themselves are exact; blends where the surface crosses a pixel are
        // drawn from the palette's entries reserved for overlays, within the check above.
        #expect(checked > 1000)
        #expect(aboveWater > 100 && underWater > 100, "\(aboveWater) pixels in the label colour, \(underWater) in its colour on water")
        #expect(Set((0..<decoded.frames.count).map { texts.text(frame: $0, of: decoded.frames.count) }).count > 20)
    }

    /// A label cut off by the shape is a warning from prepare, and an error when strict.
    @Test func aLabelThatDoesNotFitIsSaid() throws {
        let pipeline = RenderPipeline()
        let overrides = try ["label.text=Loading", "label.position=bottom"].map { try #require(PresetOverride(parsing: $0)) }
        let config = try pipeline.load("orb", overrides: overrides)
        let plan = try pipeline.plan(config)
        let animation = try pipeline.prepare(config, plan: plan)
        #expect(animation.warnings.count == 1)
        #expect(animation.warnings.first?.hasPrefix("the label \"Loading\" does not fit: ") == true, "\(animation.warnings)")
        #expect(throws: WaveError.self) { _ = try pipeline.prepare(config, plan: plan, strict: true) }
        for name in ["boat", "classic", "dark", "drop", "gradient-drop", "heart", "orb", "progress-bar", "progress-bar-horizontal", "spinner"] {
            let bundled = try pipeline.load(name)
            #expect(try pipeline.prepare(bundled, plan: try pipeline.plan(bundled)).warnings.isEmpty, "\(name)")
        }
    }

    /// The fit measured on the label's pixels alone is the fit measured on the whole canvas's
    /// coverage: circle, path and rounded outlines, every fill direction, labels that fit, that the
    /// shape cuts off and that leave the canvas, texts that follow the level.
    @Test func theLabelsFitIsTheWholeCoveragesFit() throws {
        let pipeline = RenderPipeline()
        let cases: [(String, [String])] = [
            ("orb", []), ("orb", ["label.text=Loading", "label.position=bottom"]), ("orb", ["label.size=0.9"]),
            ("drop", ["label={\"text\": \"{percent}%\", \"size\": 0.45}", LabelTextTests.ramp]),
            ("heart", ["label={\"text\": \"Wait\", \"size\": 0.5}", "direction=right"]),
            ("progress-bar", ["label={\"text\": \"{percent}\", \"size\": 1.4}", "direction=left"]),
            ("classic", ["label={\"text\": \"99\", \"size\": 0.3}", "direction=down"]),
        ]
        var outside = 0, off = 0
        for (name, sets) in cases {
            let overrides = try sets.map { try #require(PresetOverride(parsing: $0), "\($0)") }
            let config = try pipeline.load(name, overrides: overrides)
            let plan = try pipeline.plan(config)
            let texts = try #require(try LabelTexts.rendered(for: config, plan: plan))
            let fast = texts.misfits(config: config, plan: plan), plain = texts.referenceMisfits(config: config, plan: plan)
            let same = fast == plain
            #expect(same, "\(name) \(sets): \(fast.prefix(2)) against \(plain.prefix(2))")
            outside += plain.filter { $0.outsideShape > 0 }.count
            off += plain.filter { $0.offCanvas > 0 }.count
        }
        #expect(outside >= 3 && off >= 1, "cases cut off by the shape: \(outside), off the canvas: \(off)")
    }

    func matches(_ pattern: String, in text: String) -> [[String]] {
        let regex = try! NSRegularExpression(pattern: pattern)
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { m in
            (0..<m.numberOfRanges).map { m.range(at: $0).location == NSNotFound ? "" : ns.substring(with: m.range(at: $0)) }
        }
    }
}
