import WavePlatform
import WaveGIF
import WaveKit
import WaveWebP

extension SizeFit {
    /// A cheap stand-in for a candidate's whole file, for searching: a few short windows of the
    /// loop, spread over it, encoded as one small file of the candidate's format and decoded.
    ///
    /// - Bytes: the windows' first frames are jumps, left out; the other frames' images give the
    ///   mean size of a frame after its predecessor, and the file is modelled as its header, the
    ///   loop's first image and that mean for every other frame of the candidate's loop. The model
    ///   is scaled so that it gives the preset as it is its true length (`anchor`).
    /// - Quality: each window's frames are compared, as a viewer sees them over the window's time,
    ///   with the full-quality file's frames at the full frame rate (the same timeline cut as
    ///   `DisplayedFrames.meanSquaredError`, every full-rate frame weighing the same).
    ///
    /// Every window starts on a frame that every frame-rate divisor divides, so a thinned loop's
    /// window shows the same moments. A prediction is only a guide: `SizeFit.run()` encodes the
    /// file it chooses whole, and keeps it only when that fits.
    struct Sample: Sendable {
        /// The full loop's frame count.
        let frameCount: Int
        /// The full-rate frame each window starts on.
        let starts: [Int]
        /// Frames of the candidate's loop in each window.
        let width: Int
        /// The largest frame-rate divisor: the reference's windows are `width` × this long.
        let longest: Int
        let page: RGBA?
        /// Per window, the full-quality file's frames at the full rate, `width` × `longest` of them.
        var reference: [[[UInt8]]] = []
        /// The true length of the preset's file over its modelled length.
        var anchor = 1.0
        /// The windows' frames drawn once per scene and shared by every candidate that differs
        /// only in its coder's settings (`gif.lossy`, lossy WebP quality).
        let drawn: Drawn
        /// What each setting of the knobs measured, shared by every search on this sample (the
        /// `gif.colors` search meets the first search's files wherever its table is the preset's).
        let measured = Measured()

        /// Windows of `width` frames, at most `count` of them, for a loop of `frameCount` frames
        /// whose frame rate may be divided by `divisors`; nil when they would cost more than
        /// a quarter of the loop to encode (a short loop: search the whole files instead).
        init?(frameCount: Int, divisors: [Int], page: RGBA?, count: Int = 4, width: Int = 3, palettes: Palettes = Palettes()) {
            func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
            let step = divisors.reduce(1) { $0 / gcd($0, $1) * $1 }
            let slots = frameCount / step
            let windows = min(count, slots)
            let longest = divisors.max() ?? 1
            guard windows >= 2, width >= 2, 4 * windows * width * longest <= 3 * frameCount, 4 * windows * width <= frameCount else { return nil }
            self.frameCount = frameCount
            self.starts = (0..<windows).map { $0 * slots / windows * step }
            self.width = width
            self.longest = longest
            self.page = page
            drawn = Drawn(palettes: palettes)
        }

        /// The full-rate frames the reference needs, in order (windows may overlap).
        var referenceFrames: [Int] {
            starts.flatMap { s in (0..<(width * longest)).map { (s + $0) % frameCount } }
        }

        /// The frames of a loop thinned by `divisor` that the windows show, in its own numbering.
        func frames(divisor: Int) -> [Int] {
            starts.flatMap { s in (0..<width).map { (s / divisor + $0) % (frameCount / divisor) } }
        }

        /// Renderers and drawn frames by scene: every knob but the coder's, and whether a lossy GIF
        /// coder asks for matte planes. Filled from several threads, each scene drawn once (a
        /// candidate asking for a scene another is drawing waits for it).
        final class Drawn: @unchecked Sendable {
            struct Key: Hashable {
                var edgeStep: Double
                var colors: Int
                var marks: Bool
                var frameCount: Int
                var frames: [Int]
            }
            struct Scene {
                var animation: Animation
                var raster: FrameRenderer
                var frames: [(indices: [UInt8], matte: [UInt8])]
            }
            private let scenes = OnceDictionary<Key, Scene>()
            /// The palettes, shared with the fit's whole files.
            let palettes: Palettes

            init(palettes: Palettes) {
                self.palettes = palettes
            }

            func scene(_ config: WaveConfig, _ plan: LoopPlan, frames: [Int], format: OutputFormat,
                       pipeline: RenderPipeline) throws(WaveError) -> Scene {
                let key = Key(edgeStep: config.edgeStep, colors: config.gif.colors, marks: format == .gif && config.gif.lossy > 0,
                              frameCount: plan.frameCount, frames: frames)
                return try scenes.value(key) { () throws(WaveError) -> Scene in
                    let animation = try pipeline.prepare(config, plan: plan)
                    // The sample draws a few frames of the loop: a gradient scene's count keeps none.
                    let raster = FrameRenderer(palette: palettes.plan(animation, format: format, keepingFrames: false))
                    var cache = ColorCache()
                    let drawn = frames.map { f in
                        var indices: [UInt8] = [], matte: [UInt8] = []
                        raster.render(frame: f, into: &indices, matte: &matte, cache: &cache)
                        return (indices, matte)
                    }
                    return Scene(animation: animation, raster: raster, frames: drawn)
                }
            }
        }

        /// What a candidate's windows measure: its modelled file length and its error.
        struct Measure {
            var size: Int
            var meanSquaredError: Double
        }

        /// Measures by the values of the knobs `SizeFit.settings` turns (all else is the preset's),
        /// before the anchor: the modelled length in bytes and the error. Filled from several
        /// threads; a setting measured twice at once measures the same both times.
        typealias Measured = SharedDictionary<MeasureKey, (modelled: Double, meanSquaredError: Double)>

        /// The knobs a `Measured` value is filed under.
        struct MeasureKey: Hashable {
            var edgeStep: Double
            var colors: Int
            var lossy: Int
            var webpLossless: Bool
            var webpQuality: Double
            var frameCount: Int

            init(_ config: WaveConfig, _ plan: LoopPlan) {
                edgeStep = config.edgeStep
                colors = config.gif.colors
                lossy = config.gif.lossy
                webpLossless = config.webp.lossless
                webpQuality = config.webp.quality
                frameCount = plan.frameCount
            }
        }

        /// Encodes `frames` of `config` and `plan` as one file of `format`, each frame shown for
        /// the loop's first delay; returns the bytes, the frames as shown in order (merged frames
        /// repeated), and the delay in the format's unit.
        func encode(_ config: WaveConfig, _ plan: LoopPlan, frames: [Int], format: OutputFormat,
                    pipeline: RenderPipeline, page: RGBA?) throws(WaveError) -> (bytes: [UInt8], shown: [[UInt8]], delay: Int) {
            let scene = try drawn.scene(config, plan, frames: frames, format: format, pipeline: pipeline)
            let writer = format.writer(for: config)
            // Samples are measured side by side: each leaves the cores to the others.
            (writer as? GIFWriter)?.onTheCores = false
            try writer.begin(scene.animation, raster: scene.raster)
            let delay = scene.raster.timing.delays[0]
            let frame = RasterFrame(palette: scene.raster.palette, trueColor: scene.raster.drawsTrueColor)
            for (k, drawn) in scene.frames.enumerated() {
                frame.show(k, indices: drawn.indices, matte: drawn.matte, delay: delay)
                try writer.add(frame)
            }
            let bytes = try writer.finish()
            var decoded = try DisplayedFrames.decode(bytes, format: format)
            if let page { decoded.show(on: page) }
            let unit = decoded.duration / Double(frames.count)
            let shown = frames.indices.map { decoded.frames[DisplayedFrames.frame(at: (Double($0) + 0.5) * unit, starts: decoded.starts)] }
            return (bytes, shown, delay)
        }

        /// The reference windows taken from the preset's whole file as shown (on its page): each
        /// full-rate frame is the image on screen at its middle.
        mutating func takeReference(_ whole: DisplayedFrames) {
            let span = width * longest
            reference = starts.map { s in
                (0..<span).map { t in
                    let f = (s + t) % frameCount
                    let time = (Double(f) + 0.5) * whole.duration / Double(frameCount)
                    return whole.frames[DisplayedFrames.frame(at: time, starts: whole.starts)]
                }
            }
        }

        /// The reference windows: the preset as it is at the full rate, encoded as a sample.
        mutating func measureReference(_ config: WaveConfig, _ plan: LoopPlan, format: OutputFormat, pipeline: RenderPipeline) throws(WaveError) {
            let shown = try encode(config, plan, frames: referenceFrames, format: format, pipeline: pipeline, page: page).shown
            let span = width * longest
            reference = starts.indices.map { j in Array(shown[(j * span)..<((j + 1) * span)]) }
        }

        /// Measures a candidate (its loop `plan` thinned by `divisor` from the full one).
        func measure(_ config: WaveConfig, _ plan: LoopPlan, divisor: Int, format: OutputFormat,
                     pipeline: RenderPipeline) throws(WaveError) -> Measure {
            let key = MeasureKey(config, plan)
            if let known = measured[key] {
                return Measure(size: Int((known.modelled * anchor).rounded()), meanSquaredError: known.meanSquaredError)
            }
            let (bytes, shown, delay) = try encode(config, plan, frames: frames(divisor: divisor), format: format, pipeline: pipeline, page: page)
            var total = 0.0, weight = 0.0
            for j in starts.indices {
                for t in 0..<(width * divisor) {
                    total += DisplayedFrames.meanSquaredError(reference[j][t], shown[j * width + t / divisor])
                    weight += 1
                }
            }
            let modelled = Sample.modelledSize(bytes, format: format, delay: delay, windows: starts.count, width: width,
                                               frames: frameCount / divisor) ?? Double(bytes.count * frameCount / divisor) / Double(starts.count * width)
            measured[key] = (modelled, total / weight)
            return Measure(size: Int((modelled * anchor).rounded()), meanSquaredError: total / weight)
        }

        /// The modelled length of the whole file of `frames` frames from a sample file of
        /// `windows` × `width` frames each shown `delay` units; nil when the file cannot be read.
        static func modelledSize(_ bytes: [UInt8], format: OutputFormat, delay: Int, windows: Int, width: Int, frames: Int) -> Double? {
            guard let images = imageSizes(bytes, format: format), let first = images.first, first.start == 0 else { return nil }
            var following = 0
            for image in images.dropFirst() where image.start % (width * delay) != 0 { following += image.size }
            let perFrame = Double(following) / Double(windows * (width - 1))
            let imageBytes = images.reduce(0) { $0 + $1.size }
            return Double(bytes.count - imageBytes + first.size) + Double(frames - 1) * perFrame
        }

        /// Each image of a GIF or animated WebP: when it starts (in delay units from the file's
        /// start) and its bytes with the blocks before it; nil for other formats or a file that
        /// does not parse.
        static func imageSizes(_ b: [UInt8], format: OutputFormat) -> [(start: Int, size: Int)]? {
            switch format {
            case .gif: return GIFLayout.imageSizes(b)
            case .webp: return WebPLayout.imageSizes(b)
            case .apng, .svg, .lottie, .dotlottie: return nil
            }
        }
    }

    /// The palettes of a fit's scenes, shared by every candidate of both searches, measured on the
    /// sample or encoded whole: one discovery per loop, each further `edgeStep` of it that scene
    /// with its ramps built again (`PaletteDiscovery.restepped(to:)`), and the loop counted on each
    /// once for every table that needs the count. Filled from several threads, each palette and
    /// count made once (a candidate asking for one another is making waits for it).
    final class Palettes: @unchecked Sendable {
        struct Key: Hashable {
            var edgeStep: Double
            var frameCount: Int
        }
        private let discoveries = OnceDictionary<Key, PaletteDiscovery>()
        /// The first discovery of each loop (by frame count), the others' starting point.
        private let firsts = OnceDictionary<Int, PaletteDiscovery>()
        private let usages = OnceDictionary<Key, [Int]>()

        /// The palette `animation`'s frames are drawn into for `format`, as
        /// `PalettePlan(config:plan:format:label:)` makes it; `keepingFrames` as `PalettePlan` takes it.
        func plan(_ animation: Animation, format: OutputFormat, keepingFrames: Bool) -> PalettePlan {
            let key = Key(edgeStep: animation.config.edgeStep, frameCount: animation.plan.frameCount)
            let discovery = discoveries.value(key) {
                // The loop's first discovery is made at the step of the first to ask; every other
                // step of it is that one restepped.
                var made = false
                let first = firsts.value(key.frameCount) {
                    made = true
                    var full = animation.config
                    full.gif.colors = 256
                    full.gif.lossy = 0
                    return PaletteDiscovery(config: full, plan: animation.plan, format: format, label: animation.label)
                }
                return made ? first : first.restepped(to: key.edgeStep)
            }
            guard discovery.needsUsage(colors: animation.config.gif.colors) else {
                return PalettePlan(discovery, config: animation.config, keepingFrames: keepingFrames)
            }
            let usage = usages.value(key) { discovery.usage() }
            return PalettePlan(discovery, config: animation.config, usage: usage, keepingFrames: keepingFrames)
        }
    }
}
