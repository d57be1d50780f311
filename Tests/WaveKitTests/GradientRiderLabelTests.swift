import Foundation
import Testing
@testable import WaveKit

/// A rider and a `{percent}` label over gradient water, upright and in a bar that fills to the
/// right: the true-color frames (WebP, APNG) and a GIF's drawn frames (on its white matte) against the point-sampled
/// reference, which takes each gradient at the pixel and draws the rider and the label itself.
@Suite struct GradientRiderLabelTests {
    static let scenes: [(String, String)] = [
        ("drop up", """
            {"size": [80, 96], "shape": "drop", "inset": "3px", "background": "transparent", "level": 0.45,
             "border": {"width": "3px", "color": "#0277BD", "gap": "2px"}, "layers": [
              {"color": "linear-gradient(180deg, #E1F5FE, #81D4FA 80%)", "opacity": 0.9, "amplitude": 0.05, "wavelength": 1, "speed": -0.5},
              {"color": "linear-gradient(170deg, #4FC3F7, #01579B 80%)", "amplitude": 0.04, "wavelength": 0.8, "phase": 0.25, "speed": 1}]}
            """),
        ("bar right", """
            {"size": [112, 48], "shape": "rounded", "cornerRadius": 0.3, "direction": "right", "level": 0.55,
             "background": "linear-gradient(to right, #FFFFFF, #FFE0B2)", "layers": [
              {"color": "linear-gradient(180deg, #B3E5FC, #01579B)", "opacity": 0.7, "amplitude": 0.06, "wavelength": 1, "speed": 1},
              {"color": "linear-gradient(to top right, #E1F5FE, #0277BD 50%, #1A237E)", "amplitude": 0.05, "wavelength": 0.7, "phase": 0.2, "speed": -1}]}
            """),
    ]

    /// The scene with a rider on the front layer and a `{percent}%` label (a 30 × 14 block mask of
    /// varied coverage with an outline, as DirectionTests uses) across the front.
    func withRiderAndLabel(_ json: String) throws -> (WaveConfig, LoopPlan, LabelTexts, String) {
        var (config, plan) = try scene(json)
        let (label, text) = try addTestRiderAndLabel(to: &config, plan: &plan, template: "{percent}%")
        return (config, plan, label, text)
    }

    /// Premultiplied colours as shown on white.
    func onWhite(_ c: [PremultipliedColor]) -> [PremultipliedColor] {
        c.map { PremultipliedColor(r: $0.r + 1 - $0.a, g: $0.g + 1 - $0.a, b: $0.b + 1 - $0.a, a: 1) }
    }

    /// ≥ 38 dB, the floor RiderTests and DirectionTests hold a rider and a label to, for the
    /// true-color frames and for the GIF's; and the rider and label are there to be measured: the
    /// same scene drawn without them scores far lower against the reference.
    @Test(arguments: scenes)
    func matchesTheReferenceRenderer(name: String, json: String) throws {
        let (config, plan, label, text) = try withRiderAndLabel(json)
        #expect(text == (name == "drop up" ? "45%" : "55%"))
        let renderer = FrameRenderer(config: config, plan: plan, format: .webp, label: label)
        let gif = FrameRenderer(config: config, plan: plan, format: .gif, label: label)
        #expect(renderer.drawsTrueColor && !gif.drawsTrueColor)
        var bare = config
        bare.rider = nil
        bare.label = nil
        let plain = FrameRenderer(config: bare, plan: plan, format: .webp)
        let reference = ReferenceRenderer(config: config, plan: plan, samples: 89, label: label, riderAsStored: true)
        var cache = ColorCache(), gifCache = ColorCache(), plainCache = ColorCache()
        var frame: [UInt8] = [], indices: [UInt8] = []
        let count = renderer.timing.frameCount
        func premultiplied(_ rgba: [UInt8]) -> [PremultipliedColor] {
            stride(from: 0, to: rgba.count, by: 4).map { PremultipliedColor(RGBA(rgba[$0], rgba[$0 + 1], rgba[$0 + 2], rgba[$0 + 3])) }
        }
        for k in [0, count / 2] {
            let truth = reference.render(frame: k, of: count)
            renderer.render(frame: k, into: &frame, cache: &cache)
            let db = psnr(premultiplied(frame), truth)
            #expect(db >= 38, "\(name) frame \(k): true color, PSNR \(db) dB")
            plain.render(frame: k, into: &frame, cache: &plainCache)
            let without = psnr(premultiplied(frame), truth)
            #expect(without < db - 10, "\(name) frame \(k): without the rider and label \(without) dB, with them \(db) dB")
            guard gif.timing.frameCount == count else { continue }
            // A GIF blends partly covered pixels over a transparent background with its matte
            // (white): both are compared as shown on that page.
            gif.render(frame: k, into: &indices, cache: &gifCache)
            let gifDB = psnr(onWhite(colors(indices, gif.palette)), onWhite(truth))
            #expect(gifDB >= 38, "\(name) frame \(k): GIF, PSNR \(gifDB) dB")
        }
    }
}
