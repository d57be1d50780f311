import Foundation
import Testing
@testable import WaveKit
import WaveTestSupport

/// A random small preset: 1 to 5 layers with random amplitudes, wavelengths, phases, speeds,
/// offsets, opacities and colours with alpha; a still, ramping or tidal level; any shape, with or
/// without a border and gap; a transparent or opaque background; a short loop.
func randomPreset(_ g: inout SeededGenerator) -> String {
    func number(_ range: ClosedRange<Double>) -> String { String(format: "%.4f", Double.random(in: range, using: &g)) }
    func color(alpha: Bool) -> String {
        let bytes = (0..<(alpha ? 4 : 3)).map { _ in UInt8.random(in: 0...255, using: &g) }
        return "\"#" + bytes.map { String(format: "%02X", $0) }.joined() + "\""
    }
    let width = Int.random(in: 24...64, using: &g), height = Int.random(in: 24...64, using: &g)
    var fields = ["\"size\": [\(width), \(height)]", "\"fps\": 10", "\"duration\": \(Int.random(in: 1...2, using: &g))"]
    switch Int.random(in: 0..<4, using: &g) {
    case 0: fields.append("\"shape\": \"rect\"")
    case 1: fields.append("\"shape\": \"rounded\", \"cornerRadius\": \(number(0...0.5))")
    case 2: fields.append("\"shape\": \"circle\"")
    default: fields.append("\"shape\": \"triangle\"")
    }
    if Bool.random(using: &g) { fields.append("\"inset\": \(number(0...0.1))") }
    if Bool.random(using: &g) {
        fields.append("\"border\": {\"width\": \"\(number(1...4))px\", \"gap\": \"\(number(0...3))px\", \"color\": \(color(alpha: true))}")
    }
    fields.append("\"background\": " + (Bool.random(using: &g) ? "\"transparent\"" : color(alpha: false)))
    switch Int.random(in: 0..<3, using: &g) {
    case 0: fields.append("\"level\": \(number(0.1...0.9))")
    case 1:
        let ease = Bool.random(using: &g) ? "linear" : "easeInOut"
        fields.append("\"level\": {\"from\": \(number(0...1)), \"to\": \(number(0...1)), \"ease\": \"\(ease)\", \"pingpong\": \(Bool.random(using: &g))}")
    default: fields.append("\"level\": {\"base\": \(number(0.3...0.7)), \"tide\": \(number(0...0.3))}")
    }
    let layers = (0..<Int.random(in: 1...5, using: &g)).map { _ in
        "{\"color\": \(color(alpha: true)), \"opacity\": \(number(0.2...1)), \"amplitude\": \(number(0...0.25)), "
            + "\"wavelength\": \(number(0.2...2)), \"phase\": \(number(-1...1)), \"speed\": \(number(-2...2)), \"offset\": \(number(-0.2...0.2))}"
    }
    fields.append("\"layers\": [\(layers.joined(separator: ", "))]")
    let edges = ["matte", "cut", "dither"][Int.random(in: 0..<3, using: &g)]
    fields.append("\"gif\": {\"edges\": \"\(edges)\", \"matte\": \(color(alpha: false))}")
    return "{" + fields.joined(separator: ", ") + "}"
}

@Suite struct WaveModelTests {
    @Test(arguments: rasterScenes)
    func theLoopCloses(name: String, json: String) throws {
        let (config, plan) = try scene(json)
        let model = WaveModel(config: config, plan: plan)
        let count = plan.frameCount
        let first = model.surfaces(frame: 0, of: count), wrapped = model.surfaces(frame: count, of: count)
        for i in 0..<model.layerCount {
            for x in stride(from: config.box.x, through: config.box.maxX, by: 0.37) {
                #expect(abs(first.surface(layer: i, atX: x) - wrapped.surface(layer: i, atX: x)) < 1e-9, "\(name) layer \(i) x \(x)")
            }
        }
    }

    @Test(arguments: rasterScenes)
    func slopeIsTheSurfacesDerivative(name: String, json: String) throws {
        let (config, plan) = try scene(json)
        let model = WaveModel(config: config, plan: plan)
        let surfaces = model.surfaces(frame: plan.frameCount / 3, of: plan.frameCount)
        let h = 1e-5
        for i in 0..<model.layerCount {
            for x in stride(from: config.box.x, through: config.box.maxX, by: 1.3) {
                let difference = (surfaces.surface(layer: i, atX: x + h) - surfaces.surface(layer: i, atX: x - h)) / (2 * h)
                #expect(abs(surfaces.slope(layer: i, atX: x) - difference) < 1e-6, "\(name) layer \(i) x \(x)")
            }
        }
    }

    @Test(arguments: rasterScenes)
    func surfaceFollowsTheWrittenEquation(name: String, json: String) throws {
        let (config, plan) = try scene(json)
        let model = WaveModel(config: config, plan: plan)
        let count = plan.frameCount
        for frame in [0, count / 2, count - 1] {
            let surfaces = model.surfaces(frame: frame, of: count)
            let u = Double(frame) / Double(count)
            let y0 = config.box.y + config.box.height * (1 - config.level.level(frame: frame, of: count))
            for (i, l) in config.layers.enumerated() {
                let x = config.box.midX
                let written = y0 + l.offset - l.amplitude * sin(2 * Double.pi * ((x - config.box.x) / l.wavelength + l.phase - Double(plan.layers[i].cycles) * u))
                #expect(abs(surfaces.surface(layer: i, atX: x) - written) < 1e-9, "\(name) frame \(frame) layer \(i)")
            }
        }
    }

    @Test(arguments: rasterScenes)
    func fastPathsStayOnTheSurface(name: String, json: String) throws {
        let (config, plan) = try scene(json)
        let model = WaveModel(config: config, plan: plan)
        let surfaces = model.surfaces(frame: 5, of: plan.frameCount)
        let columns = 0..<config.width, n = 16
        let samples = surfaces.sampleSubcolumns(columns: columns, subsamples: n)
        let centers = surfaces.pixelCenterHeights(columns: columns)
        for i in 0..<model.layerCount {
            for c in columns {
                #expect(abs(centers[c * model.layerCount + i] - surfaces.surface(layer: i, atX: Double(c) + 0.5)) < 1e-9)
                for s in 0..<n {
                    let x = Double(c) + (Double(s) + 0.5) / Double(n)
                    #expect(abs(samples.height(layer: i, column: c, subcolumn: s) - surfaces.surface(layer: i, atX: x)) < 1e-9)
                }
            }
        }
    }

    /// The sub-column heights taken four columns at a time on SIMD lanes equal the plain form's,
    /// bit for bit, with each column's extremes: every raster scene at several frames, and column
    /// ranges of every length mod 4 and offset (the last columns taken one at a time).
    @Test(arguments: rasterScenes)
    func laneSamplesEqualThePlainForm(name: String, json: String) throws {
        let (config, plan) = try scene(json)
        let model = WaveModel(config: config, plan: plan)
        for frame in [0, 3, plan.frameCount / 2, plan.frameCount - 1] {
            let surfaces = model.surfaces(frame: frame, of: plan.frameCount)
            for columns in [0..<config.width, 1..<config.width, 3..<(config.width - 2), 5..<7, 2..<3] where !columns.isEmpty {
                let fast = surfaces.sampleSubcolumns(columns: columns, subsamples: 16)
                let slow = surfaces.referenceSampleSubcolumns(columns: columns, subsamples: 16)
                #expect(fast.heights.map(\.bitPattern) == slow.heights.map(\.bitPattern), "\(name) frame \(frame) \(columns)")
                #expect(fast.minY.map(\.bitPattern) == slow.minY.map(\.bitPattern) && fast.maxY.map(\.bitPattern) == slow.maxY.map(\.bitPattern),
                        "\(name) frame \(frame) \(columns): extremes")
            }
        }
    }

    /// The part of a pixel below a surface, its sub-columns clamped on SIMD lanes, equals the plain
    /// form's bit for bit: every raster scene, every column and layer, pixel bottoms across each
    /// column's band and exactly at a sub-column's height and a pixel below it (clamped to 0 and 1).
    @Test(arguments: rasterScenes)
    func fractionBelowOnLanesIsThePlainForm(name: String, json: String) throws {
        let (config, plan) = try scene(json)
        let model = WaveModel(config: config, plan: plan)
        for frame in [0, plan.frameCount / 3, plan.frameCount - 1] {
            let samples = model.surfaces(frame: frame, of: plan.frameCount).sampleSubcolumns(columns: 0..<config.width, subsamples: 16)
            for layer in 0..<model.layerCount {
                for c in 0..<config.width {
                    let k = layer * config.width + c
                    var bottoms = stride(from: samples.minY[k].rounded(.down) - 1, through: samples.maxY[k].rounded(.up) + 2, by: 1).map { $0 }
                    bottoms += [samples.height(layer: layer, column: c, subcolumn: c % 16), samples.height(layer: layer, column: c, subcolumn: 15 - c % 16) + 1]
                    for bottom in bottoms {
                        let fast = samples.fractionBelow(layer: layer, column: c, bottom: bottom)
                        let plain = samples.plainFractionBelow(layer: layer, column: c, bottom: bottom)
                        #expect(fast.bitPattern == plain.bitPattern, "\(name) frame \(frame) layer \(layer) column \(c) bottom \(bottom)")
                    }
                }
            }
        }
    }

    @Test func compositeColorsAreTheLayersPaintedOneByOne() throws {
        var g = SeededGenerator(state: 7)
        for _ in 0..<20 {
            let (config, plan) = try scene(randomPreset(&g))
            let model = WaveModel(config: config, plan: plan)
            let background = PremultipliedColor(config.background)
            var all = background
            for mask in 0..<(1 << config.layers.count) {
                var painted = background
                for (i, layer) in config.layers.enumerated() where mask & (1 << i) != 0 {
                    painted = painted.under(PremultipliedColor(layer.color, opacity: layer.opacity), coverage: 1)
                }
                #expect(model.compositeColor(ofLayers: mask) == painted)
                all = painted
            }
            #expect(model.allLayersColor == all)
            let ring = config.border.map { background.under(PremultipliedColor($0.color), coverage: 1) } ?? background
            #expect(model.ringColor == ring)
        }
    }

    /// Palette discovery and the renderer agree on every flat region: wherever the model says a
    /// pixel lies wholly inside the water, off the border, with no surface crossing it, the rendered
    /// index is the one palette discovery gave that layer set, and its colour is the model's
    /// composite stored for the target.
    @Test func paletteDiscoveryAndRendererAgreeOnFlatRegions() throws {
        var g = SeededGenerator(state: 2024)
        var renders = 0, flatPixels = 0, layerSets = Set<Int>()
        for p in 0..<16 {
            let json = randomPreset(&g)
            let (config, plan) = try scene(json)
            let model = WaveModel(config: config, plan: plan)
            for format in [OutputFormat.gif, .webp] {
                let renderer = FrameRenderer(config: config, plan: plan, format: format)
                let (checked, failures) = checkFlatRegions(renderer, model)
                flatPixels += checked.pixels
                layerSets.formUnion(checked.layerSets.map { $0 | p << 8 })
                if !failures.isEmpty {
                    Issue.record("preset \(p) \(format): \(failures.count) pixels, first \(failures.prefix(3).joined(separator: "; "))\n\(json)")
                }
                renders += 1
            }
        }
        #expect(renders == 32)
        // The check saw plenty: many flat pixels, under many different layer sets.
        #expect(flatPixels > 200_000)
        #expect(layerSets.count > 80)
    }

    /// Renders every frame; returns how many flat pixels it checked under which layer sets, and a
    /// description of each flat pixel the renderer does not draw with palette discovery's index and
    /// the model's colour.
    func checkFlatRegions(_ renderer: FrameRenderer, _ model: WaveModel) -> (checked: (pixels: Int, layerSets: Set<Int>), failures: [String]) {
        let config = renderer.config, target = renderer.target, count = renderer.timing.frameCount
        let coverage = renderer.scene.coverage
        let n = SceneRaster.subsamples, margin = 1e-9
        var failures: [String] = []
        var pixels = 0, layerSets = Set<Int>()
        var frame: [UInt8] = []
        var cache = ColorCache()
        for k in 0..<count {
            renderer.render(frame: k, into: &frame, cache: &cache)
            let surfaces = model.surfaces(frame: k, of: count)
            // Each layer's highest and lowest point over each column's sub-columns.
            let extremes = (0..<model.layerCount).map { i in
                (0..<config.width).map { x in
                    let ys = (0..<n).map { surfaces.surface(layer: i, atX: Double(x) + (Double($0) + 0.5) / Double(n)) }
                    return (top: ys.min()!, bottom: ys.max()!)
                }
            }
            for y in 0..<config.height {
                pixels: for x in 0..<config.width {
                    let p = y * config.width + x
                    guard coverage.water[p] == 1, coverage.border[p] == 0 else { continue }
                    var mask = 0
                    for i in 0..<model.layerCount {
                        let (top, bottom) = extremes[i][x]
                        if bottom <= Double(y) - margin {
                            mask |= 1 << i
                        } else if top < Double(y + 1) + margin {
                            continue pixels
                        }
                    }
                    // The composite as the target stores it; the transparent index shows `.transparent`.
                    let composite = model.compositeColor(ofLayers: mask)
                    guard !target.dependsOnPosition(composite) else { continue }
                    pixels += 1
                    layerSets.insert(mask)
                    let discovered = renderer.flatLookup[mask]
                    let shown = frame[p]
                    if discovered < 0 || Int(shown) != Int(discovered) || renderer.palette.colors[Int(shown)] != (target.store(composite, x: x, y: y) ?? .transparent) {
                        failures.append("frame \(k) pixel \(x),\(y) layers \(mask): drawn \(shown), discovered \(discovered)")
                    }
                }
            }
        }
        return ((pixels, layerSets), failures)
    }
}
