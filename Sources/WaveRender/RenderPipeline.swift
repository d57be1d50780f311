import WaveKit

/// The pipeline as a library: a preset reference → `WaveConfig` → `LoopPlan` → `Animation` → the
/// bytes of every writer. The command line, the benchmark and the fuzzer all run it.
public struct RenderPipeline: Sendable {
    /// Reads presets (rider images decoded by libpng).
    public var loader: PresetLoader
    /// Threads that draw frames: 0 = one per core, 1 = this thread only.
    /// The bytes written never depend on it.
    public var threads: Int

    public init(loader: PresetLoader = .standard, threads: Int = 0) {
        self.loader = loader
        self.threads = threads
    }

    /// Loads a preset file or bundled name with `overrides` applied last.
    public func load(_ reference: String, overrides: [PresetOverride] = []) throws(WaveError) -> WaveConfig {
        return try loader.load(reference, overrides: overrides)
    }

    /// Plans a config's loop; `strict` refuses a fixed duration that moves a speed beyond tolerance.
    public func plan(_ config: WaveConfig, strict: Bool = false) throws(WaveError) -> LoopPlan {
        do {
            return try LoopPlanner.plan(config, strict: strict)
        } catch {
            throw WaveError(config, error.description)
        }
    }

    /// Renders the label's texts, so the animation is ready for any writer. A label that does not
    /// fit the shape or the canvas is a warning (in `Animation.warnings`), or with `strict` an error.
    public func prepare(_ config: WaveConfig, plan: LoopPlan, strict: Bool = false) throws(WaveError) -> Animation {
        let label = try LabelTexts.rendered(for: config, plan: plan)
        var warnings: [String] = []
        if let label, let misfit = label.fitWarning(config: config, plan: plan) {
            if strict { throw WaveError(config, misfit, keyPath: "label") }
            warnings.append(misfit)
        }
        return Animation(config: config, plan: plan, label: label, warnings: warnings)
    }

    /// What one writer produced.
    public struct Written: Sendable {
        /// The file's bytes (empty for a writer whose output is not one file).
        public var bytes: [UInt8]
        /// The frames and delays of a raster writer's format (nil for vector writers).
        public var timing: FrameTiming?
        /// The palette its frames were drawn in (nil for vector writers).
        public var palette: Palette?
        /// Images in the file, when the format merges identical frames (GIF); nil otherwise.
        public var images: Int?
        /// What the writer did (`AnimationWriter.notes`); timing and palette notes are theirs.
        public var notes: [String]
    }

    /// Runs every writer over `animation`. Writers asking for the same frames share one renderer
    /// and one pass over the loop: each frame is drawn once and handed to them in order.
    public func write(_ animation: Animation, to writers: [any AnimationWriter]) throws(WaveError) -> [Written] {
        var results = [Written?](repeating: nil, count: writers.count)
        var groups: [(request: FrameRequest, members: [Int])] = []
        for (i, w) in writers.enumerated() {
            if let g = groups.firstIndex(where: { $0.request == w.frames }) { groups[g].members.append(i) } else { groups.append((w.frames, [i])) }
        }
        for group in groups {
            let members = group.members.map { writers[$0] }
            var raster: FrameRenderer?
            if case let .raster(format) = group.request {
                raster = FrameRenderer(config: animation.config, plan: animation.plan, format: format, label: animation.label)
            }
            for w in members { try w.begin(animation, raster: raster) }
            if let raster { try drawFrames(raster, into: members) }
            for (w, i) in zip(members, group.members) {
                let bytes = try w.finish()
                // True-color frames (a scene with gradients for WebP or APNG) were drawn in no palette.
                let palette = raster.flatMap { $0.drawsTrueColor ? nil : $0.palette }
                results[i] = Written(bytes: bytes, timing: raster?.timing, palette: palette, images: w.images, notes: w.notes)
            }
        }
        return results.map { $0! }
    }

    /// Writes `animation` with one raster writer whose frames `raster` draws (made by the caller,
    /// e.g. into a palette several renders share): the file `write(_:to:)` makes when `raster` is
    /// the renderer it would make for the writer's format.
    public func write(_ animation: Animation, drawnBy raster: FrameRenderer, to writer: any AnimationWriter) throws(WaveError) -> Written {
        try writer.begin(animation, raster: raster)
        try drawFrames(raster, into: [writer])
        let bytes = try writer.finish()
        return Written(bytes: bytes, timing: raster.timing, palette: raster.drawsTrueColor ? nil : raster.palette, images: writer.images, notes: writer.notes)
    }

    /// Loads, plans, prepares and writes one format in memory: what `render` does short of the file.
    public func render(_ reference: String, overrides: [PresetOverride] = [], format: OutputFormat) throws(WaveError) -> [UInt8] {
        let config = try load(reference, overrides: overrides)
        let animation = try prepare(config, plan: try plan(config))
        return try write(animation, to: [format.writer(for: config)])[0].bytes
    }

    private func drawFrames(_ raster: FrameRenderer, into writers: [any AnimationWriter]) throws(WaveError) {
        let frame = RasterFrame(palette: raster.palette, trueColor: raster.drawsTrueColor)
        let delays = raster.timing.delays
        do {
            try raster.renderAll(threads: threads) { k, indices, matte in
                frame.show(k, indices: indices, matte: matte, delay: delays[k])
                for w in writers { try w.add(frame) }
            }
        } catch let e as WaveError {
            throw e
        } catch {
            throw WaveError(.failure, ["\(error)"])
        }
    }
}

extension WaveConfig {
    /// The file a config came from, for messages (its name when it was built in code).
    public var source: String { file.isEmpty ? name : file }
}
