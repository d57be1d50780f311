import Testing
import WaveGIF
import WaveKit
import WaveRender
import WaveTestSupport

/// The renderer's exact frames for a GIF: palette indices, the RGBA a browser shows for them, and
/// the matte planes (empty when the renderer marks none).
private struct ExactFrames {
    var indices: [[UInt8]] = []
    var rgba: [[UInt8]] = []
    var matte: [[UInt8]] = []
    /// The page color marked pixels are judged on.
    var page: RGBA
}

private func exactGIFFrames(_ animation: Animation) -> ExactFrames {
    // With a lossy bound set, so that the renderer draws the matte plane (the indices do not depend on it).
    var config = animation.config
    config.gif.lossy = max(1, config.gif.lossy)
    let renderer = FrameRenderer(config: config, plan: animation.plan, format: .gif, label: animation.label)
    var cache = ColorCache()
    var exact = ExactFrames(page: animation.config.gif.matte)
    for k in 0..<renderer.timing.frameCount {
        var frame: [UInt8] = [], expanded: [UInt8] = [], matte: [UInt8] = []
        renderer.render(frame: k, into: &frame, matte: &matte, cache: &cache)
        renderer.palette.expand(frame, into: &expanded)
        // GIF shows a color opaque or, at the transparent index, not at all.
        for p in 0..<frame.count {
            if Int(frame[p]) == renderer.palette.transparentIndex {
                for c in 0..<4 { expanded[p * 4 + c] = 0 }
            } else {
                expanded[p * 4 + 3] = 255
            }
        }
        exact.indices.append(frame)
        exact.rgba.append(expanded)
        exact.matte.append(matte)
    }
    return exact
}

/// The slow, plain check of the lossy bound: for every pixel of every frame, the largest channel
/// difference (premultiplied RGBA; GIF pixels are opaque or fully transparent, so that is the
/// straight difference, or 255 where transparency differs) between the decoded pixel and the exact
/// one; at most `bound`, and 0 where the pixel and its 4 neighbours (inside the frame) share an
/// index. A pixel the matte plane marks (blended against the matte) that is shown transparent is
/// judged on the matte page: its error is its color's distance from the matte; any other pixel
/// shown transparent that is not is an error. Returns the worst error seen, how many pixels
/// differ, and how many marked pixels are shown transparent.
private func checkBound(decoded: [[UInt8]], exact: ExactFrames, width: Int, height: Int,
                        bound: Int, _ what: String) -> (worst: Int, differing: Int, matteShown: Int) {
    #expect(decoded.count == exact.rgba.count, "\(what): \(decoded.count) frames decoded, \(exact.rgba.count) rendered")
    var worst = 0, differing = 0, reported = 0, matteShown = 0
    let page = [Int(exact.page.r), Int(exact.page.g), Int(exact.page.b)]
    for k in 0..<min(decoded.count, exact.rgba.count) {
        let indices = exact.indices[k], truth = exact.rgba[k], shown = decoded[k], matte = exact.matte[k]
        for y in 0..<height {
            for x in 0..<width {
                let p = y * width + x
                var error = 0
                if shown[p * 4 + 3] == 0 && truth[p * 4 + 3] == 255 {
                    if !matte.isEmpty && matte[p] != 0 {
                        matteShown += 1
                        for c in 0..<3 { error = max(error, abs(page[c] - Int(truth[p * 4 + c]))) }
                    } else {
                        error = 255
                        if reported < 5 {
                            reported += 1
                            Issue.record("\(what): frame \(k) pixel \(x),\(y) is shown transparent but not blended against the matte")
                        }
                    }
                } else {
                    error = channelError(shown, truth, p)
                }
                guard error > 0 else { continue }
                differing += 1
                worst = max(worst, error)
                let flat = isFlat(indices, p, width: width)
                if (flat || error > bound) && reported < 5 {
                    reported += 1
                    Issue.record("\(what): frame \(k) pixel \(x),\(y) is off by \(error)\(flat ? " but flat" : ", bound \(bound)")")
                }
            }
        }
    }
    return (worst, differing, matteShown)
}

@Suite struct GIFLossyTests {
    /// Scenes the bound is checked on: opaque, transparent (with a label), and a large one.
    static let scenes: [(name: String, sets: [String], size: Int)] = [
        ("classic", [], 64),
        ("orb", [], 64),
        ("classic", ["size=[800,200]", "fps=10"], 0),
    ]

    private func animation(_ scene: (name: String, sets: [String], size: Int), lossy: Int) throws -> Animation {
        if scene.size > 0 { return try smallAnimation(scene.name, scene.sets + ["gif.lossy=\(lossy)"], size: scene.size) }
        let pipeline = RenderPipeline()
        let overrides = try (scene.sets + ["gif.lossy=\(lossy)"]).map { try #require(PresetOverride(parsing: $0)) }
        let config = try pipeline.load(scene.name, overrides: overrides)
        return try pipeline.prepare(config, plan: try pipeline.plan(config))
    }

    /// Every pixel of every frame stays within the bound, flat pixels exact; larger bounds give
    /// smaller files than exact coding; the same input gives the same bytes.
    @Test(arguments: 0..<3)
    func everyPixelKeepsTheBound(_ sceneIndex: Int) throws {
        let scene = GIFLossyTests.scenes[sceneIndex]
        let exactAnimation = try animation(scene, lossy: 0)
        let exact = exactGIFFrames(exactAnimation)
        let lossless = try RenderPipeline().write(exactAnimation, to: [GIFWriter()])[0].bytes
        let width = exactAnimation.config.width, height = exactAnimation.config.height
        var sizes: [Int] = []
        for bound in [4, 32, 128] {
            let a = try animation(scene, lossy: bound)
            #expect(a.config.gif.lossy == bound)
            let bytes = try RenderPipeline().write(a, to: [OutputFormat.gif.writer(for: a.config)])[0].bytes
            let decoded = try GIFDecoder.decode(bytes)
            let what = "\(scene.name) \(width)×\(height) lossy \(bound)"
            let (worst, differing, matteShown) = checkBound(decoded: decoded.frames, exact: exact, width: width, height: height,
                                                            bound: bound, what)
            #expect(differing > 0, "\(what): no pixel was approximated")
            // The transparent scene with matte edges uses the matte; the opaque ones have none.
            #expect((matteShown > 0) == (scene.name == "orb"), "\(what): \(matteShown) pixels show the matte")
            #expect(worst <= bound)
            #expect(bytes.count < lossless.count, "\(what): \(bytes.count) bytes, exact \(lossless.count)")
            sizes.append(bytes.count)
            if bound == 32 {
                let again = try RenderPipeline(threads: 3).write(a, to: [OutputFormat.gif.writer(for: a.config)])[0].bytes
                #expect(again == bytes, "\(what): not deterministic")
            }
        }
        #expect(sizes == sizes.sorted(by: >), "\(scene.name): sizes do not shrink as the bound grows: \(sizes)")
    }

    /// `gif.lossy` 0 is the exact coder: the same bytes as a writer without the option.
    @Test func zeroIsExact() throws {
        let a = try smallAnimation("orb", ["gif.lossy=0"])
        let plain = try RenderPipeline().write(a, to: [GIFWriter()])[0].bytes
        let keyed = try RenderPipeline().write(a, to: [OutputFormat.gif.writer(for: a.config)])[0].bytes
        #expect(plain == keyed)
    }
}
