import Foundation
import Testing
import WaveKit
import WaveAPNG
@testable import WaveRender

/// What the vector writers draw stays where the raster draws it: the level's keyframes, as a CSS
/// or Lottie player eases them, within `levelTolerance` of the level at every time, and the SVG's
/// surface lines, as written, within `surfaceTolerance` of the sine. Both are checked against slow
/// references written here, not with the writer's own measures.
@Suite struct VectorSceneTests {
    func scene(_ name: String, _ sets: [String] = []) throws -> VectorScene {
        let pipeline = RenderPipeline()
        let config = try pipeline.load(name, overrides: try sets.map { try #require(PresetOverride(parsing: $0)) })
        return VectorScene(config: config, plan: try pipeline.plan(config))
    }

    /// A cubic-bezier() timing function at input progress p, from a table of 20,001 points of the
    /// curve and straight lines between them (no root finding).
    static func slowTiming(_ e: VectorScene.Easing, _ p: Double) -> Double {
        var previous = (x: 0.0, y: 0.0)
        for i in 1...20_000 {
            let t = Double(i) / 20_000, m = 1 - t
            let x = 3 * m * m * t * e.x1 + 3 * m * t * t * e.x2 + t * t * t
            let y = 3 * m * m * t * e.y1 + 3 * m * t * t * e.y2 + t * t * t
            if x >= p {
                return x > previous.x ? previous.y + (y - previous.y) * (p - previous.x) / (x - previous.x) : y
            }
            previous = (x, y)
        }
        return 1
    }

    /// The offset keyframes give at loop fraction u, as a player computes it.
    static func played(_ keys: [VectorScene.Keyframe], at u: Double) -> Double {
        guard let i = keys.lastIndex(where: { $0.u <= u }), i + 1 < keys.count else { return keys.last!.value }
        let a = keys[i], b = keys[i + 1]
        let p = (u - a.u) / (b.u - a.u)
        return a.value + (b.value - a.value) * (a.easing.map { slowTiming($0, p) } ?? p)
    }

    @Test(arguments: [
        ("spinner", [String]()), ("progress-bar", []), ("classic", ["level={\"from\":0.2,\"to\":0.8,\"ease\":\"easeInOut\"}"]),
        ("classic", ["level={\"base\":0.5,\"tide\":0.3}"]), ("classic", ["level={\"from\":0.1,\"to\":0.9,\"ease\":\"easeInOut\",\"pingpong\":true}"]),
        ("classic", ["size=[1600,1600]", "level={\"base\":0.5,\"tide\":0.45}"]), ("spinner", ["level={\"from\":0.3,\"to\":0.7}"]),
    ])
    func levelKeyframesStayWithinTolerance(_ name: String, _ sets: [String]) throws {
        let scene = try scene(name, sets)
        let keys = try #require(scene.levelKeyframes())
        var worst = 0.0
        for i in 0...2000 {
            let u = Double(i) / 2000
            worst = max(worst, abs(VectorSceneTests.played(keys, at: u) - scene.levelOffset(u)))
        }
        #expect(worst <= VectorScene.levelTolerance, "\(name) \(sets): \(worst) px")
        let n = scene.plan.frameCount
        for k in 0...n {
            #expect(abs(VectorSceneTests.played(keys, at: Double(k) / Double(n)) - scene.levelOffset(Double(k) / Double(n))) <= VectorScene.levelTolerance)
        }
    }

    /// The tide is four eased keyframes on the bundled spinner (its easings are within 0.0003 of
    /// the sine, 0.003 px here); on a 1600 px canvas that would stray over the tolerance, so it
    /// gets a keyframe at every planned frame or finer.
    @Test func tideIsFourEasedKeyframesWhereThatIsCloseEnough() throws {
        let small = try #require(try scene("spinner").levelKeyframes())
        #expect(small.map(\.u) == [0, 0.25, 0.75, 1])
        #expect(small.dropLast().allSatisfy { $0.easing != nil })
        let large = try scene("spinner", ["size=[1600,1600]", "level={\"base\":0.5,\"tide\":0.45}"])
        let keys = try #require(large.levelKeyframes())
        #expect(keys.count >= large.plan.frameCount + 1 && keys.allSatisfy { $0.easing == nil })
    }

    /// Every bundled preset's SVG surfaces, as written with 2 decimals, lie within 0.02 px of the
    /// sine (sampled every 1/64 px), start and end a pixel beyond the box (along the front) and its drift, and take
    /// fewer vertices than chords on the sine would.
    @Test(arguments: ["boat", "classic", "dark", "drop", "gradient-drop", "heart", "orb", "progress-bar", "progress-bar-horizontal", "spinner"])
    func svgSurfaceLinesStayWithinTolerance(_ name: String) throws {
        let scene = try scene(name)
        let surfaces = scene.model.surfaces(frame: 0, of: scene.plan.frameCount)
        for i in scene.config.layers.indices {
            let shift = Double(scene.plan.layers[i].cycles) * scene.config.layers[i].wavelength
            let (sine, vertices) = scene.surfaceLines(layer: i, surfaces: surfaces, shift: shift)
            let (_, traced) = SVGDocument.surfacePath(vertices, bottom: 100, decimals: 2)
            var worst = 0.0
            for (p, q) in zip(traced, traced.dropFirst()) {
                var x = p.x
                while x <= q.x {
                    let y = p.y + (q.y - p.y) * (x - p.x) / (q.x - p.x)
                    worst = max(worst, abs(y - sine.height(atX: x)))
                    x += 1.0 / 64
                }
            }
            #expect(worst <= VectorScene.surfaceTolerance, "\(name) layer \(i): \(worst) px")
            #expect(traced.first!.x <= scene.model.waveBox.x - max(0, shift) - 1)
            #expect(traced.last!.x >= scene.model.waveBox.maxX - min(0, shift) + 1 - 0.005)
            // Chords within the tolerance are at most sqrt(8 tol / curvature) long at the crests.
            let k = sine.amplitude * pow(2 * Double.pi / sine.wavelength, 2)
            let span = traced.last!.x - traced.first!.x
            #expect(Double(traced.count - 1) < span / (8 * VectorScene.lineTolerance / k).squareRoot())
        }
    }

    /// The SVG's motion is a composited `transform` exactly where Chromium draws it in place and
    /// cheaper (a still level, water that fills the canvas, no label or gradient layer: boat and
    /// classic), the `translate` property elsewhere; either way each drift moves its layer by one
    /// wavelength or by the layer's cycles per loop times it, in the planned direction.
    @Test(arguments: [("boat", true), ("classic", true), ("dark", false), ("drop", false), ("gradient-drop", false),
                      ("heart", false), ("orb", false), ("progress-bar", false), ("spinner", false)])
    func svgMotionIsCompositedOnlyWhereChromiumDrawsItInPlace(_ name: String, _ composited: Bool) throws {
        let animation = try smallAnimation(name, [], size: 64)
        let svg = String(decoding: try RenderPipeline().write(animation, to: [SVGWriter()])[0].bytes, as: UTF8.self)
        let style = String(svg[svg.range(of: "<style>")!.upperBound..<svg.range(of: "</style>")!.lowerBound])
        #expect(style.contains("transform:translate") == composited, "\(name)")
        let pattern = try Regex(#"@keyframes w[0-9a-f]+d\d+\{to\{(?:transform:translateX\(|translate:)(-?[0-9.]+)px"#)
        var distances: [Double] = []
        for m in style.matches(of: pattern) { distances.append(Double(String(m.output[1].substring!))!) }
        #expect(!distances.isEmpty)
        let allowed = animation.config.layers.indices.flatMap { i -> [Double] in
            let cycles = Double(animation.plan.layers[i].cycles), wavelength = animation.config.layers[i].wavelength
            return cycles == 0 ? [] : [cycles > 0 ? wavelength : -wavelength, cycles * wavelength]
        }
        for d in distances { #expect(allowed.contains { abs($0 - d) <= 0.005 }, "\(name): drift \(d) px") }
    }
}

/// The rider PNGs kept by the process (`EncodedStills`): a kept image gives the bytes a fresh
/// encode gives, another image is encoded anew (no stale hit), and the oldest is let go.
@Suite struct EncodedStillsTests {
    static func image(_ seed: UInt8, width: Int = 23, height: Int = 17) -> RiderImage {
        RiderImage(width: width, height: height, rgba: (0..<(width * height * 4)).map { UInt8(truncatingIfNeeded: $0 * 7 + Int(seed) * 31) })
    }

    @Test func keptBytesAreAFreshEncodesAndAnotherImageIsNotAHit() throws {
        let stills = EncodedStills()
        let a = EncodedStillsTests.image(1), b = EncodedStillsTests.image(2)
        let fresh = try StillPNG.encode(rgba: a.rgba, width: a.width, height: a.height)
        #expect(try stills.png(a) == fresh)
        #expect(try stills.png(a) == fresh)
        let other = try stills.png(b)
        #expect(other == (try StillPNG.encode(rgba: b.rgba, width: b.width, height: b.height)) && other != fresh)
        // The same pixels at another size are another image.
        let wide = EncodedStillsTests.image(1, width: 17, height: 23)
        #expect(try stills.png(wide) != fresh)
        #expect(stills.count == 3)
        for seed in 3..<20 { _ = try stills.png(EncodedStillsTests.image(UInt8(seed))) }
        #expect(stills.count == EncodedStills.capacity)
        #expect(try stills.png(a) == fresh)
    }

    /// Boat's SVG and Lottie written twice in one process are the same files (the second time
    /// with the rider's PNG kept).
    @Test func vectorFilesWithAKeptRiderAreTheSame() throws {
        let pipeline = RenderPipeline()
        for format in [OutputFormat.svg, .lottie] {
            let first = try pipeline.render("boat", format: format)
            let second = try pipeline.render("boat", format: format)
            #expect(first == second, "\(format)")
        }
    }
}
