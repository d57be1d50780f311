import WavePlatform

/// The first stage of drawing a scene: what its palette is made of, found from the scene before
/// any frame is drawn. The flat regions the loop shows (every combination of layers that occurs),
/// the edges between neighbouring regions, the colors the rider and the label produce, and the
/// palette they build (`edgeStep` ramps, every shade). A scene with gradients gets its true-color
/// raster here too.
///
/// A `PalettePlan` then chooses the entries a table of `gif.colors` keeps; it is handed to
/// `FrameRenderer`, which draws into it. Everything here depends on the scene and the format
/// only, not on `gif.colors`, `gif.lossy` or the WebP and APNG coders' settings, so candidates
/// that differ in those share one discovery (and one `usage()` count).
public struct PaletteDiscovery: Sendable {
    /// The configuration the scene was made from.
    public let config: WaveConfig
    public let plan: LoopPlan
    public let format: OutputFormat
    public let timing: FrameTiming
    let target: RenderTarget
    let scene: SceneRaster
    /// The palette as the scene's regions, edges and overlay colors build it.
    public let palette: Palette
    /// Palette index of each fully-covering layer set (bit i = layer i), or -1 when that set was never seen.
    let flatLookup: [Int32]
    /// The background's palette index.
    let backgroundIndex: UInt8
    /// What a refit needs: the builder's regions and edges, where the shades lie, and the
    /// overlay's sampled colors.
    let builder: PaletteBuilder
    let layout: ShadeLayout
    let overlay: [PremultipliedColor]
    /// The true-color frames of a scene with gradients (nil without).
    let gradient: GradientRaster?
    /// The flat regions' builder indices of each layer set (-1: never seen), the background's,
    /// and the palette entries kept for the overlay: what the palette is built from for a target.
    let maskFlat: [Int]
    let backgroundFlat: Int
    let reserved: [PremultipliedColor]

    /// Discovers the palette of `config`'s scene for `format`; `label` holds the label's text
    /// coverage, placed, for every text its frames show.
    public init(config: WaveConfig, plan: LoopPlan, format: OutputFormat, label: LabelTexts? = nil) {
        self.config = config
        self.plan = plan
        self.format = format
        let timing = plan.timing(for: format)
        self.timing = timing
        let target = RenderTarget(format: format, config: config)
        self.target = target
        let scene = SceneRaster(config: config, plan: plan, label: label)
        self.scene = scene
        let model = scene.model
        let frames = timing.frameCount
        var builder = PaletteBuilder()
        let bgFlat = builder.flat(model.background)
        var borderFlat: Int?
        if config.border != nil {
            let b = builder.flat(model.ringColor)
            builder.edge(b, bgFlat)
            borderFlat = b
        }
        let layerCount = config.layers.count
        // Flat region of each layer set (-1: not seen yet).
        var maskFlat = [Int](repeating: -1, count: 1 << layerCount)
        func flatOf(_ mask: Int) -> Int {
            if maskFlat[mask] >= 0 { return maskFlat[mask] }
            let f = builder.flat(model.compositeColor(ofLayers: mask))
            maskFlat[mask] = f
            builder.edge(f, bgFlat)
            if let b = borderFlat, (config.border?.gap ?? 0) == 0 { builder.edge(f, b) }
            return f
        }
        // The loop's frames walked in runs on the cores, each run's layer sets and neighbouring
        // pairs in the order first met there; taken run after run, each set's and pair's first
        // meeting comes in the order of a walk from the first frame to the last.
        let runs = PaletteDiscovery.walkRuns(frames: frames, columns: scene.waterColumns.count)
        let met = Concurrently.map(runs) { run in
            PaletteDiscovery.walk(scene, frames: (frames * run / runs)..<(frames * (run + 1) / runs), of: frames)
        }
        for events in met {
            for e in events {
                if let (upper, lower) = PaletteDiscovery.pair(e) {
                    builder.edge(flatOf(upper), flatOf(lower))
                } else {
                    _ = flatOf(e)
                }
            }
        }
        let overlay = scene.overlayColors(frames: frames)
        let reserved = medianCut(overlay, count: FrameRenderer.overlayColors)
        self.builder = builder
        self.overlay = overlay
        self.maskFlat = maskFlat
        backgroundFlat = bgFlat
        self.reserved = reserved
        (palette, flatLookup, backgroundIndex, layout) = PaletteDiscovery.build(builder, maskFlat, bgFlat, reserved, target: target, step: config.edgeStep)
        gradient = config.hasGradient ? GradientRaster(scene: scene, target: target) : nil
    }

    /// How many runs the palette's walk over `frames` frames of `columns` columns is cut into.
    static func walkRuns(frames: Int, columns: Int) -> Int {
        frames * columns >= 4096 ? max(1, min(frames, ProcessEnvironment.activeProcessorCount)) : 1
    }

    /// A pair of neighbouring layer sets as `walk` lists it: a mark above any mask, then the upper
    /// set's mask and the lower one's, `pairBits` bits each.
    static let pairBits = 20, pairMark = 1 << (2 * pairBits)

    /// The upper and lower sets of a pair `walk` listed, nil for a layer set (its mask).
    @inline(__always)
    static func pair(_ event: Int) -> (upper: Int, lower: Int)? {
        guard event >= pairMark else { return nil }
        let field = 1 << pairBits - 1
        return (event >> pairBits & field, event & field)
    }

    /// The layer sets and pairs of neighbouring sets that `frames` of a loop of `count` show in
    /// `scene`'s water, in the order first met (frame after frame, column after column, down each
    /// column): a set as its mask, a pair (upper set over lower set, both seen) as
    /// `pairMark | upper << pairBits | lower`.
    static func walk(_ scene: SceneRaster, frames: Range<Int>, of count: Int) -> [Int] {
        let model = scene.model, layerCount = model.layerCount
        var events: [Int] = []
        var seenMask = [Bool](repeating: false, count: 1 << layerCount)
        var seenPairs = Set<Int>()
        // The pairs last met, by a hash of their key: most of a column's pairs were met in the
        // column before, and are found here without hashing into `seenPairs`.
        var recentPairs = [Int](repeating: -1, count: 256)
        let columnExtent = scene.coverage.waterRowsByColumn
        let columns = scene.waterColumns
        var order = Array(0..<layerCount)
        for k in frames {
            // The surfaces at pixel centers, column after column.
            let heights = model.surfaces(frame: k, of: count).pixelCenterHeights(columns: columns)
            var previousPair = -1
            for x in columns {
                let (top, bottom) = columnExtent[x]
                guard top < bottom else { continue }
                let row = (x - columns.lowerBound) * layerCount
                // Insertion sort: few layers.
                for j in 1..<max(1, layerCount) {
                    let v = order[j]
                    var m = j
                    while m > 0 && (heights[row + order[m - 1]] > heights[row + v] || (heights[row + order[m - 1]] == heights[row + v] && order[m - 1] > v)) {
                        order[m] = order[m - 1]
                        m -= 1
                    }
                    order[m] = v
                }
                // Going down the column, each surface crossed adds one layer to the covering set.
                var mask = 0
                var previous = -1
                for j in 0...layerCount {
                    let upper = j == 0 ? -Double.infinity : heights[row + order[j - 1]]
                    let lower = j == layerCount ? Double.infinity : heights[row + order[j]]
                    if j > 0 { mask |= 1 << order[j - 1] }
                    guard lower > Double(top), upper < Double(bottom) else { continue }
                    if !seenMask[mask] {
                        seenMask[mask] = true
                        events.append(mask)
                    }
                    if previous >= 0, upper >= Double(top) {
                        let key = previous << PaletteDiscovery.pairBits | mask
                        if key != previousPair {
                            let slot = Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 56)
                            if recentPairs[slot] != key {
                                if seenPairs.insert(key).inserted { events.append(PaletteDiscovery.pairMark | key) }
                                recentPairs[slot] = key
                            }
                        }
                        previousPair = key
                    }
                    previous = mask
                }
            }
        }
        return events
    }

    /// The discovery of the same scene for `format`: the regions, edges and overlay colors do not
    /// depend on the format, so only the palette (and a scene with gradients' true-color raster)
    /// is made again for the format's target and timing. Equal to `init(config:plan:format:label:)`
    /// of the same scene for `format`, without drawing the overlay's probed frames again.
    public func retargeted(to format: OutputFormat) -> PaletteDiscovery {
        PaletteDiscovery(self, format: format, edgeStep: config.edgeStep)
    }

    /// The discovery of the same scene with `edgeStep` ramps: only the palette is built again from
    /// the regions, edges and overlay colors found (none of which depend on `edgeStep`), and a
    /// scene with gradients keeps its true-color raster and what it counted. Equal to
    /// `init(config:plan:format:label:)` with `config.edgeStep` set to `edgeStep`.
    public func restepped(to edgeStep: Double) -> PaletteDiscovery {
        PaletteDiscovery(self, format: format, edgeStep: edgeStep)
    }

    private init(_ other: PaletteDiscovery, format: OutputFormat, edgeStep: Double) {
        var config = other.config
        config.edgeStep = edgeStep
        self.config = config
        plan = other.plan
        self.format = format
        timing = plan.timing(for: format)
        let target = RenderTarget(format: format, config: config)
        self.target = target
        scene = other.scene
        builder = other.builder
        overlay = other.overlay
        maskFlat = other.maskFlat
        backgroundFlat = other.backgroundFlat
        reserved = other.reserved
        (palette, flatLookup, backgroundIndex, layout) = PaletteDiscovery.build(builder, maskFlat, backgroundFlat, reserved, target: target, step: edgeStep)
        // The true-color raster depends on the scene and the target only: for the same format,
        // the same raster, with what it counted.
        gradient = config.hasGradient ? (format == other.format ? other.gradient : GradientRaster(scene: scene, target: target)) : nil
    }

    /// The palette `builder`'s regions and edges build for `target`, with the lookup of each layer
    /// set's flat entry (-1 where that depends on the position) and the background's entry.
    private static func build(_ builder: PaletteBuilder, _ maskFlat: [Int], _ bgFlat: Int, _ reserved: [PremultipliedColor],
                              target: RenderTarget, step: Double) -> (Palette, [Int32], UInt8, ShadeLayout) {
        let (palette, flatIndex, layout) = builder.buildWithShades(target: target, reserved: reserved, step: step)
        var lookup = [Int32](repeating: -1, count: maskFlat.count)
        for (mask, f) in maskFlat.enumerated() where f >= 0 && !target.dependsOnPosition(builder.color(f)) {
            lookup[mask] = Int32(flatIndex[f])
        }
        return (palette, lookup, UInt8(flatIndex[bgFlat]), layout)
    }

    /// Whether a GIF table of `colors` entries must choose its shades again from `usage()`:
    /// a scene without gradients whose palette has more entries than the table leaves for colors.
    public func needsUsage(colors: Int) -> Bool {
        guard case .gif = target, gradient == nil, colors < 256 else { return false }
        return palette.colors.count > PalettePlan.entries(for: colors, palette)
    }

    /// How many pixels of the whole loop draw each entry of the discovered palette (256 counts):
    /// the loop drawn once into `palette` (`threads` as `FrameRenderer.renderAll` takes them; the
    /// count does not depend on them).
    public func usage(threads: Int = 0) -> [Int] {
        var full = config
        full.gif.colors = 256
        full.gif.lossy = 0
        let renderer = FrameRenderer(palette: PalettePlan(self, config: full))
        var counts = [Int](repeating: 0, count: 256)
        renderer.renderAll(threads: threads) { _, frame in
            frame.withUnsafeBufferPointer { for v in $0 { counts[Int(v)] += 1 } }
        }
        return counts
    }

    /// The palette refitted to `budget` entries by the pixels' `usage` (`PaletteBuilder.refit`).
    func refit(usage: [Int], budget: Int) -> Palette {
        // The overlay's colors are sampled on a few frames; the usage counts every frame.
        let frames = timing.frameCount
        return builder.refit(palette, layout: layout, usage: usage, budget: budget, target: target, overlay: overlay,
                             overlayWeight: Double(frames) / Double(max(1, SceneRaster.overlayProbes(frames: frames))))
    }
}

extension RenderTarget {
    /// How `format`'s frames store partly transparent pixels: GIF by `config.gif`, the rest as they are.
    init(format: OutputFormat, config: WaveConfig) {
        switch format {
        case .gif: self = .gif(config.gif)
        case .webp, .apng, .svg, .lottie, .dotlottie: self = .rgba
        }
    }
}
