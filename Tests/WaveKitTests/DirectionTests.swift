import Foundation
import Testing
@testable import WaveKit

/// Scenes that fill toward each side, each with a rider and a label across the front.
let directionScenes: [(String, String)] = FillDirection.allCases.map { direction in
    (direction.rawValue, """
        {"size": [\(direction.sideways ? "112, 48" : "64, 80")], "shape": "rounded", "cornerRadius": 0.3, "background": "#FFFFFF",
         "border": {"width": "2px", "color": "#37474F", "gap": "1px"}, "direction": "\(direction.rawValue)",
         "level": {"base": 0.5, "tide": 0.15}, "layers": [
          {"color": "#81D4FA", "opacity": 0.7, "amplitude": 0.06, "wavelength": 1, "phase": 0.2, "speed": 1},
          {"color": "#0288D1", "amplitude": 0.05, "wavelength": 0.7, "speed": -1}]}
        """)
} + [
    ("triangle right", """
        {"size": [72, 56], "shape": "triangle", "direction": "right", "background": "#202020", "level": {"from": 0.2, "to": 0.8, "pingpong": true},
         "layers": [{"color": "#00E5FF", "amplitude": 0.05, "speed": 0.5}, {"color": "#00B8D4", "opacity": 0.5, "amplitude": 0.07, "phase": 0.5, "speed": 1}]}
        """),
    ("heart left", """
        {"size": [64, 60], "shape": "heart", "inset": 0.05, "direction": "left", "background": "transparent",
         "border": {"width": "3px", "color": "#C2185B", "gap": "2px"}, "level": {"base": 0.5, "tide": 0.2}, "layers": [
          {"color": "#F48FB1", "opacity": 0.7, "amplitude": 0.07, "wavelength": 1, "speed": -1},
          {"color": "#E91E63", "amplitude": 0.05, "wavelength": 0.7, "phase": 0.3, "speed": 1, "offset": 0.1}]}
        """),
    ("orb down", """
        {"size": [64, 64], "shape": "circle", "inset": 0.05, "direction": "down", "background": "transparent",
         "border": {"width": "3px", "color": "#1E88E5", "gap": "2px"}, "level": 0.5, "layers": [
          {"color": "#64B5F6", "opacity": 0.6, "amplitude": 0.06, "wavelength": 1, "speed": 1},
          {"color": "#1E88E5", "amplitude": 0.06, "wavelength": 0.8, "phase": 0.3, "speed": -1.25}]}
        """),
]

/// A scene of `directionScenes` with, for the first four, a rider on the front layer and a block
/// label (a 30 × 14 mask of varied coverage, with an outline) across the front.
func directionScene(_ name: String, _ json: String) throws -> (WaveConfig, LoopPlan, LabelTexts?) {
    var (config, plan) = try scene(json)
    guard FillDirection(rawValue: name) != nil else { return (config, plan, nil) }
    let (label, _) = try addTestRiderAndLabel(to: &config, plan: &plan, template: "AB")
    return (config, plan, label)
}

/// Puts the test rider on layer 1 (0.4 of the front wide) and a label of `template` over
/// `config`, plans the loop again, and returns the label's coverage for the text its first frame
/// shows (a 30 × 14 block mask of varied coverage with an outline) and that text.
func addTestRiderAndLabel(to config: inout WaveConfig, plan: inout LoopPlan, template: String) throws -> (LabelTexts, String) {
    let front = config.direction.sideways ? config.box.height : config.box.width
    config.rider = Rider(image: testRiderImage(), width: 0.4 * front, x: 0.45, layer: 1, tilt: 0.8, sink: 2)
    let label = Label(template: template, size: 12, color: RGBA(0x0D, 0x47, 0xA1), colorOnWater: .white,
                      strokeWidth: 1, strokeColor: RGBA(0xFF, 0xC1, 0x07))
    config.label = label
    plan = try LoopPlanner.plan(config)
    let text = label.text(level: config.level.level(frame: 0, of: plan.frameCount))
    let w = 30, h = 14
    let fill = (0..<(w * h)).map { i -> Float in
        let u = i % w, v = i / w
        return u < 2 || u >= w - 2 || v < 2 || v >= h - 2 ? 0 : Float((u * 7 + v * 3) % 5) / 4
    }
    let stroke = (0..<(w * h)).map { i -> Float in
        let u = i % w, v = i / w
        return (u == 1 || u == w - 2 || v == 1 || v == h - 2) && u > 0 && v > 0 && u < w - 1 && v < h - 1 ? 0.75 : 0
    }
    let overlay = LabelOverlay(label: label, box: config.box, width: w, height: h, fill: fill, stroke: stroke)
    return (LabelTexts(label: label, level: config.level, overlays: [text: overlay]), text)
}

@Suite struct DirectionTests {
    /// Every direction, with a rider and a label, against the point-sampled reference (which maps
    /// each sample into the upward frame on its own, and draws the shape, rider and label on the
    /// canvas; the rider from its image as the rasterizer stores it), at three frames: the
    /// rasterizer's exact colours (before the palette) ≥ 50 dB; the
    /// drawn frame, whose rider and label colours share 48 palette entries, ≥ 38 dB as
    /// `RiderTests` holds an upward rider to, and ≥ 50 dB where there is neither.
    @Test(arguments: directionScenes)
    func matchesTheReferenceRenderer(name: String, json: String) throws {
        let (config, plan, label) = try directionScene(name, json)
        let renderer = FrameRenderer(config: config, plan: plan, format: .webp, label: label)
        let reference = ReferenceRenderer(config: config, plan: plan, label: label, riderAsStored: true)
        var cache = ColorCache()
        var frame: [UInt8] = []
        let count = renderer.timing.frameCount
        for k in [0, count / 3, count - 1] {
            renderer.render(frame: k, into: &frame, cache: &cache)
            let truth = reference.render(frame: k, of: count)
            let exact = psnr(exactColors(renderer, frame: k), truth)
            #expect(exact >= 50, "\(name) frame \(k): exact colours, PSNR \(exact) dB")
            let drawn = psnr(colors(frame, renderer.palette), truth)
            #expect(drawn >= (label == nil ? 50 : 38), "\(name) frame \(k): PSNR \(drawn) dB")
        }
    }

    /// The colour `SceneRaster` works out for every pixel of frame `k`, before the palette, laid out
    /// on the canvas.
    func exactColors(_ renderer: FrameRenderer, frame k: Int) -> [PremultipliedColor] {
        let scene = renderer.scene, model = scene.model
        let f = scene.frame(k, of: renderer.timing.frameCount)
        let w = scene.coverage.width, h = scene.coverage.height
        var out = [PremultipliedColor](repeating: .clear, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let p = y * w + x
                out[p] = scene.coverage.water[p] > 0 ? scene.color(x, y, f)
                    : model.background.mixed(with: model.ringColor, Double(scene.coverage.border[p]))
            }
        }
        return model.orientation.canvasPixels(out)
    }

    /// Frame N (one loop on) equals frame 0 in every format.
    @Test(arguments: directionScenes)
    func frameAfterTheLastEqualsTheFirst(name: String, json: String) throws {
        let (config, plan, label) = try directionScene(name, json)
        for format in OutputFormat.allCases {
            let renderer = FrameRenderer(config: config, plan: plan, format: format, label: label)
            var cache = ColorCache()
            var first: [UInt8] = [], wrapped: [UInt8] = []
            renderer.render(frame: 0, into: &first, cache: &cache)
            renderer.render(frame: renderer.timing.frameCount, into: &wrapped, cache: &cache)
            #expect(first == wrapped, "\(name) \(format)")
        }
    }

    /// `right` at level 0.37 fills 37 % of a rectangle's width: the mean column coverage (each
    /// pixel's share of the water colour) is 0.37 within 0.2 %, columns well left of the front are
    /// full and those well right of it empty, on every frame probed.
    @Test(arguments: [0, 5, 11])
    func rightFillsTheLevelOfTheWidth(frame: Int) throws {
        let (config, plan) = try scene("""
            {"size": [200, 40], "background": "#000000", "direction": "right", "level": 0.37, "layers": [
              {"color": "#FFFFFF", "amplitude": 0.1, "wavelength": 1, "speed": 1}]}
            """)
        let renderer = FrameRenderer(config: config, plan: plan, format: .webp)
        var cache = ColorCache()
        var out: [UInt8] = []
        renderer.render(frame: frame % renderer.timing.frameCount, into: &out, cache: &cache)
        let shown = colors(out, renderer.palette)
        var columns = [Double](repeating: 0, count: config.width)
        for y in 0..<config.height {
            for x in 0..<config.width { columns[x] += shown[y * config.width + x].r / Double(config.height) }
        }
        let mean = columns.reduce(0, +) / Double(config.width)
        #expect(abs(mean - 0.37) < 0.002, "mean column coverage \(mean)")
        let front = 0.37 * 200, reach = 0.1 * 200 + 1
        for x in 0..<config.width where Double(x + 1) < front - reach { #expect(columns[x] > 0.999, "column \(x): \(columns[x])") }
        for x in 0..<config.width where Double(x) > front + reach { #expect(columns[x] < 0.001, "column \(x): \(columns[x])") }
        #expect(columns[Int(front)] > 0.1 && columns[Int(front)] < 0.9)
    }

    /// `down` is `up` mirrored top to bottom, pixel for pixel, when the shape and box are
    /// symmetric about the canvas's middle row.
    @Test func downIsTheVerticalMirrorOfUp() throws {
        let json = """
            {"size": [80, 60], "shape": "rounded", "inset": "4px", "background": "#FFFFFF", "border": {"width": "2px", "color": "#333333"},
             "direction": "%@", "level": {"base": 0.45, "tide": 0.2}, "layers": [
              {"color": "#81D4FA", "opacity": 0.7, "amplitude": 0.08, "wavelength": 0.8, "phase": 0.2, "speed": 1},
              {"color": "#0288D1", "amplitude": 0.06, "wavelength": 1, "speed": -1}]}
            """
        let (up, plan) = try scene(json.replacingOccurrences(of: "%@", with: "up"))
        let (down, _) = try scene(json.replacingOccurrences(of: "%@", with: "down"))
        let a = FrameRenderer(config: up, plan: plan, format: .webp), b = FrameRenderer(config: down, plan: plan, format: .webp)
        var cache = ColorCache()
        var upFrame: [UInt8] = [], downFrame: [UInt8] = []
        for k in [0, 7, 19] {
            a.render(frame: k, into: &upFrame, cache: &cache)
            b.render(frame: k, into: &downFrame, cache: &cache)
            let upColors = colors(upFrame, a.palette), downColors = colors(downFrame, b.palette)
            var differing = 0
            for y in 0..<up.height {
                for x in 0..<up.width where upColors[y * up.width + x].straight != downColors[(up.height - 1 - y) * up.width + x].straight {
                    differing += 1
                }
            }
            #expect(differing == 0, "frame \(k): \(differing) pixels differ from the mirror")
            #expect(upColors != downColors)
        }
    }

    /// An unknown direction is refused with the key and the choices.
    @Test func unknownDirectionIsRefused() {
        guard case let .failure(error) = decode(##"{"direction": "sideways", "layers": [{"color": "#000000"}]}"##) else {
            Issue.record("decoded")
            return
        }
        #expect("\(error)".contains("direction") && "\(error)".contains("\"right\""), "\(error)")
    }
}
