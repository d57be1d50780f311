import Foundation
import WaveAPNG
import WaveGIF
import WaveKit
import WaveRender
import WaveWebP

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Seconds on the monotonic clock.
@inline(__always)
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Seconds of CPU this process has used, all threads: unlike wall time, barely moved by other load on the machine.
func cpuNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// The render pipeline, as the `render` command runs it, and the same split into stages.
enum Pipeline {
    /// The preset loader every tool uses: PNG decoding for rider images.
    static let loader = PresetLoader.standard

    static func load(_ reference: String) throws -> WaveConfig {
        do {
            return try loader.load(reference)
        } catch {
            throw BenchError("\(reference): \(error)")
        }
    }

    /// The label's texts rendered with FreeType and placed, as the command line does it.
    static func labelOverlay(_ config: WaveConfig, plan: LoopPlan) throws -> LabelTexts? {
        do {
            return try LabelTexts.rendered(for: config, plan: plan)
        } catch {
            throw BenchError(error.description)
        }
    }

    static func plan(_ config: WaveConfig) throws -> LoopPlan {
        do {
            return try LoopPlanner.plan(config)
        } catch {
            throw BenchError("\(config.name): \(error.description)")
        }
    }

    /// Everything `wavegen render` does short of writing the file: load, plan, then the command's
    /// own encoder (set up, render on `threads` threads, 0 = one per core, feeding the encoder in
    /// frame order, finish).
    static func full(_ reference: String, format: OutputFormat, threads: Int) throws -> [UInt8] {
        do {
            return try RenderPipeline(loader: loader, threads: threads).render(reference, format: format)
        } catch {
            throw BenchError(error.description)
        }
    }

    /// Times of one pass through the stages, one thread, in seconds.
    struct StageTimes {
        var load = 0.0
        var plan = 0.0
        /// The label's text rasterized (FreeType), then FrameRenderer.init: static coverage, palette
        /// discovery, base frame.
        var setup = 0.0
        /// render(frame:) for every frame.
        var render = 0.0
        /// The encoder fed the rendered frames (for WebP including expanding indices to RGBA).
        var encode = 0.0
        /// CPU time of `encode`, every thread of the process.
        var encodeCPU = 0.0
        /// Of `encode`, expanding indices to RGBA (WebP only).
        var expand = 0.0
    }

    /// One staged pass. Returns the times, the frames (index buffers), the renderer and the file bytes.
    static func staged(_ reference: String, format: OutputFormat) throws
        -> (times: StageTimes, frames: [[UInt8]], renderer: FrameRenderer, bytes: [UInt8]) {
        var t = StageTimes()
        var start = now()
        let config = try load(reference)
        t.load = now() - start
        start = now()
        let plan = try plan(config)
        t.plan = now() - start
        start = now()
        let renderer = FrameRenderer(config: config, plan: plan, format: format, label: try labelOverlay(config, plan: plan))
        t.setup = now() - start

        let timing = renderer.timing
        var frames: [[UInt8]] = []
        frames.reserveCapacity(timing.frameCount)
        var cache = ColorCache()
        start = now()
        for k in 0..<timing.frameCount {
            var out: [UInt8] = []
            out.reserveCapacity(config.width * config.height)
            renderer.render(frame: k, into: &out, cache: &cache)
            frames.append(out)
        }
        t.render = now() - start

        let bytes: [UInt8]
        let cpuStart = cpuNow()
        switch format {
        case .gif:
            start = now()
            let gif = try GIFWriter.encoder(renderer)
            // The stage on one thread, as the table says (the whole-pipeline run codes held frames on the cores).
            gif.onTheCores = false
            for (k, f) in frames.enumerated() { try gif.add(f, delay: timing.delays[k]) }
            bytes = try gif.finish()
            t.encode = now() - start
        case .webp:
            start = now()
            let webp = try WebPAnimationEncoder(width: config.width, height: config.height, options: WebPWriter.options(config))
            var rgba: [UInt8] = []
            for (k, f) in frames.enumerated() {
                // A scene with gradients is drawn in true color: its frames are RGBA already.
                if renderer.drawsTrueColor {
                    try webp.add(rgba: f, duration: timing.delays[k])
                    continue
                }
                let e0 = now()
                renderer.palette.expand(f, into: &rgba)
                t.expand += now() - e0
                try webp.add(rgba: rgba, duration: timing.delays[k])
            }
            bytes = try webp.finish()
            t.encode = now() - start
        case .apng:
            start = now()
            if renderer.drawsTrueColor {
                let apng = try TrueColorAPNGEncoder(width: config.width, height: config.height,
                                                    options: APNGEncoder.Options(effort: config.apng.effort, loops: config.loops, ticksPerSecond: 1000))
                for (k, f) in frames.enumerated() { try apng.add(rgba: f, delay: timing.delays[k]) }
                bytes = try apng.finish()
            } else {
                let apng = try APNGWriter.encoder(renderer, effort: config.apng.effort)
                for (k, f) in frames.enumerated() { try apng.add(f, delay: timing.delays[k]) }
                bytes = try apng.finish()
            }
            t.encode = now() - start
        case .svg, .lottie, .dotlottie:
            // A vector writer draws no frames; its encode time is writing the document.
            start = now()
            let animation = Animation(config: config, plan: plan, label: try labelOverlay(config, plan: plan))
            do throws(WaveError) {
                let writer = format.writer(for: config)
                try writer.begin(animation, raster: nil)
                bytes = try writer.finish()
            } catch {
                throw BenchError(error.description)
            }
            t.encode = now() - start
        }
        t.encodeCPU = cpuNow() - cpuStart
        return (t, frames, renderer, bytes)
    }
}

/// Medians and the spread of repeated measurements.
struct Samples {
    private(set) var values: [Double] = []

    mutating func add(_ v: Double) { values.append(v) }

    var median: Double {
        guard !values.isEmpty else { return .nan }
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    var min: Double { values.min() ?? .nan }
    var max: Double { values.max() ?? .nan }
}
