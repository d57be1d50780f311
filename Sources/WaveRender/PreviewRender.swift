import Dispatch
import WaveKit
import WavePlatform

/// The live preview's renders of one loaded preset in several formats at once, each file handed
/// over as soon as it is done. The frames are drawn once for WebP and APNG (both straight RGBA,
/// millisecond delays) and, when the scene is opaque, has no gradient and its GIF palette is the
/// same, for the GIF too; each format's encoder runs on a thread of its own, reading the frames as
/// they are drawn, and a vector format is written on its own thread meanwhile. Every final file is
/// byte-for-byte the one `RenderedOutput.render` makes (the slow reference, which draws the frames
/// once for each format; `PreviewRenderTests` holds the two together for every bundled preset).
///
/// For a slow loop (`draftPixels`), a draft of lossless WebP, of APNG and of an exact GIF drawn on
/// the shared frames comes first: the same frames encoded with effort 0 (a GIF: one rendition a
/// frame), much faster and somewhat larger, shown until the final arrives.
public enum PreviewRender {
    /// One file: the final one of a format, or its draft.
    public struct Delivery: Sendable {
        /// Position in the formats asked for.
        public var index: Int
        public var draft: Bool
        public var result: Result<RenderedOutput, WaveError>
    }

    /// Loops of at least this many pixels × frames get drafts (boat's 375×300 × 100 does; every
    /// other bundled preset is under a quarter of it).
    public static let draftPixels = 4_000_000

    /// Frames kept for the encoders at most (bytes); a larger loop is rendered format by format.
    public static let sharedBytes = 256 << 20

    /// Renders `loaded` in each of `formats` (a `live` SVG for SVG), calling `deliver` from the
    /// threads that made them as each file is ready (with `drafts`, slow loops' drafts first);
    /// returns when every final file has been delivered.
    public static func render(_ loaded: BuildPlan.Loaded, formats: [OutputFormat], live: Bool = false, drafts: Bool = true,
                              deliver: @escaping (Delivery) -> Void) {
        let start = DispatchTime.now().uptimeNanoseconds
        let work = Work()
        let config = loaded.config, plan = loaded.plan
        let raster = formats.indices.filter { formats[$0].writer(for: config).frames != .none }
        // Vector formats: each on a thread of its own, as the reference writes them.
        for i in formats.indices where !raster.contains(i) {
            work.spawn {
                deliver(Delivery(index: i, draft: false, result: Result { () throws(WaveError) in
                    try RenderedOutput.render(loaded, format: formats[i], live: live, threads: 1)
                }))
            }
        }
        let animation: Animation
        do throws(WaveError) {
            animation = try RenderPipeline(threads: 1).prepare(config, plan: plan)
        } catch {
            for i in raster { deliver(Delivery(index: i, draft: false, result: .failure(error))) }
            work.wait()
            return
        }
        let rgba = raster.filter { formats[$0] != .gif }
        let gif = raster.filter { formats[$0] == .gif }
        guard let first = rgba.first else {
            for i in gif { work.spawn { deliver(alone(loaded, format: formats[i], index: i, live: live)) } }
            work.wait()
            return
        }
        // One discovery of the scene: the GIF's palette is built from it for its own target.
        let discovery = PaletteDiscovery(config: config, plan: plan, format: formats[first], label: animation.label)
        let renderer = FrameRenderer(palette: PalettePlan(discovery, config: config))
        let timing = renderer.timing
        let frameBytes = config.width * config.height * (renderer.drawsTrueColor ? 4 : 1)
        // Formats whose frames are these: the same timing (WebP and APNG both count milliseconds).
        let sharing = rgba.filter { plan.timing(for: formats[$0]) == timing }
        guard frameBytes * timing.frameCount <= sharedBytes else {
            for i in raster { work.spawn { deliver(alone(loaded, format: formats[i], index: i, live: live)) } }
            work.wait()
            return
        }
        for i in raster where !sharing.contains(i) && !gif.contains(i) {
            work.spawn { deliver(alone(loaded, format: formats[i], index: i, live: live)) }
        }
        let frames = FrameStore()
        func finished(_ format: OutputFormat, _ r: RenderPipeline.Written, raster: FrameRenderer) -> RenderedOutput {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            let count = r.timing?.frameCount ?? plan.frameCount
            return RenderedOutput(bytes: r.bytes, width: config.width, height: config.height, scale: config.scale, frames: count,
                                  fps: plan.duration > 0 ? Double(count) / plan.duration : plan.fps, duration: plan.duration,
                                  paletteSize: r.palette?.colors.count ?? 0, milliseconds: (elapsed * 10).rounded() / 10,
                                  warnings: animation.warnings, fit: nil)
        }
        // In a slow loop the drafts and the GIF go first: the finals that have a draft start once
        // they are done, so that every format shows something soon on a machine of few cores.
        let early = DispatchGroup()
        /// Encodes the stored frames with `writer` on a thread of its own (with `after`, once those of `early` are done).
        func encode(_ writer: any AnimationWriter, format: OutputFormat, index: Int, draft: Bool, raster: FrameRenderer,
                    after: Bool = false, done: (() -> Void)? = nil) {
            work.spawn {
                defer { done?() }
                if after {
                    // A final that follows its draft gives way to what the user waits for: the other
                    // formats' drafts, and the page that draws them.
                    ProcessEnvironment.lowerThisThreadsPriority()
                    early.wait()
                }
                // Each format has its thread here, at the priority chosen above: the GIF's coding stays on it.
                (writer as? GIFWriter)?.onTheCores = false
                let result = Result { () throws(WaveError) -> RenderedOutput in
                    let timing = raster.timing
                    try writer.begin(animation, raster: raster)
                    let frame = RasterFrame(palette: raster.palette, trueColor: raster.drawsTrueColor)
                    for k in 0..<timing.frameCount {
                        guard let indices = frames.frame(k) else { throw WaveError(.failure, ["\(format.name): the frames were not drawn"]) }
                        frame.show(k, indices: indices, matte: [], delay: timing.delays[k])
                        try writer.add(frame)
                    }
                    let bytes = try writer.finish()
                    let palette = raster.drawsTrueColor ? nil : raster.palette
                    return finished(format, RenderPipeline.Written(bytes: bytes, timing: timing, palette: palette, images: writer.images,
                                                                   notes: writer.notes), raster: raster)
                }
                deliver(Delivery(index: index, draft: draft, result: result))
            }
        }
        let slow = drafts && config.width * config.height * timing.frameCount >= draftPixels
        /// Encodes format `i` on `raster`'s frames: in a slow loop that drafts it, the draft first
        /// (one of `early`) and the final once every draft is done; else the final alone.
        /// `leave`, the caller's place in `early`, is left once the draft is under way, or else
        /// when the final is done.
        func encodeWithDraft(_ i: Int, raster: FrameRenderer, leave: (() -> Void)? = nil) {
            let format = formats[i]
            if slow, let writer = draftWriter(format, config: config) {
                early.enter()
                leave?()
                encode(writer, format: format, index: i, draft: true, raster: raster, done: { early.leave() })
                encode(format.writer(for: config), format: format, index: i, draft: false, raster: raster, after: true)
            } else {
                encode(format.writer(for: config), format: format, index: i, draft: false, raster: raster, done: leave)
            }
        }
        // The GIF: on these frames when its own would be the same, else drawn apart. Until it is
        // under way, it is one of `early`.
        for i in gif {
            if slow { early.enter() }
            work.spawn {
                // A scene with gradients draws its GIF apart (its table is chosen from the loop's colors).
                let own = config.hasGradient ? nil : FrameRenderer(palette: PalettePlan(discovery.retargeted(to: .gif), config: config))
                if let own, sameFrames(own, renderer) {
                    encodeWithDraft(i, raster: own, leave: slow ? { early.leave() } : nil)
                } else {
                    deliver(alone(loaded, format: formats[i], index: i, live: live))
                    if slow { early.leave() }
                }
            }
        }
        for i in sharing { encodeWithDraft(i, raster: renderer) }
        // The frames, drawn once in order on this thread and the cores' others.
        renderer.renderAll(threads: 0) { _, indices, _ in frames.append(indices) }
        frames.close()
        work.wait()
    }

    /// Whether a GIF renderer draws exactly what `shared` (drawn for WebP or APNG) draws: an
    /// opaque scene (every palette entry opaque, no transparent index) with no gradient, no matte,
    /// as many frames and the same palette. Opaque colors are stored alike for every target.
    static func sameFrames(_ gif: FrameRenderer, _ shared: FrameRenderer) -> Bool {
        !gif.config.hasGradient && !shared.drawsTrueColor && !gif.marksMatte && gif.config.background.a == 255 &&
            gif.timing.frameCount == shared.timing.frameCount && gif.palette == shared.palette &&
            gif.palette.transparentIndex == nil && gif.palette.colors.allSatisfy { $0.a == 255 }
    }

    /// The draft writer of `format` for `config`: lossless WebP and APNG at effort 0, an exact GIF
    /// coded one rendition a frame (nil for a format or setting that gets no draft: lossy WebP's
    /// effort and a lossy GIF's coder are what shape their pixels).
    static func draftWriter(_ format: OutputFormat, config: WaveConfig) -> (any AnimationWriter)? {
        switch format {
        case .gif where config.gif.lossy == 0:
            return GIFWriter(draft: true)
        case .webp where config.webp.lossless && config.webp.effort > 0:
            var options = WebPWriter.options(config)
            options.effort = 0
            options.quality = 0
            return WebPWriter(options: options)
        case .apng where config.apng.effort > 0:
            return APNGWriter(effort: 0)
        default:
            return nil
        }
    }

    /// The reference render of one format, as a delivery.
    static func alone(_ loaded: BuildPlan.Loaded, format: OutputFormat, index: Int, live: Bool) -> Delivery {
        Delivery(index: index, draft: false, result: Result { () throws(WaveError) in
            try RenderedOutput.render(loaded, format: format, live: live, threads: 1)
        })
    }

    /// Threads started for one render, waited for together.
    private final class Work: @unchecked Sendable {
        private let group = DispatchGroup()

        func spawn(_ body: @escaping () -> Void) {
            group.enter()
            let box = UncheckedBox(body)
            ProcessEnvironment.detachThread { [group] in
                box.value()
                group.leave()
            }
        }

        func wait() { group.wait() }
    }

    /// The frames drawn so far, in order, for encoders that read them at their own pace.
    private final class FrameStore: @unchecked Sendable {
        private let condition = Condition()
        private var frames: [[UInt8]] = []
        private var closed = false

        func append(_ frame: [UInt8]) {
            condition.withLock {
                frames.append(frame)
                condition.broadcast()
            }
        }

        /// No more frames will come.
        func close() {
            condition.withLock {
                closed = true
                condition.broadcast()
            }
        }

        /// Frame `k` once drawn; nil when drawing stopped before it.
        func frame(_ k: Int) -> [UInt8]? {
            condition.withLock {
                while k >= frames.count && !closed { _ = condition.wait(until: Clock.wallSeconds + 1) }
                return k < frames.count ? frames[k] : nil
            }
        }
    }
}

/// A value handed to another thread as is.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
