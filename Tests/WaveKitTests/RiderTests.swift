import Foundation
import Testing
import WaveTestSupport
@testable import WaveKit

/// A 48 × 36 test image: a red hull, a white sail, a dark mast, transparent around them.
func testRiderImage() -> RiderImage {
    let w = 48, h = 36
    var rgba = [UInt8](repeating: 0, count: w * h * 4)
    for y in 0..<h {
        for x in 0..<w {
            var c: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
            if y >= 26 && x >= 6 + (y - 26) && x < 42 - (y - 26) { c = (200, 40, 30, 255) }
            if y < 26 && y >= 4 && x >= 24 && x < 24 + (26 - y) { c = (250, 250, 240, 255) }
            if x == 23 && y < 27 { c = (60, 40, 20, 255) }
            let i = (y * w + x) * 4
            (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]) = c
        }
    }
    return RiderImage(width: w, height: h, rgba: rgba)
}

func riderScene(tilt: Double = 1, layer: Int = 1, width: Double = 0.5) throws -> (WaveConfig, LoopPlan) {
    var (config, plan) = try scene("""
        {"size": [96, 64], "background": "#FFFFFF", "level": 0.4, "layers": [
          {"color": "#30CCF9", "amplitude": 0.12, "wavelength": 1, "speed": 1},
          {"color": "#1E88E5", "opacity": 0.8, "amplitude": 0.08, "wavelength": 0.7, "phase": 0.3, "speed": -1}]}
        """)
    config.rider = Rider(image: testRiderImage(), width: width * config.box.width, x: 0.4, layer: layer, tilt: tilt, sink: 2)
    plan = try LoopPlanner.plan(config)
    return (config, plan)
}

@Suite struct RiderTests {
    @Test(arguments: [0, 7, 13, 40])
    func sitsOnTheSurfaceAndTurnsWithItsSlope(frame: Int) throws {
        let (config, plan) = try riderScene(tilt: 0.5)
        let rider = RiderRaster(config.rider!)
        let count = plan.timing(for: .gif).frameCount
        let surfaces = WaveModel(config: config, plan: plan).surfaces(frame: frame, of: count)
        let p = rider.place(on: surfaces, box: config.box, orientation: WaveOrientation(direction: .up, canvasWidth: config.width, canvasHeight: config.height))
        // The surface formula, written out.
        let l = config.layers[1]
        let x = config.box.x + 0.4 * config.box.width
        let u = Double(frame) / Double(count)
        let y0 = config.box.y + config.box.height * (1 - 0.4)
        let arg = 2 * Double.pi * ((x - config.box.x) / l.wavelength + l.phase - Double(plan.layers[1].cycles) * u)
        #expect(abs(p.x - x) < 1e-9)
        #expect(abs(p.y - (y0 + l.offset - l.amplitude * sin(arg) + 2)) < 1e-9)
        let slope = -l.amplitude * 2 * Double.pi / l.wavelength * cos(arg)
        #expect(abs(p.angle - 0.5 * atan(slope)) < 1e-9)
    }

    /// A rider wholly off the canvas (above, below, left or right of it) is placed with nothing to
    /// draw, and a frame with it renders the scene without it instead of trapping.
    @Test(arguments: [(0.0, -400.0), (0.0, 400.0), (-300.0, 0.0), (300.0, 0.0), (-1e6, -1e6)])
    func offTheCanvasIsNotDrawn(shift: (x: Double, y: Double)) throws {
        let (config, plan) = try riderScene()
        var off = config
        off.rider!.sink = shift.y
        off.rider!.x = 0.4 + shift.x / config.box.width
        let rider = RiderRaster(off.rider!)
        let count = plan.timing(for: .gif).frameCount
        let surfaces = WaveModel(config: off, plan: plan).surfaces(frame: 0, of: count)
        let p = rider.place(on: surfaces, box: off.box, orientation: WaveOrientation(direction: .up, canvasWidth: off.width, canvasHeight: off.height))
        #expect(p.columns.isEmpty || p.rows.isEmpty)
        var without = config
        without.rider = nil
        var a: [UInt8] = [], b: [UInt8] = [], cache = ColorCache(), other = ColorCache()
        let withRider = FrameRenderer(config: off, plan: plan, format: .webp)
        let bare = FrameRenderer(config: without, plan: plan, format: .webp)
        withRider.render(frame: 0, into: &a, cache: &cache)
        bare.render(frame: 0, into: &b, cache: &other)
        #expect(colors(a, withRider.palette) == colors(b, bare.palette))
    }

    @Test func pixelSpansAreClampedToTheCanvas() {
        #expect(RiderRaster.pixels(from: -50, to: -10, within: 96) == 0..<0)
        #expect(RiderRaster.pixels(from: 200, to: 300, within: 96) == 0..<0)
        #expect(RiderRaster.pixels(from: -5.5, to: 3.2, within: 96) == 0..<5)
        #expect(RiderRaster.pixels(from: 10.5, to: 20.5, within: 96) == 9..<22)
        #expect(RiderRaster.pixels(from: 90, to: 1e300, within: 96) == 89..<96)
        #expect(RiderRaster.pixels(from: -.infinity, to: 3, within: 96) == 0..<0)
        #expect(RiderRaster.pixels(from: .nan, to: 3, within: 96) == 0..<0)
        #expect(RiderRaster.pixels(from: 0, to: 3, within: 0) == 0..<0)
    }

    @Test func matchesTheReferenceRenderer() throws {
        let (config, plan) = try riderScene()
        let renderer = FrameRenderer(config: config, plan: plan, format: .webp)
        let reference = ReferenceRenderer(config: config, plan: plan, samples: 89)
        var cache = ColorCache()
        var frame: [UInt8] = []
        let count = renderer.timing.frameCount
        for k in [0, count / 4, count / 2] {
            renderer.render(frame: k, into: &frame, cache: &cache)
            let db = psnr(colors(frame, renderer.palette), reference.render(frame: k, of: count))
            #expect(db >= 38, "frame \(k): PSNR \(db) dB")
        }
    }

    @Test func waterInFrontCoversTheHull() throws {
        // Riding the back layer, the rider shows only above the front layer's surface: wherever
        // the front layer covers a pixel whole, the pure hull color never appears.
        let (config, plan) = try riderScene(tilt: 0, layer: 0)
        let renderer = FrameRenderer(config: config, plan: plan, format: .webp)
        var cache = ColorCache()
        var frame: [UInt8] = []
        let count = renderer.timing.frameCount
        let model = WaveModel(config: config, plan: plan)
        var hullAbove = 0
        for k in [0, count / 3] {
            renderer.render(frame: k, into: &frame, cache: &cache)
            let surfaces = model.surfaces(frame: k, of: count)
            for y in 0..<config.height {
                for x in 0..<config.width where renderer.palette.colors[Int(frame[y * config.width + x])] == RGBA(200, 40, 30) {
                    let front = max(surfaces.surface(layer: 1, atX: Double(x)), surfaces.surface(layer: 1, atX: Double(x + 1)))
                    #expect(Double(y) < front, "hull color under the front layer at \(x),\(y) frame \(k)")
                    hullAbove += 1
                }
            }
        }
        #expect(hullAbove > 0)
    }

    @Test func keepsTheLoopClosedAndItsColorsExact() throws {
        let (config, plan) = try riderScene()
        let renderer = FrameRenderer(config: config, plan: plan, format: .gif)
        var cache = ColorCache()
        var first: [UInt8] = [], wrapped: [UInt8] = []
        renderer.render(frame: 0, into: &first, cache: &cache)
        renderer.render(frame: renderer.timing.frameCount, into: &wrapped, cache: &cache)
        #expect(first == wrapped)
        // Large areas of the rider keep their exact colors; the one-pixel mast only ever shows blended.
        for color in [RGBA(200, 40, 30), RGBA(250, 250, 240)] {
            #expect(renderer.palette.colors.contains(color), "\(color) is not in the palette")
        }
        // The water's flat colors are still there exactly.
        #expect(renderer.palette.colors.contains(RGBA(0x30, 0xCC, 0xF9)))
        #expect(renderer.palette.colors.count <= 256)
    }

    @Test func imageProblemsAreReportedAtTheKey() throws {
        let loader = PresetLoader(bundled: ["r": "{\"rider\": {\"image\": \"missing.png\"}}"], bundledAssets: [:],
                                  imageDecoder: { _ throws(ImageProblem) in throw ImageProblem("not a PNG file") })
        #expect(throws: WaveError(DocumentProblem(file: "r", line: 1, column: 21, keyPath: "rider.image", message: "\"missing.png\" is not an image bundled with the presets"))) {
            try loader.load("r")
        }
        let scratch = try TemporaryFolder()
        let dir = scratch.url
        let preset = dir.appendingPathComponent("p.json")
        try "{\"rider\": {\"image\": \"boat.png\", \"layer\": 3}}".write(to: preset, atomically: true, encoding: .utf8)
        try "hello".write(to: dir.appendingPathComponent("boat.png"), atomically: true, encoding: .utf8)
        do {
            _ = try loader.load(preset.path)
            Issue.record("loaded")
        } catch {
            #expect(error.lines == [
                "\(preset.path):1:21: error: at rider.image: boat.png: not a PNG file",
                "\(preset.path):1:42: error: at rider.layer: there are 1 layers: expected 0…0, or -1…-1 counting from the front, got 3",
            ])
        }
    }
}

/// The rider's fast paths against their plain forms, bit for bit, over every pixel a rider can
/// reach in frames of the bundled boat's scene and of the test scene.
/// `texts` with a mask for every text a GIF loop of `config` shows, each the first mask's fill
/// shifted by `shift` × the text's place in the loop (a label whose mask changes along the loop),
/// and how many texts that is.
func labelWithAMaskPerText(_ texts: LabelTexts, _ config: WaveConfig, _ plan: LoopPlan, shift: Int) throws -> (LabelTexts, Int) {
    let shown = LabelTexts.texts(of: texts.label, level: config.level, frameCounts: [plan.timing(for: .gif).frameCount])
    let first = try #require(texts.overlays.values.first)
    var overlays: [String: LabelOverlay] = [:]
    for (n, text) in shown.enumerated() {
        var overlay = first
        overlay.fill = overlay.fill.indices.map { overlay.fill[($0 + n * shift) % overlay.fill.count] }
        overlays[text] = overlay
    }
    return (LabelTexts(label: texts.label, level: config.level, overlays: overlays), shown.count)
}

/// About `frames` frames across `renderer`'s loop, drawn in order with one color cache kept
/// across them (a label's pixels drawn once) and each with a fresh cache: the indices and matte
/// planes are expected equal. Returns how many pixels the matte planes marked.
func expectKeptCacheDrawsAsFresh(_ renderer: FrameRenderer, frames: Int, _ what: String) -> Int {
    var kept = ColorCache(), once: [UInt8] = [], onceMatte: [UInt8] = []
    var frame: [UInt8] = [], frameMatte: [UInt8] = [], marked = 0
    let count = renderer.timing.frameCount
    for k in stride(from: 0, to: count, by: max(1, count / frames)) {
        var fresh = ColorCache()
        renderer.render(frame: k, into: &once, matte: &onceMatte, cache: &kept)
        renderer.render(frame: k, into: &frame, matte: &frameMatte, cache: &fresh)
        #expect(once == frame && onceMatte == frameMatte, "\(what) frame \(k)")
        marked += frameMatte.reduce(0) { $0 + Int($1) }
    }
    return marked
}

@Suite struct RiderFastPathTests {
    static func scenes() throws -> [(String, WaveConfig, LoopPlan)] {
        // boat's canvas, water and rider placement, with the test image (WaveKit decodes no PNG).
        let boat = try PresetLoader(imageDecoder: { _ in testRiderImage() }).load("boat")
        let (config, plan) = try riderScene(tilt: 0.7)
        return [("boat", boat, try LoopPlanner.plan(boat)), ("test", config, plan)]
    }

    static func same(_ a: PremultipliedColor, _ b: PremultipliedColor) -> Bool {
        a.r.bitPattern == b.r.bitPattern && a.g.bitPattern == b.g.bitPattern
            && a.b.bitPattern == b.b.bitPattern && a.a.bitPattern == b.a.bitPattern
    }

    /// `sample` (SIMD lanes, raw buffers) equals `referenceSample` (one tap at a time), including
    /// pixels whose taps fall off the image.
    @Test func sampleEqualsTheReference() throws {
        for (name, config, plan) in try RiderFastPathTests.scenes() {
            let scene = SceneRaster(config: config, plan: plan, label: nil)
            let rider = try #require(scene.rider)
            let count = plan.timing(for: .gif).frameCount
            var compared = 0, showing = 0, uniform = 0
            for k in stride(from: 0, to: count, by: max(1, count / 12)) {
                let p = try #require(scene.frame(k, of: count).placement)
                for y in max(0, p.rows.lowerBound - 2)..<min(config.height, p.rows.upperBound + 2) {
                    for x in max(0, p.columns.lowerBound - 2)..<min(config.width, p.columns.upperBound + 2) {
                        let fast = rider.sample(x, y, p), slow = rider.referenceSample(x, y, p)
                        #expect(RiderFastPathTests.same(fast, slow), "\(name) frame \(k) (\(x), \(y)): \(fast) vs \(slow)")
                        compared += 1
                        if slow.a > 0 { showing += 1 }
                        if rider.uniformPixel(x, y, p) != nil { uniform += 1 }
                    }
                }
            }
            #expect(showing > 100 && showing < compared, "\(name): \(showing) of \(compared) pixels show the rider")
            if name == "boat" { #expect(uniform > 0, "boat: no pixel took the uniform shortcut") }
        }
    }

    /// The palette's overlay colors (probed frames on the cores, samples skipped where the rider
    /// cannot reach and reused for the pixel's color) equal the plain one-frame-at-a-time form, bit
    /// for bit and in order: boat, the test scene, and a rider with a label in every direction.
    @Test func overlayColorsEqualTheReference() throws {
        var scenes = try RiderFastPathTests.scenes().map { ($0.0, SceneRaster(config: $0.1, plan: $0.2, label: nil), $0.2) }
        for (name, json) in directionScenes {
            let (config, plan, label) = try directionScene(name, json)
            scenes.append((name, SceneRaster(config: config, plan: plan, label: label), plan))
        }
        var labelled = 0
        for (name, scene, plan) in scenes {
            let count = plan.timing(for: .gif).frameCount
            let fast = scene.overlayColors(frames: count), slow = scene.referenceOverlayColors(frames: count)
            #expect(fast.count == slow.count && zip(fast, slow).allSatisfy { RiderFastPathTests.same($0, $1) },
                    "\(name): \(fast.count) vs \(slow.count) colors")
            guard scene.rider != nil || scene.label != nil else { continue }
            #expect(slow.count > 50, "\(name): \(slow.count) colors")
            if scene.label != nil { labelled += 1 }
        }
        #expect(labelled >= 4)
    }

    /// A pixel's color under a rider with each layer set's composite remembered, and a pixel that no
    /// surface crosses taken as a whole, equal the plain integration over every sub-column.
    @Test func shortcutsEqualThePlainIntegration() throws {
        for (name, config, plan) in try RiderFastPathTests.scenes() {
            let scene = SceneRaster(config: config, plan: plan, label: nil)
            let count = plan.timing(for: .gif).frameCount
            var compared = 0
            for k in stride(from: 0, to: count, by: max(1, count / 8)) {
                let f = scene.frame(k, of: count)
                for (rows, columns) in scene.overlayAreas(f) {
                    for y in rows {
                        for x in scene.coverage.waterSpans[y].clamped(to: columns) where scene.onRider(x, y, f) {
                            let fast = scene.color(x, y, f), slow = scene.color(x, y, f, remember: false)
                            #expect(RiderFastPathTests.same(fast, slow), "\(name) frame \(k) (\(x), \(y))")
                            compared += 1
                        }
                    }
                }
            }
            #expect(compared > 100, "\(name): \(compared) pixels")
            // Every pixel of the water, rider or not, in a few frames.
            var whole = 0
            for k in stride(from: 0, to: count, by: max(1, count / 3)) {
                let f = scene.frame(k, of: count)
                for y in 0..<config.height {
                    for x in scene.coverage.waterSpans[y] where scene.coverage.water[y * config.width + x] > 0 {
                        #expect(RiderFastPathTests.same(scene.color(x, y, f), scene.color(x, y, f, remember: false)),
                                "\(name) frame \(k) (\(x), \(y))")
                        whole += 1
                    }
                }
            }
            #expect(whole > 1000, "\(name): \(whole) pixels")
        }
    }

    /// A labelled pixel that no surface crosses, taken as a whole (the water's flat color under the
    /// label, submerged wholly or not at all), equals the plain integration, bit for bit: every
    /// pixel under the label in frames across the loop of the label scenes of every direction.
    @Test func labelOverFlatWaterEqualsThePlainIntegration() throws {
        var scenes = 0
        for (name, json) in directionScenes {
            let (config, plan, label) = try directionScene(name, json)
            guard let label else { continue }
            let scene = SceneRaster(config: config, plan: plan, label: label)
            let count = plan.timing(for: .gif).frameCount
            var flat = 0, crossed = 0, submerged = 0
            for k in stride(from: 0, to: count, by: max(1, count / 12)) {
                let f = scene.frame(k, of: count)
                for (rows, columns) in scene.overlayAreas(f) {
                    for y in rows {
                        for x in scene.coverage.waterSpans[y].clamped(to: columns)
                        where scene.coverage.water[y * scene.coverage.width + x] > 0 {
                            let (cx, cy) = scene.canvas(x, y)
                            guard f.label?.covers(cx, cy) ?? false else { continue }
                            let fast = scene.color(x, y, f), slow = scene.color(x, y, f, remember: false)
                            #expect(RiderFastPathTests.same(fast, slow), "\(name) frame \(k) (\(x), \(y)): \(fast) vs \(slow)")
                            let c = x - scene.waterColumns.lowerBound
                            let (mask, crossing) = f.samples.layers(column: c, top: Double(y), bottom: Double(y + 1))
                            guard scene.coverage.water[y * scene.coverage.width + x] == 1, !scene.onRider(x, y, f) else { continue }
                            if crossing == WaveModel.SurfaceSamples.noSurface {
                                flat += 1
                                if scene.model.includesFrontLayer(mask) { submerged += 1 }
                            } else {
                                crossed += 1
                            }
                        }
                    }
                }
            }
            // Both kinds of labelled pixel, and flat ones above and below the front surface.
            #expect(flat > 100 && crossed > 10 && submerged > 10 && submerged < flat,
                    "\(name): \(flat) flat (\(submerged) submerged), \(crossed) crossed")
            scenes += 1
        }
        #expect(scenes >= 4)
    }

    /// A label pixel over flat water drawn once per layer set and text and then reused
    /// (`ColorCache.labelDrawn`) equals drawing it in every frame: every frame of the labelled
    /// scenes of every direction rendered in order with one cache, against each frame with a fresh
    /// cache, indices and matte planes equal, over white, over transparency with dithered edges
    /// (the index depends on the pixel's place) and with matte marks (a lossy GIF), and with a
    /// percentage whose text, and so mask, changes along the loop.
    @Test func labelDrawnOnceEqualsDrawingEachFrame() throws {
        var scenes = 0
        for (name, json) in directionScenes where FillDirection(rawValue: name) != nil {
            for variant in ["white", "dither", "matte", "percent"] {
                var source = json
                switch variant {
                case "dither": source = source.replacingOccurrences(of: "\"background\": \"#FFFFFF\"",
                                                                        with: "\"background\": \"transparent\", \"gif\": {\"edges\": \"dither\"}")
                case "matte": source = source.replacingOccurrences(of: "\"background\": \"#FFFFFF\"",
                                                                       with: "\"background\": \"transparent\", \"gif\": {\"lossy\": 24}")
                default: break
                }
                var (config, plan) = try scene(source)
                var (texts, _) = try addTestRiderAndLabel(to: &config, plan: &plan, template: variant == "percent" ? "{percent}%" : "AB")
                if variant == "percent" {
                    let shown: Int
                    (texts, shown) = try labelWithAMaskPerText(texts, config, plan, shift: 3)
                    #expect(shown > 3, "\(name): \(shown) texts")
                }
                let renderer = FrameRenderer(config: config, plan: plan, format: .gif, label: texts)
                if variant == "matte" { #expect(renderer.marksMatte, "\(name): no matte plane") }
                let marked = expectKeptCacheDrawsAsFresh(renderer, frames: 20, "\(name) \(variant)")
                if variant == "matte" { #expect(marked > 0, "\(name): no pixel marked") }
                scenes += 1
            }
        }
        #expect(scenes == 16)
    }

    /// The same shortcuts in a scene with gradients (layers and background) that fills to the
    /// right: with each pixel's colors taken at its canvas pixel, as `GradientRaster` takes them,
    /// the remembered composites under the rider and the whole flat pixel equal the plain
    /// integration, bit for bit.
    @Test func gradientShortcutsEqualThePlainIntegration() throws {
        var (config, _) = try scene("""
            {"size": [64, 96], "background": "linear-gradient(90deg, #FFFFFF, #CFD8DC)", "direction": "right", "level": 0.45, "layers": [
              {"color": "linear-gradient(180deg, #81D4FA, #01579B 80%)", "amplitude": 0.12, "wavelength": 1, "speed": 1},
              {"color": "linear-gradient(to top right, rgba(255,0,0,0.6), #00F 60%, #0F0)", "opacity": 0.8, "amplitude": 0.08,
               "wavelength": 0.7, "phase": 0.3, "speed": -1}]}
            """)
        config.rider = Rider(image: testRiderImage(), width: 0.5 * config.box.height, x: 0.4, layer: 1, tilt: 0.7, sink: 2)
        let plan = try LoopPlanner.plan(config)
        let scene = SceneRaster(config: config, plan: plan, label: nil)
        let paint = ScenePaint(config: config)
        let count = plan.timing(for: .webp).frameCount
        let width = scene.coverage.width
        var underRider = 0, whole = 0, shades = Set<UInt64>()
        let storage = UnsafeMutableBufferPointer<PremultipliedColor>.allocate(capacity: paint.storageCount)
        defer { storage.deallocate() }
        for k in stride(from: 0, to: count, by: max(1, count / 4)) {
            let f = scene.frame(k, of: count)
            for y in 0..<scene.coverage.height {
                for x in scene.coverage.waterSpans[y] where scene.coverage.water[y * width + x] > 0 {
                    let local = GradientRaster.colors(paint, scene, x, y, in: storage)
                    let fast = scene.color(x, y, f, local: local), slow = scene.color(x, y, f, local: local, remember: false)
                    #expect(RiderFastPathTests.same(fast, slow), "frame \(k) (\(x), \(y))")
                    if scene.onRider(x, y, f) { underRider += 1 }
                    whole += 1
                    shades.insert(fast.r.bitPattern)
                }
            }
        }
        #expect(underRider > 100 && whole > 5000, "\(underRider) rider pixels of \(whole)")
        #expect(shades.count > 500, "the gradients vary over the water: \(shades.count) shades")
    }
}
