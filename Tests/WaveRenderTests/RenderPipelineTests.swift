import Testing
import WaveGIF
import WaveKit
import WavePNG
import WaveRender
import WaveTestSupport
import WaveWebP

/// A small bundled scene, loaded and prepared as the command line does it.
func smallAnimation(_ name: String, _ sets: [String] = [], size: Int = 40) throws -> Animation {
    let pipeline = RenderPipeline()
    let overrides = try (["size=[\(size),\(size)]"] + sets).map { try #require(PresetOverride(parsing: $0)) }
    let config = try pipeline.load(name, overrides: overrides)
    return try pipeline.prepare(config, plan: try pipeline.plan(config))
}

/// Every frame of the loop as the renderer draws it for `format`, expanded to straight RGBA.
func referenceFrames(_ animation: Animation, _ format: OutputFormat) -> (frames: [[UInt8]], timing: FrameTiming) {
    let renderer = FrameRenderer(config: animation.config, plan: animation.plan, format: format, label: animation.label)
    var cache = ColorCache()
    var frame: [UInt8] = [], rgba: [UInt8] = []
    let frames = (0..<renderer.timing.frameCount).map { k -> [UInt8] in
        renderer.render(frame: k, into: &frame, cache: &cache)
        renderer.palette.expand(frame, into: &rgba)
        return rgba
    }
    return (frames, renderer.timing)
}

@Suite struct RenderPipelineTests {
    /// The GIF a pipeline writes decodes (giflib) into exactly the renderer's frames, delays and loop count.
    @Test(arguments: ["classic", "orb", "spinner"])
    func gifDecodesToTheRenderersFrames(_ name: String) throws {
        let animation = try smallAnimation(name)
        let written = try RenderPipeline().write(animation, to: [OutputFormat.gif.writer(for: animation.config)])[0]
        let decoded = try GIFDecoder.decode(written.bytes)
        let (frames, timing) = referenceFrames(animation, .gif)
        #expect(written.timing == timing)
        #expect(decoded.delays == timing.delays)
        #expect(decoded.loops == animation.config.loops)
        #expect(decoded.frames.count == frames.count)
        for k in 0..<min(frames.count, decoded.frames.count) {
            #expect(decoded.frames[k] == frames[k], "frame \(k): \(firstDifference(decoded.frames[k], frames[k], width: 40) ?? "")")
        }
    }

    @Test(arguments: ["classic", "orb"])
    func webpDecodesToTheRenderersFrames(_ name: String) throws {
        let animation = try smallAnimation(name)
        let written = try RenderPipeline().write(animation, to: [OutputFormat.webp.writer(for: animation.config)])[0]
        let decoded = try WebPAnimationDecoder.decode(written.bytes)
        let (frames, timing) = referenceFrames(animation, .webp)
        #expect(decoded.durations == timing.delays)
        #expect(decoded.frames == frames)
    }

    /// Writers asking for the same frames share one pass: PNG frames beside a GIF show the GIF's
    /// pixels, beside a WebP the WebP's, and the main file is the same as when written alone.
    @Test(arguments: OutputFormat.allCases)
    func pngFramesShareTheMainOutputsFrames(_ format: OutputFormat) throws {
        let animation = try smallAnimation("orb")
        var pngs: [Int: [UInt8]] = [:]
        let frameWriter = PNGFrameWriter(format: format) { (k: Int, png: [UInt8]) throws(WaveError) in pngs[k] = png }
        let both = try RenderPipeline().write(animation, to: [format.writer(for: animation.config), frameWriter])
        let alone = try RenderPipeline().write(animation, to: [format.writer(for: animation.config)])[0]
        #expect(both[0].bytes == alone.bytes)
        #expect(both[1].bytes.isEmpty)
        let (frames, _) = referenceFrames(animation, format)
        #expect(pngs.count == frames.count)
        for (k, png) in pngs {
            let image = try PNGImage(decoding: png, maximumPixels: 1 << 20)
            #expect(image.rgba == frames[k], "frame \(k)")
        }
    }

    /// Every format has a writer, and a raster writer asks for its own format's frames.
    @Test(arguments: OutputFormat.allCases)
    func everyFormatHasAWriter(_ format: OutputFormat) throws {
        let animation = try smallAnimation("spinner")
        let writer = format.writer(for: animation.config)
        switch writer.frames {
        case let .raster(f): #expect(f == format)
        case .none: break
        }
        #expect(!(try RenderPipeline().write(animation, to: [writer])[0].bytes.isEmpty))
    }

    /// The bytes never depend on the number of threads drawing the frames.
    @Test func threadsDoNotChangeTheBytes() throws {
        let one = try RenderPipeline(threads: 1).render("classic", format: .gif)
        let three = try RenderPipeline(threads: 3).render("classic", format: .gif)
        #expect(one == three)
    }

    @Test func failuresSayWhatKind() {
        #expect(throws: WaveError(DocumentProblem(file: "no-such-preset", message: "no such file and no bundled preset of that name (bundled: boat, classic, dark, drop, gradient-drop, heart, orb, progress-bar, progress-bar-horizontal, spinner)", kind: .missingInput))) {
            _ = try RenderPipeline().load("no-such-preset")
        }
        do {
            _ = try RenderPipeline().load("classic", overrides: [#require(PresetOverride(parsing: "fps=0"))])
            Issue.record("fps 0 loaded")
        } catch let e as WaveError {
            #expect(e.kind == .invalidInput)
        } catch {
            Issue.record("\(error)")
        }
        do {
            let config = try RenderPipeline().load("classic", overrides: [#require(PresetOverride(parsing: "duration=0.5")),
                                                                          #require(PresetOverride(parsing: "maxFrames=8"))])
            _ = try RenderPipeline().plan(config, strict: true)
            Issue.record("a 0.5 s loop in 8 frames at 50 fps planned")
        } catch let e as WaveError {
            #expect(e.kind == .invalidInput)
            #expect(e.lines.first?.hasPrefix("classic: error: ") == true, "\(e.lines)")
            #expect(e.problems.allSatisfy { $0.isInDocument })
        } catch {
            Issue.record("\(error)")
        }
    }
}
