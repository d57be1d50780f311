import Foundation
import Testing
@testable import WaveKit
import WaveTestSupport

/// Small versions of the looks wavegen must draw, one per shape and background kind.
let rasterScenes: [(String, String)] = [
    ("classic", """
        {"size": [64, 64], "background": "#E3F2FD", "level": 0.6, "layers": [
          {"color": "#90CAF9", "amplitude": 0.08, "wavelength": 2, "phase": 0.5, "speed": 0.5},
          {"color": "#42A5F5", "amplitude": 0.08, "wavelength": 2, "phase": 0, "speed": 0.5},
          {"color": "#1E88E5", "amplitude": 0.08, "wavelength": 2, "phase": 0.25, "speed": 0.5}]}
        """),
    ("orb", """
        {"size": [64, 64], "shape": "circle", "inset": 0.05, "background": "transparent",
         "border": {"width": "3px", "color": "#1E88E5", "gap": "2px"}, "level": 0.5, "layers": [
          {"color": "#64B5F6", "opacity": 0.6, "amplitude": 0.06, "wavelength": 1, "speed": 1},
          {"color": "#1E88E5", "amplitude": 0.06, "wavelength": 0.8, "phase": 0.3, "speed": -1.25}]}
        """),
    ("rounded", """
        {"size": [96, 24], "shape": "rounded", "cornerRadius": 0.5, "background": "#ffffff",
         "border": {"width": "2px", "color": "#333333"}, "level": {"from": 0.2, "to": 0.8, "pingpong": true},
         "layers": [{"color": "#43A047", "amplitude": 0.1, "wavelength": 0.5, "speed": 1}]}
        """),
    ("awkward speeds", """
        {"size": [48, 32], "fps": 30, "background": "#0B1B2B", "level": 0.45, "layers": [
          {"color": "#2979FF", "amplitude": 0.12, "wavelength": 0.9, "speed": 0.37},
          {"color": "#00E5FF", "opacity": 0.7, "amplitude": 0.1, "wavelength": 0.6, "phase": 0.3, "speed": 0.6}]}
        """),
    ("triangle", """
        {"size": [64, 56], "shape": "triangle", "background": "#202020", "level": {"base": 0.5, "tide": 0.2},
         "layers": [{"color": "#00E5FF", "amplitude": 0.05, "speed": 0.5}, {"color": "#00B8D4", "opacity": 0.5, "amplitude": 0.07, "phase": 0.5, "speed": 1}]}
        """),
    ("heart", """
        {"size": [64, 60], "shape": "heart", "inset": 0.05, "background": "transparent",
         "border": {"width": "3px", "color": "#C2185B", "gap": "2px"}, "level": {"base": 0.5, "tide": 0.2}, "layers": [
          {"color": "#F48FB1", "opacity": 0.7, "amplitude": 0.07, "wavelength": 1, "speed": -1},
          {"color": "#E91E63", "amplitude": 0.05, "wavelength": 0.7, "phase": 0.3, "speed": 1, "offset": 0.1}]}
        """),
    ("drop", """
        {"size": [48, 64], "shape": "drop", "background": "#FAFAFA",
         "border": {"width": "2.5px", "color": "#0277BD"}, "level": 0.55, "layers": [
          {"color": "#4FC3F7", "amplitude": 0.06, "wavelength": 1.2, "speed": 1},
          {"color": "#0288D1", "opacity": 0.8, "amplitude": 0.05, "wavelength": 0.8, "phase": 0.5, "speed": -1}]}
        """),
    ("path evenodd", """
        {"size": [64, 64], "shape": {"path": "M32 2A30 30 0 1 1 31.99 2ZM32 16a16 16 0 1 0 .01 0z M4 4h10v10h-10z", "viewBox": [0, 0, 64, 64], "fillRule": "evenodd"},
         "background": "#101820", "border": {"width": "2px", "color": "#FFB300", "gap": "1.5px"}, "level": 0.6, "layers": [
          {"color": "#26C6DA", "amplitude": 0.05, "wavelength": 0.5, "speed": 1}]}
        """),
    ("path nonzero", """
        {"size": [72, 48], "shape": {"path": "M0 0h30v40h20V0h30v60H0z m35 -10 q5 -20 10 0 t10 0", "viewBox": [-2, -12, 84, 74]},
         "inset": "3px", "background": "#ffffff", "level": {"from": 0.1, "to": 0.9, "pingpong": true}, "layers": [
          {"color": "#7E57C2", "amplitude": 0.08, "wavelength": 0.6, "speed": 1},
          {"color": "#B39DDB", "opacity": 0.6, "amplitude": 0.06, "wavelength": 0.9, "phase": 0.2, "speed": -1}]}
        """),
]

func scene(_ json: String) throws -> (WaveConfig, LoopPlan) {
    let c = try decode(json).get()
    return (c, try LoopPlanner.plan(c))
}

/// The premultiplied colors a frame of palette indices shows.
func colors(_ indices: [UInt8], _ palette: Palette) -> [PremultipliedColor] {
    indices.map { PremultipliedColor(palette.colors[Int($0)]) }
}

@Suite struct RasterTests {
    /// An opaque color's 8-bit straight form, taken without dividing by its alpha, equals the
    /// division's: over random opaque colors (channels spread over 0…1 and at the 8-bit levels'
    /// half-way points), and colors just short of opaque and translucent ones taking the plain way.
    @Test func straightWithoutDividingEqualsThePlainForm() {
        var random = SeededGenerator(state: 41)
        var opaque = 0
        for n in 0..<200_000 {
            func channel() -> Double {
                n % 3 == 0 ? (Double(random.next() % 256) + 0.5) / 255 : Double(random.next() % 1_000_001) / 1_000_000
            }
            let a = [1.0, 1.0, 1.0.nextDown, 0.5, Double(random.next() % 1000) / 999][n % 5]
            let c = PremultipliedColor(r: channel() * a, g: channel() * a, b: channel() * a, a: a)
            #expect(c.straight == c.straightDividing, "\(c)")
            if c.a == 1 { opaque += 1 }
        }
        #expect(opaque > 80_000)
    }

    /// A channel rounded to a byte without the C library (`PremultipliedColor.byte`) is the plain
    /// rounding and clamp's: at every half-way point and whole number from −2 to 258 and the doubles
    /// either side, at random values, and at the ends (±0, ±∞, NaN, the largest doubles).
    @Test func byteRoundingIsThePlainForm() {
        var values: [Double] = [0, -0.0, .infinity, -.infinity, .nan, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                                .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1e300, -1e300]
        for k in -4...516 {
            let v = Double(k) / 2
            values += [v, v.nextUp, v.nextDown, v.nextUp.nextUp, v.nextDown.nextDown]
        }
        var random = SeededGenerator(state: 43)
        for _ in 0..<200_000 { values.append(Double(random.next() % 1_000_000_001) / 1_000_000_000 * 270 - 7) }
        for x in values {
            #expect(PremultipliedColor.byte(x) == PremultipliedColor.plainByte(x), "\(x)")
        }
    }

    @Test(arguments: rasterScenes)
    func matchesTheReferenceRenderer(name: String, json: String) throws {
        let (config, plan) = try scene(json)
        let renderer = FrameRenderer(config: config, plan: plan, format: .webp)
        let reference = ReferenceRenderer(config: config, plan: plan)
        var cache = ColorCache()
        var frame: [UInt8] = []
        let count = renderer.timing.frameCount
        for k in [0, count / 3, count - 1] {
            renderer.render(frame: k, into: &frame, cache: &cache)
            let ours = colors(frame, renderer.palette)
            let truth = reference.render(frame: k, of: count)
            let db = psnr(ours, truth)
            #expect(db >= 50, "\(name) frame \(k): PSNR \(db) dB")
            // Flat pixels (every reference sample the same color) come out exactly.
            for (i, t) in truth.enumerated() where isFlat(t, config: config) && neighbours(of: i, config.width, config.height).allSatisfy({ truth[$0] == t }) {
                #expect(ours[i].straight == t.straight, "\(name) frame \(k) pixel \(i % config.width),\(i / config.width)")
                if ours[i].straight != t.straight { break }
            }
        }
    }

    /// The pixel and its eight neighbours that lie on the canvas.
    func neighbours(of i: Int, _ width: Int, _ height: Int) -> [Int] {
        let x = i % width, y = i / width
        return (-1...1).flatMap { dy in (-1...1).compactMap { dx in
            (0..<width).contains(x + dx) && (0..<height).contains(y + dy) ? (y + dy) * width + x + dx : nil
        } }
    }

    /// Whether a reference pixel is exactly one of the scene's flat colors (so it had no edge in it).
    func isFlat(_ c: PremultipliedColor, config: WaveConfig) -> Bool {
        var flats = [PremultipliedColor(config.background)]
        for mask in 0..<(1 << config.layers.count) {
            var f = PremultipliedColor(config.background)
            for (i, l) in config.layers.enumerated() where mask & (1 << i) != 0 { f = f.under(PremultipliedColor(l.color, opacity: l.opacity), coverage: 1) }
            flats.append(f)
        }
        if let b = config.border { flats.append(PremultipliedColor(config.background).under(PremultipliedColor(b.color), coverage: 1)) }
        return flats.contains { abs($0.r - c.r) + abs($0.g - c.g) + abs($0.b - c.b) + abs($0.a - c.a) < 1e-9 }
    }

    @Test(arguments: rasterScenes)
    func frameAfterTheLastEqualsTheFirst(name: String, json: String) throws {
        let (config, plan) = try scene(json)
        for format in OutputFormat.allCases {
            let renderer = FrameRenderer(config: config, plan: plan, format: format)
            var cache = ColorCache()
            var first: [UInt8] = [], wrapped: [UInt8] = []
            renderer.render(frame: 0, into: &first, cache: &cache)
            renderer.render(frame: renderer.timing.frameCount, into: &wrapped, cache: &cache)
            #expect(first == wrapped, "\(name) \(format)")
        }
    }

    @Test func transparentBackgroundGIFHasNoHaloAndTransparentOutside() throws {
        let (config, plan) = try scene(rasterScenes[1].1)
        let renderer = FrameRenderer(config: config, plan: plan, format: .gif)
        let t = try #require(renderer.palette.transparentIndex)
        var frame: [UInt8] = []
        var cache = ColorCache()
        renderer.render(frame: 0, into: &frame, cache: &cache)
        #expect(frame[0] == UInt8(t))
        #expect(frame[config.width * config.height - 1] == UInt8(t))
        // Matte edges are blended with white: no entry is darker than the darkest scene color at the rim.
        for c in renderer.palette.colors where c.a != 0 { #expect(c.a == 255) }
    }

    @Test(arguments: GIFOptions.Edges.allCases)
    func gifEdgeModesKeepPaletteOpaque(edges: GIFOptions.Edges) throws {
        var (config, plan) = try scene(rasterScenes[1].1)
        config.gif.edges = edges
        let renderer = FrameRenderer(config: config, plan: plan, format: .gif)
        #expect(renderer.palette.colors.enumerated().allSatisfy { $0.offset == renderer.palette.transparentIndex || $0.element.a == 255 })
        var frame: [UInt8] = []
        var cache = ColorCache()
        renderer.render(frame: 3, into: &frame, cache: &cache)
        let t = UInt8(renderer.palette.transparentIndex!)
        let opaque = frame.filter { $0 != t }.count
        #expect(opaque > 0 && opaque < frame.count)
    }

    @Test func scaleDrawsTheSamePictureAtMorePixels() throws {
        let json = rasterScenes[0].1
        let (one, plan1) = try scene(json)
        let (three, plan3) = try scene(json.replacingOccurrences(of: "\"size\": [64, 64]", with: "\"size\": [64, 64], \"scale\": 3"))
        #expect(three.width == 192)
        let r1 = FrameRenderer(config: one, plan: plan1, format: .webp)
        let r3 = FrameRenderer(config: three, plan: plan3, format: .webp)
        var a: [UInt8] = [], b: [UInt8] = []
        var cache = ColorCache(), cache3 = ColorCache()
        r1.render(frame: 7, into: &a, cache: &cache)
        r3.render(frame: 7, into: &b, cache: &cache3)
        // Box-filter the @3x frame down and compare with @1x.
        let big = colors(b, r3.palette), small = colors(a, r1.palette)
        var down = [PremultipliedColor]()
        for y in 0..<64 {
            for x in 0..<64 {
                var s = PremultipliedColor.clear
                for dy in 0..<3 { for dx in 0..<3 {
                    let p = big[(y * 3 + dy) * 192 + x * 3 + dx]
                    s = PremultipliedColor(r: s.r + p.r / 9, g: s.g + p.g / 9, b: s.b + p.b / 9, a: s.a + p.a / 9)
                } }
                down.append(s)
            }
        }
        #expect(psnr(down, small) > 40)
    }

    @Test func parallelRenderingGivesTheSameFrames() throws {
        let (config, plan) = try scene(rasterScenes[1].1)
        let renderer = FrameRenderer(config: config, plan: plan, format: .gif)
        var serial: [[UInt8]] = [], parallel: [[UInt8]] = []
        renderer.renderAll(threads: 1) { _, f in serial.append(f) }
        renderer.renderAll(threads: 4) { _, f in parallel.append(f) }
        #expect(serial.count == renderer.timing.frameCount)
        #expect(serial == parallel)
    }

    /// WebP's and APNG's encoders are slow next to the frames, so their renders take threads from
    /// smaller loops than a GIF's; the frames are the same either way.
    @Test func trueColorTargetsDrawOnThreadsFromSmallerLoops() throws {
        let (config, plan) = try scene(rasterScenes[1].1)
        let gif = FrameRenderer(config: config, plan: plan, format: .gif)
        let webp = FrameRenderer(config: config, plan: plan, format: .webp)
        #expect(gif.serialLimit == FrameRenderer.serialPixels)
        #expect(webp.serialLimit < gif.serialLimit)
        var serial: [[UInt8]] = [], automatic: [[UInt8]] = []
        webp.renderAll(threads: 1) { _, f in serial.append(f) }
        webp.renderAll { _, f in automatic.append(f) }
        #expect(serial.count == webp.timing.frameCount)
        #expect(serial == automatic)
    }

    /// A larger `edgeStep` gives coarser edge ramps (fewer colors) while flat regions stay exact and
    /// the picture stays close to the reference.
    @Test func largerEdgeStepsUseFewerColorsAndKeepFlatsExact() throws {
        let (base, plan) = try scene(rasterScenes[0].1)
        let reference = ReferenceRenderer(config: base, plan: plan)
        var previous: (colors: Int, steps: Int)?
        var defaultFrame: [PremultipliedColor] = []
        for step in [3.0, 8, 16, 32, 64, 128] {
            var config = base
            config.edgeStep = step
            let renderer = FrameRenderer(config: config, plan: plan, format: .webp)
            var frame: [UInt8] = []
            var cache = ColorCache()
            renderer.render(frame: 7, into: &frame, cache: &cache)
            let shown = colors(frame, renderer.palette)
            let truth = reference.render(frame: 7, of: renderer.timing.frameCount)
            if let previous {
                #expect(renderer.palette.colors.count < previous.colors, "step \(step): \(renderer.palette.colors.count) colors")
                #expect(renderer.palette.rampSteps < previous.steps, "step \(step): \(renderer.palette.rampSteps) ramp steps")
                // Pixels in flat regions are the same colors as at the default step.
                for i in shown.indices where isFlat(defaultFrame[i], config: config) {
                    #expect(shown[i] == defaultFrame[i], "step \(step) pixel \(i)")
                    if shown[i] != defaultFrame[i] { break }
                }
                #expect(psnr(shown, truth) >= (step <= 8 ? 45 : step <= 32 ? 38 : 40), "step \(step): \(psnr(shown, truth)) dB")
            } else {
                defaultFrame = shown
            }
            previous = (renderer.palette.colors.count, renderer.palette.rampSteps)
        }
    }

    @Test func paletteFitsAndFlatsComeFirst() throws {
        // Sixteen translucent layers make many flat regions; the palette must still fit in 256 entries.
        var layers: [String] = []
        for i in 0..<16 { layers.append("{\"color\": \"#\(String(format: "%02X", i * 15))8040\", \"opacity\": 0.5, \"amplitude\": 0.2, \"phase\": \(Double(i) / 16), \"speed\": 0.5, \"offset\": \(Double(i) / 40)}") }
        let (config, plan) = try scene("{\"size\": [48, 48], \"layers\": [\(layers.joined(separator: ","))]}")
        let renderer = FrameRenderer(config: config, plan: plan, format: .gif)
        #expect(renderer.palette.colors.count <= 256)
        #expect(!renderer.palette.notes.isEmpty)
        var frame: [UInt8] = []
        var cache = ColorCache()
        renderer.render(frame: 0, into: &frame, cache: &cache)
        #expect(frame.allSatisfy { Int($0) < renderer.palette.colors.count })
    }
}

@Suite struct MattePlaneTests {
    /// The matte plane marks a GIF pixel exactly where the scene is partly covered over
    /// transparency (judged by the reference renderer's alpha, with a margin for its sampling),
    /// and only for GIFs whose edges blend against the matte.
    @Test func marksThePartlyCoveredPixelsOverTransparency() throws {
        let loader = PresetLoader(imageDecoder: { _ throws(ImageProblem) in testRiderImage() })
        var config = try loader.load("orb")
        config.label = nil
        config.gif.lossy = 8
        let plan = try LoopPlanner.plan(config)
        let renderer = FrameRenderer(config: config, plan: plan, format: .gif)
        #expect(renderer.marksMatte)
        let count = renderer.timing.frameCount
        let reference = ReferenceRenderer(config: config, plan: plan, samples: 89)
        var cache = ColorCache()
        for k in [0, count / 3] {
            var frame: [UInt8] = [], matte: [UInt8] = []
            renderer.render(frame: k, into: &frame, matte: &matte, cache: &cache)
            #expect(matte.count == frame.count)
            let truth = reference.render(frame: k, of: count)
            // A marked pixel's color is the reference's composited over the matte (up to a capped
            // ramp step and the reference's sampling), and it lies on an edge against
            // transparency: partly covered in the reference, or next to a pixel that is (the
            // reference samples columns, and rounds up pixels where the outline grazes a row). An
            // unmarked one is opaque, or transparent, in the reference too.
            let matteColor = PremultipliedColor(config.gif.matte)
            let width = config.width
            func partial(_ p: Int) -> Bool { truth[p].a > 0.03 && truth[p].a < 0.97 }
            var marked = 0, worst = 0, wrong = 0
            for p in frame.indices {
                let a = truth[p].a
                if matte[p] != 0 {
                    if partial(p) { marked += 1 }
                    let x = p % width, y = p / width
                    let near = (max(0, y - 1)...min(config.height - 1, y + 1)).contains { yy in
                        (max(0, x - 1)...min(width - 1, x + 1)).contains { truth[yy * width + $0].a < 1 - 1e-6 }
                    }
                    #expect(near, "frame \(k) pixel \(x),\(y): marked away from any edge against transparency")
                    #expect(Int(frame[p]) != renderer.palette.transparentIndex, "frame \(k) pixel \(p): marked but transparent")
                    let want = matteColor.under(truth[p], coverage: 1).straight, got = renderer.palette.colors[Int(frame[p])]
                    worst = max(worst, abs(Int(want.r) - Int(got.r)), abs(Int(want.g) - Int(got.g)), abs(Int(want.b) - Int(got.b)))
                } else if Int(frame[p]) == renderer.palette.transparentIndex ? a > 0.03 : a < 0.97 {
                    wrong += 1
                }
            }
            #expect(worst <= 24, "frame \(k): a marked pixel is \(worst) levels from the reference over the matte")
            #expect(marked > 100, "frame \(k): \(marked) pixels marked")
            #expect(wrong == 0, "frame \(k): \(wrong) pixels marked against the reference's alpha")
        }
        // No plane for true alpha, for cut edges, for an exact GIF (nothing reads it), or for an opaque scene.
        var cut = config, exact = config
        cut.gif.edges = .cut
        exact.gif.lossy = 0
        var opaque = try loader.load("classic")
        opaque.gif.lossy = 8
        for r in [FrameRenderer(config: config, plan: plan, format: .webp), FrameRenderer(config: cut, plan: plan, format: .gif),
                  FrameRenderer(config: exact, plan: plan, format: .gif),
                  FrameRenderer(config: opaque, plan: try LoopPlanner.plan(opaque), format: .gif)] {
            var frame: [UInt8] = [], matte: [UInt8] = [1]
            r.render(frame: 1, into: &frame, matte: &matte, cache: &cache)
            #expect(!r.marksMatte && matte.isEmpty)
        }
    }
}

@Suite struct BundledPresetRasterTests {
    /// Every bundled preset at its own size against the reference renderer (the label, drawn from
    /// a FreeType mask outside this module, is left out here and tested on its own).
    @Test(arguments: BundledPresets.sources.keys.sorted())
    func matchesTheReferenceRenderer(name: String) throws {
        let loader = PresetLoader(imageDecoder: { _ throws(ImageProblem) in testRiderImage() })
        var config = try loader.load(name)
        config.label = nil
        let plan = try LoopPlanner.plan(config)
        let renderer = FrameRenderer(config: config, plan: plan, format: .webp)
        var cache = ColorCache()
        var frame: [UInt8] = []
        let k = renderer.timing.frameCount / 3
        renderer.render(frame: k, into: &frame, cache: &cache)
        let truth = ReferenceRenderer(config: config, plan: plan, samples: 89).render(frame: k, of: renderer.timing.frameCount)
        // A scene with gradients is drawn in true color (straight RGBA), every other through its palette.
        let ours = renderer.drawsTrueColor
            ? stride(from: 0, to: frame.count, by: 4).map { PremultipliedColor(RGBA(frame[$0], frame[$0 + 1], frame[$0 + 2], frame[$0 + 3])) }
            : colors(frame, renderer.palette)
        #expect(ours.count == config.width * config.height)
        let db = psnr(ours, truth)
        #expect(db >= 50, "\(name): PSNR \(db) dB")
    }
}
