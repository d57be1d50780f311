import Foundation
import Testing
@testable import WaveKit
import WaveReference

/// `linear-gradient()` as CSS Images 3 writes it (CSSGradient, LinearGradient): directions, stop
/// positions and their fix-up, the gradient line over a box, the messages for what is not a
/// gradient, and gradient scenes drawn against the reference renderer.
@Suite struct GradientTests {
    func parse(_ text: String) throws -> LinearGradient {
        switch CSSGradient.parse(text) {
        case let .success(g): return g
        case let .failure(p): Issue.record("\(text): \(p.message)"); throw p
        }
    }

    static let box = Rect(x: 10, y: 20, width: 100, height: 50)

    /// Angles in every unit, sides as their angles, the default `to bottom`.
    @Test(arguments: [
        ("linear-gradient(180deg, red, blue)", 180.0), ("linear-gradient(0.25turn, red, blue)", 90),
        ("linear-gradient(100grad, red, blue)", 90), ("linear-gradient(3.141592653589793rad, red, blue)", 180),
        ("linear-gradient(0, red, blue)", 0), ("linear-gradient(-90deg, red, blue)", -90), ("LINEAR-GRADIENT(45DEG, red, blue)", 45),
        ("linear-gradient(red, blue)", 180), ("linear-gradient(to top, red, blue)", 0), ("linear-gradient(to right, red, blue)", 90),
        ("linear-gradient(to bottom, red, blue)", 180), ("linear-gradient(to left, red, blue)", 270),
        ("linear-gradient(  to   Left , red, blue)", 270), ("linear-gradient(1.5turn, red, blue)", 180),
    ])
    func directions(text: String, degrees: Double) throws {
        guard case let .angle(a) = try parse(text).direction else { Issue.record("\(text): not an angle"); return }
        #expect(abs(a - degrees) < 1e-9, "\(text): \(a)")
    }

    /// Corners keep both sides; either order names the same corner.
    @Test func corners() throws {
        #expect(try parse("linear-gradient(to top right, red, blue)").direction == .corner(horizontal: 1, vertical: -1))
        #expect(try parse("linear-gradient(to right top, red, blue)").direction == .corner(horizontal: 1, vertical: -1))
        #expect(try parse("linear-gradient(to bottom left, red, blue)").direction == .corner(horizontal: -1, vertical: 1))
    }

    /// The gradient line over a box: through the center, as long as the box's extent along it; a
    /// corner's 0 % and 100 % lie on the perpendiculars through the opposite and the named corner,
    /// and its 50 % line through the two other corners.
    @Test func gradientLine() throws {
        let box = GradientTests.box
        let down = try parse("linear-gradient(red, blue)").line(in: box)
        #expect(abs(down.start.x - 60) < 1e-9 && abs(down.start.y - 20) < 1e-9 && abs(down.end.y - 70) < 1e-9)
        let right = try parse("linear-gradient(90deg, red, blue)").line(in: box)
        #expect(abs(right.start.x - 10) < 1e-9 && abs(right.end.x - 110) < 1e-9 && abs(right.start.y - 45) < 1e-9)
        // 45deg: length |100 sin 45°| + |50 cos 45°|.
        let diagonal = try parse("linear-gradient(45deg, red, blue)").line(in: box)
        let length = hypot(diagonal.end.x - diagonal.start.x, diagonal.end.y - diagonal.start.y)
        #expect(abs(length - 150 / 2.squareRoot()) < 1e-9)
        let corner = try parse("linear-gradient(to top right, red, blue)")
        let sampler = GradientSampler(corner, box: box)
        #expect(abs(sampler.position(x: 110, y: 20) - 1) < 1e-9, "the top-right corner is 100 %")
        #expect(abs(sampler.position(x: 10, y: 70) - 0) < 1e-9, "the bottom-left corner is 0 %")
        #expect(abs(sampler.position(x: 10, y: 20) - 0.5) < 1e-9 && abs(sampler.position(x: 110, y: 70) - 0.5) < 1e-9)
    }

    /// CSS's fix-up: a missing first position is 0 and last 1, one below an earlier one is raised
    /// to it, runs without positions are spread evenly; two positions make two stops.
    @Test(arguments: [
        ("linear-gradient(red, lime, blue)", [0, 0.5, 1]),
        ("linear-gradient(red 20%, lime, blue 80%)", [0.2, 0.5, 0.8]),
        ("linear-gradient(red, lime, blue, white 70%)", [0, 0.7 / 3, 1.4 / 3, 0.7]),
        ("linear-gradient(red 50%, lime 20%, blue)", [0.5, 0.5, 1]),
        ("linear-gradient(red 40%, lime 10%, blue 30%, white)", [0.4, 0.4, 0.4, 1]),
        ("linear-gradient(red -20%, blue 120%)", [-0.2, 1.2]),
        ("linear-gradient(red 0% 30%, blue 30% 100%)", [0, 0.3, 0.3, 1]),
        ("linear-gradient(rgb(0 0 0 / 50%) 10%, hsl(120, 100%, 25%) 90%)", [0.1, 0.9]),
    ] as [(String, [Double])])
    func stopPositions(text: String, positions: [Double]) throws {
        let resolved = try parse(text).resolvedStops.map(\.position)
        #expect(resolved.count == positions.count && zip(resolved, positions).allSatisfy { abs($0 - $1) < 1e-12 }, "\(text): \(resolved)")
    }

    /// Colors along the line: the first before it, the last after, premultiplied mixing between,
    /// a hard stop where two stops share a position.
    @Test func colorsAlongTheLine() throws {
        let box = Rect(x: 0, y: 0, width: 100, height: 100)
        let g = try parse("linear-gradient(to right, #000 20%, #FFF 60%, red 60%)")
        #expect(g.color(atX: 0, y: 50, in: box) == PremultipliedColor(RGBA.black))
        #expect(abs(g.color(atX: 40, y: 50, in: box).r - 0.5) < 1e-12)
        #expect(g.color(atX: 59.9, y: 50, in: box).g > 0.99)
        #expect(g.color(atX: 60, y: 50, in: box) == PremultipliedColor(RGBA(255, 0, 0)))
        #expect(g.color(atX: 100, y: 50, in: box) == PremultipliedColor(RGBA(255, 0, 0)))
        // Transparent to blue mixes premultiplied: no dark fringe.
        let fade = try parse("linear-gradient(to right, transparent, blue)")
        let mid = fade.color(atX: 50, y: 0, in: box)
        #expect(abs(mid.a - 0.5) < 1e-12 && abs(mid.b - 0.5) < 1e-12 && mid.r == 0)
    }

    /// Malformed gradients: a one-line message naming the problem, never a crash.
    static let malformed: [(String, String)] = [
        ("linear-gradient(red)", "at least two color stops"),
        ("linear-gradient()", "color stop 1 is empty"),
        ("linear-gradient(red, )", "color stop 2 is empty"),
        ("linear-gradient(180deg)", "at least two color stops, got 0"),
        ("linear-gradient(180deg, red, blu)", "\"blu\" is not a color (did you mean \"blue\"?)"),
        ("linear-gradient(180, red, blue)", "\"180\" is not an angle"),
        ("linear-gradient(180px, red, blue)", "the angle units are deg, grad, rad and turn"),
        ("linear-gradient(to, red, blue)", "after \"to\" come a side"),
        ("linear-gradient(to middle, red, blue)", "after \"to\" come a side"),
        ("linear-gradient(to top bottom, red, blue)", "after \"to\" come a side"),
        ("linear-gradient(to top right left, red, blue)", "after \"to\" come a side"),
        ("linear-gradient(red 10px, blue)", "\"10px\" is not a position"),
        ("linear-gradient(red 10% 20% 30%, blue)", "more than two positions"),
        ("linear-gradient(red, 50%, blue)", "interpolation hints are not supported"),
        ("linear-gradient(red, blue", "is not closed"),
        ("linear-gradient(red, rgb(1, 2, 3), blue))", "unbalanced parentheses"),
        ("linear-gradient(red, rgb(1, 2, 3, blue)", "unbalanced parentheses"),
        ("linear-gradient(red 1e999%, blue)", "is not a percentage"),
        ("linear-gradient(1e999deg, red, blue)", "too large an angle"),
        ("linear-gradient(50%, red, blue)", "a position comes after a color"),
        ("radial-gradient(red, blue)", "radial-gradient() is not supported"),
        ("repeating-linear-gradient(red, blue)", "repeating-linear-gradient() is not supported"),
        ("linear-gradient(red,\nblu)", "\"blu\" is not a color"),
        ("linear-gradient(#12345, blue)", "a hex color has 3, 4, 6 or 8 digits"),
    ]

    @Test(arguments: malformed)
    func malformedGradientsAreExplained(text: String, expected: String) {
        guard case let .failure(problem) = CSSGradient.parse(text) else { Issue.record("\(text) parsed"); return }
        #expect(problem.message.contains(expected), "\(text): \(problem.message)")
        #expect(!problem.message.contains("\n"))
    }

    /// In a preset, a bad gradient is one error at its line and column under its key; a gradient
    /// where only a color is taken says where gradients go.
    @Test func aBadGradientIsLocated() throws {
        let text = "{\n  \"layers\": [\n    {\"color\": \"linear-gradient(to middle, red, blue)\"}\n  ],\n"
            + "  \"border\": {\"width\": 0.05, \"color\": \"linear-gradient(red, blue)\"},\n  \"background\": \"linear-gradient(red)\"\n}"
        let error = try #require(throws: WaveError.self) { try PresetLoader(bundled: ["p": text]).load("p") }
        let lines = error.problems.map { "\($0.line):\($0.column) \($0.keyPath): \($0.message)" }
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("3:15 layers[0].color: expected a color or a linear-gradient(), got ") && $0.contains("after \"to\" come a side") })
        #expect(lines.contains { $0.hasPrefix("5:38 border.color: ") && $0.contains("taken only by a layer's color and the background") })
        #expect(lines.contains { $0.hasPrefix("6:17 background: ") && $0.contains("at least two color stops") })
        #expect(lines.allSatisfy { !$0.contains("\n") })
    }

    /// Gradients load into layers, the background and a dark twin.
    @Test func gradientsLoad() throws {
        let text = """
            {"background": "linear-gradient(to top right, #FFF, #EEE)", "layers": [{"color": "linear-gradient(180deg, #81D4FA, #01579B 80%)"}],
             "gif": {"dither": true}, "dark": {"layers[0].color": "linear-gradient(#000, #333)", "background": "#111"}}
            """
        let loader = PresetLoader(bundled: ["p": text])
        let light = try loader.load("p")
        #expect(light.backgroundGradient?.direction == .corner(horizontal: 1, vertical: -1))
        #expect(light.layers[0].gradient?.stops.map(\.position) == [nil, 0.8])
        #expect(light.gif.dither == 1 && light.hasGradient)
        let dark = try loader.load("p", overrides: [PresetOverride.theme("dark")])
        #expect(dark.layers[0].gradient?.stops.map(\.color) == [RGBA(0, 0, 0), RGBA(0x33, 0x33, 0x33)])
        #expect(dark.backgroundGradient == nil && dark.background == RGBA(0x11, 0x11, 0x11))
    }

    /// Gradient scenes: the true-color frames against the reference renderer (its own gradient
    /// evaluation, point-sampled coverage).
    static let scenes: [(String, String)] = [
        ("layers", """
            {"size": [64, 64], "background": "#FAFAFA", "level": 0.55, "layers": [
              {"color": "linear-gradient(180deg, #81D4FA, #01579B 80%)", "amplitude": 0.08, "wavelength": 0.7, "speed": 0.5},
              {"color": "linear-gradient(to top right, rgba(255,0,0,0.6), #00F 60%, #0F0)", "opacity": 0.8, "amplitude": 0.06, "phase": 0.3, "speed": -1}]}
            """),
        ("background-and-ring", """
            {"size": [72, 56], "shape": "circle", "inset": 0.05, "background": "linear-gradient(0.1turn, transparent 10%, #FFCC80)",
             "border": {"width": 0.05, "color": "#5D4037", "gap": 0.04}, "level": {"base": 0.5, "tide": 0.2},
             "layers": [{"color": "#4FC3F7", "amplitude": 0.05}, {"color": "linear-gradient(to left, #E1F5FE, #0277BD 50% 50%, #01579B)", "amplitude": 0.07, "speed": 1}]}
            """),
        ("drop", """
            {"size": [48, 64], "shape": "drop", "inset": "2px", "background": "transparent", "level": 0.6,
             "layers": [{"color": "linear-gradient(170deg, #4FC3F7, #01579B 80%)", "amplitude": 0.05, "speed": 0.5}]}
            """),
    ]

    @Test(arguments: scenes)
    func matchesTheReferenceRenderer(name: String, json: String) throws {
        let (config, plan) = try scene(json)
        let renderer = FrameRenderer(config: config, plan: plan, format: .webp)
        #expect(renderer.drawsTrueColor)
        let reference = ReferenceRenderer(config: config, plan: plan, samples: 89)
        var cache = ColorCache()
        var frame: [UInt8] = []
        let count = renderer.timing.frameCount
        for k in [0, count / 3] {
            renderer.render(frame: k, into: &frame, cache: &cache)
            let ours = stride(from: 0, to: frame.count, by: 4).map { PremultipliedColor(RGBA(frame[$0], frame[$0 + 1], frame[$0 + 2], frame[$0 + 3])) }
            let db = psnr(ours, reference.render(frame: k, of: count))
            #expect(db >= 50, "\(name) frame \(k): PSNR \(db) dB")
        }
    }

    /// Gradients in a scene that fills to the right: the gradients lie on the canvas (a layer's on
    /// the shape's box, the background's on the canvas, as CSS places them) while the water rises
    /// from the left edge, so a `180deg` layer still runs from top to bottom. The true-color frames
    /// against the reference renderer (each paint at the canvas pixel's center, each sample mapped
    /// into the upward frame on its own) ≥ 50 dB; a GIF's drawn frames, laid out the same way,
    /// against the true-color ones ≥ 40 dB.
    @Test func sidewaysGradientMatchesTheReferenceRenderer() throws {
        let (config, plan) = try scene("""
            {"size": [96, 48], "shape": "rounded", "cornerRadius": 0.3, "direction": "right",
             "background": "linear-gradient(to right, #FFFFFF, #FFE0B2)", "border": {"width": "2px", "color": "#37474F", "gap": "1px"},
             "level": {"base": 0.5, "tide": 0.15}, "layers": [
              {"color": "linear-gradient(180deg, #B3E5FC, #01579B)", "opacity": 0.7, "amplitude": 0.06, "wavelength": 1, "speed": 1},
              {"color": "linear-gradient(to top right, #E1F5FE, #0277BD 50%, #1A237E)", "amplitude": 0.05, "wavelength": 0.7, "phase": 0.2, "speed": -1}]}
            """)
        #expect(config.direction == .right)
        let renderer = FrameRenderer(config: config, plan: plan, format: .webp)
        let gif = FrameRenderer(config: config, plan: plan, format: .gif)
        #expect(renderer.drawsTrueColor && !gif.drawsTrueColor)
        let reference = ReferenceRenderer(config: config, plan: plan, samples: 89)
        var cache = ColorCache(), gifCache = ColorCache()
        var frame: [UInt8] = [], indices: [UInt8] = []
        let count = renderer.timing.frameCount
        for k in [0, count / 3, count - 1] {
            renderer.render(frame: k, into: &frame, cache: &cache)
            #expect(frame.count == config.width * config.height * 4)
            let ours = stride(from: 0, to: frame.count, by: 4).map { PremultipliedColor(RGBA(frame[$0], frame[$0 + 1], frame[$0 + 2], frame[$0 + 3])) }
            let db = psnr(ours, reference.render(frame: k, of: count))
            #expect(db >= 50, "frame \(k): PSNR \(db) dB")
            guard k < gif.timing.frameCount, gif.timing.frameCount == count else { continue }
            gif.render(frame: k, into: &indices, cache: &gifCache)
            let gifDB = psnr(colors(indices, gif.palette), ours)
            #expect(gifDB >= 40, "GIF frame \(k): PSNR \(gifDB) dB")
        }
    }

    /// The benchmark's segment reference (Sources/WaveReference) with gradients, against the
    /// point-sampled one and the true-color frames.
    @Test(arguments: scenes)
    func segmentReferenceAgrees(name: String, json: String) throws {
        let (config, plan) = try scene(json)
        let segments = try SegmentReference(config: config, plan: plan)
        let count = plan.timing(for: .webp).frameCount
        let k = count / 2
        let ours = segments.render(frame: k, of: count)
        let points = ReferenceRenderer(config: config, plan: plan, samples: 89).render(frame: k, of: count)
        let db = psnr(ours, points)
        #expect(db >= 50, "\(name): segment against point reference \(db) dB")
        let renderer = FrameRenderer(config: config, plan: plan, format: .webp)
        var cache = ColorCache()
        var frame: [UInt8] = []
        renderer.render(frame: k, into: &frame, cache: &cache)
        let raster = stride(from: 0, to: frame.count, by: 4).map { PremultipliedColor(RGBA(frame[$0], frame[$0 + 1], frame[$0 + 2], frame[$0 + 3])) }
        let rasterDB = psnr(raster, ours)
        #expect(rasterDB >= 50, "\(name): raster against segment reference \(rasterDB) dB")
    }

    /// Arbitrary text built from a gradient's pieces never traps the parser.
    @Test func arbitraryTextNeverTraps() {
        let pieces = ["linear-gradient(", ")", "(", ",", " ", "to", "top", "left", "deg", "turn", "1e308", "-", "%", "red", "#fff",
                      "rgb(", "hsl(", "/", ".", "0", "50%", "\n", "none", "radial-gradient(", "é"]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 1...14, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            if case let .failure(p) = CSSGradient.parse(text) { #expect(!p.message.contains("\n")) }
            _ = Paint(parsing: text)
        }
    }

    /// A gradient GIF: the table holds what the loop shows closely (against the true-color frames
    /// as a GIF stores them), a small loop with few colors is exact, and a dithered frame differs
    /// from the plain one only by the pattern.
    @Test func gifTableFollowsTheLoop() throws {
        let (config, plan) = try scene(GradientTests.scenes[0].1)
        let gif = FrameRenderer(config: config, plan: plan, format: .gif)
        #expect(!gif.drawsTrueColor && gif.palette.colors.count <= 256)
        var cache = ColorCache()
        var indices: [UInt8] = [], rgba: [UInt8] = []
        for k in [0, gif.timing.frameCount / 2] {
            gif.render(frame: k, into: &indices, cache: &cache)
            gif.gradient!.render(frame: k, of: gif.timing.frameCount, into: &rgba)
            let truth = stride(from: 0, to: rgba.count, by: 4).map { PremultipliedColor(RGBA(rgba[$0], rgba[$0 + 1], rgba[$0 + 2], rgba[$0 + 3])) }
            let db = psnr(colors(indices, gif.palette), truth)
            #expect(db >= 40, "frame \(k): PSNR \(db) dB")
        }
        // Two flat-colored ends of a short ramp: every color of the loop fits, so all are exact.
        var few = config
        few.layers = [config.layers[0]]
        few.layers[0].gradient = try parse("linear-gradient(#000 40%, #0A0A0A 60%)")
        let small = FrameRenderer(config: few, plan: try LoopPlanner.plan(few), format: .gif)
        var smallCache = ColorCache()
        small.render(frame: 1, into: &indices, cache: &smallCache)
        small.gradient!.render(frame: 1, of: small.timing.frameCount, into: &rgba)
        let shown: [RGBA] = colors(indices, small.palette).map(\.straight)
        var stored: [RGBA] = []
        for p in stride(from: 0, to: rgba.count, by: 4) {
            stored.append(rgba[p + 3] == 0 ? RGBA.transparent : RGBA(rgba[p], rgba[p + 1], rgba[p + 2], rgba[p + 3]))
        }
        #expect(shown == stored)
        var dithered = config
        dithered.gif.dither = 1
        let d = FrameRenderer(config: dithered, plan: plan, format: .gif)
        #expect(d.gradientPalette!.ditherLevels > 0)
        var plain: [UInt8] = []
        gif.render(frame: 0, into: &plain, cache: &cache)
        var cache2 = ColorCache()
        d.render(frame: 0, into: &indices, cache: &cache2)
        #expect(plain != indices)
    }

    /// A gradient GIF's entries taken by runs (`FrameRenderer.map`: a pixel the color of the one
    /// before takes its entry) are the entries looked up pixel by pixel (`plainMap`), on every
    /// scene's frames and on frames of scattered colors and transparent pixels, dithered or not.
    @Test func entriesByRunsAreEntriesByPixel() throws {
        for (name, json) in GradientTests.scenes {
            let (config, plan) = try scene(json)
            for dither in [0.0, 1.0] {
                var c = config
                c.gif.dither = dither
                let gif = FrameRenderer(config: c, plan: plan, format: .gif)
                let table = try #require(gif.gradientPalette)
                var rgba: [UInt8] = [], fast: [UInt8] = [], plain: [UInt8] = []
                var cache = ColorCache(), plainCache = ColorCache()
                var state: UInt64 = 7
                for k in [0, gif.timing.frameCount / 3] {
                    gif.gradient!.render(frame: k, of: gif.timing.frameCount, into: &rgba)
                    // Every 7th pixel made another color: random, some transparent with color
                    // bytes set, or the pixel before it with one byte changed.
                    for p in stride(from: 7, to: rgba.count / 4, by: 7) {
                        state = state &* 6_364_136_223_846_793_005 &+ 1
                        for b in 0..<4 { rgba[p * 4 + b] = UInt8(truncatingIfNeeded: state >> (24 + 8 * UInt64(b))) }
                        if state % 5 == 0 { rgba[p * 4 + 3] = 0 }
                        if state % 3 == 0 {
                            for b in 0..<4 { rgba[p * 4 + b] = rgba[p * 4 - 4 + b] }
                            rgba[p * 4 + Int(state >> 60) % 4] &+= 1
                        }
                    }
                    FrameRenderer.map(rgba, width: config.width, table, into: &fast, cache: &cache)
                    FrameRenderer.plainMap(rgba, width: config.width, table, into: &plain, cache: &plainCache)
                    #expect(fast.count == rgba.count / 4 && fast == plain, "\(name), dither \(dither), frame \(k)")
                }
            }
        }
    }

    /// A gradient GIF's color count draws the loop once (on the cores) and keeps a small loop's
    /// frames for the frames drawn next: the count equals one frame after the other counted on
    /// one thread, every frame drawn from the kept ones equals one drawn afresh (a plan that keeps
    /// none), each kept frame is handed over once, and a second table of the scene counts nothing
    /// again.
    @Test(arguments: scenes)
    func keptFramesAndTheColorCountMatchAPlainDrawing(name: String, json: String) throws {
        let (config, plan) = try scene(json)
        let discovery = PaletteDiscovery(config: config, plan: plan, format: .gif)
        let raster = try #require(discovery.gradient)
        let count = discovery.timing.frameCount
        var plain: [UInt32: Int] = [:]
        var rgba: [UInt8] = []
        for k in 0..<count {
            raster.render(frame: k, of: count, into: &rgba)
            for p in stride(from: 0, to: rgba.count, by: 4) {
                let key = rgba[p + 3] == 0 ? 0 : UInt32(rgba[p]) << 24 | UInt32(rgba[p + 1]) << 16 | UInt32(rgba[p + 2]) << 8 | UInt32(rgba[p + 3])
                plain[key, default: 0] += 1
            }
        }
        let kept = FrameRenderer(palette: PalettePlan(discovery, config: config))
        #expect(raster.kept.counts(of: count) == plain, "\(name): the count")
        let fresh = FrameRenderer(palette: PalettePlan(PaletteDiscovery(config: config, plan: plan, format: .gif), config: config, keepingFrames: false))
        #expect(fresh.palette.colors == kept.palette.colors)
        var a: [UInt8] = [], b: [UInt8] = []
        var cacheA = ColorCache(), cacheB = ColorCache()
        for k in 0..<count {
            kept.render(frame: k, into: &a, cache: &cacheA)
            fresh.render(frame: k, into: &b, cache: &cacheB)
            #expect(a == b, "\(name) frame \(k)")
        }
        // Every kept frame was handed over; drawn again, a frame is drawn afresh, the same.
        #expect((0..<count).allSatisfy { raster.kept.take($0, of: count) == nil })
        kept.render(frame: 0, into: &a, cache: &cacheA)
        fresh.render(frame: 0, into: &b, cache: &cacheB)
        #expect(a == b)
        var fewer = config
        fewer.gif.colors = 16
        let second = PalettePlan(discovery, config: fewer)
        #expect(second.palette.colors.count <= 16 && raster.kept.counts(of: count) == plain)
    }

    /// A gradient scene's loop is exact: frame N (one loop on) equals frame 0 in every format,
    /// upright and sideways, with gradients on the background and on the water.
    @Test(arguments: ["up", "right"])
    func frameAfterTheLastEqualsTheFirst(direction: String) throws {
        let (config, plan) = try scene(#"""
            {"size": [48, 40], "direction": "\#(direction)", "level": 0.5,
             "background": "linear-gradient(to bottom, #E1F5FE, #B3E5FC)",
             "layers": [{"color": "linear-gradient(180deg, #81D4FA, #01579B 80%)", "amplitude": 0.1, "speed": 0.5},
                        {"color": "linear-gradient(90deg, #4FC3F7, #0288D1)", "opacity": 0.6, "amplitude": 0.08, "phase": 0.4, "speed": 1}]}
            """#)
        #expect(config.hasGradient)
        for format in OutputFormat.allCases {
            let renderer = FrameRenderer(config: config, plan: plan, format: format)
            var cache = ColorCache()
            var first: [UInt8] = [], wrapped: [UInt8] = [], middle: [UInt8] = []
            renderer.render(frame: 0, into: &first, cache: &cache)
            renderer.render(frame: renderer.timing.frameCount / 2, into: &middle, cache: &cache)
            renderer.render(frame: renderer.timing.frameCount, into: &wrapped, cache: &cache)
            #expect(first == wrapped, "\(direction) \(format)")
            // The frames do move: the check is not between two still pictures.
            #expect(first != middle, "\(direction) \(format)")
        }
    }

}

/// The gradient palette's true-color count (`ColorTally`, open-addressed) against a dictionary
/// count of the same frames (`GradientRaster.count(_:into:)` into `[UInt32: Int]`).
@Suite struct ColorTallyTests {
    /// Frames of runs, noise and transparency, with more colors than the table's first size (so
    /// it grows), counted frame by frame and merged from two tallies as the threads' are.
    @Test func countsAreTheDictionarysCounts() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt32 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: state >> 33)
        }
        // Colors from a pool, so most are met again in later runs and frames.
        let pool = (0..<6000).map { _ in next() }
        var plain: [UInt32: Int] = [:]
        var tallies = [ColorTally(), ColorTally()]
        for k in 0..<12 {
            var rgba: [UInt8] = []
            while rgba.count < 4 * 3000 {
                let run = 1 + Int(next() % 7)
                let v = pool[Int(next() % UInt32(pool.count))]
                // Transparent pixels whose color channels are not 0 count as transparent too.
                let a: UInt8 = v % 5 == 0 ? 0 : UInt8(truncatingIfNeeded: v >> 8) | 1
                let color = [UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 24), UInt8(k % 3), a]
                for _ in 0..<run { rgba += color }
            }
            GradientRaster.count(rgba, into: &plain)
            GradientRaster.count(rgba, into: &tallies[k % 2])
        }
        var merged = tallies[0]
        tallies[1].forEach { merged.add($0, $1) }
        var counted: [UInt32: Int] = [:]
        merged.forEach { key, n in
            #expect(counted[key] == nil, "color \(key) listed twice")
            counted[key] = n
        }
        #expect(plain.count > 4096 && plain[0] != nil && plain.values.contains { $0 > 20 })
        #expect(merged.count == plain.count)
        #expect(counted == plain)
    }

    /// A thread's frames counted as `colorCounts` counts them (the first once for every frame,
    /// each later one's changed pixels once for it and every frame after) equal every frame
    /// counted whole: frames that change a few pixels, some
    /// to and from transparent pixels whose color bytes differ, some back to what they were.
    @Test func changesCountAsWholeFrames() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt32 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: state >> 33)
        }
        func color() -> [UInt8] {
            let v = next()
            let a: UInt8 = v % 4 == 0 ? 0 : UInt8(truncatingIfNeeded: v >> 24) | 1
            return [UInt8(v % 7), UInt8(v >> 3 & 3), UInt8(truncatingIfNeeded: v >> 9), a]
        }
        var frame: [UInt8] = []
        for _ in 0..<2000 { frame += color() }
        let first = frame
        var frames: [[UInt8]] = []
        for k in 0..<9 {
            for _ in 0..<(k % 3 == 0 ? 400 : 40) {
                let p = Int(next() % 2000)
                let c = next() % 5 == 0 ? Array(first[(p * 4)..<(p * 4 + 4)]) : color()
                for b in 0..<4 { frame[p * 4 + b] = c[b] }
            }
            frames.append(frame)
        }
        var plain: [UInt32: Int] = [:]
        for f in frames { GradientRaster.count(f, into: &plain) }
        var tally = ColorTally()
        GradientRaster.count(frames[0], into: &tally, times: frames.count)
        for j in 1..<frames.count {
            GradientRaster.countChanges(from: frames[j - 1], to: frames[j], into: &tally, times: frames.count - j)
        }
        // Every color added was shown in a frame, so none is left at 0 (or below).
        var counted: [UInt32: Int] = [:]
        tally.forEach { key, n in counted[key] = n }
        #expect(counted == plain && !counted.values.contains { $0 <= 0 })
    }
}
