import WavePlatform

/// Draws the frames of one animation straight into palette indices. Everything that does not change
/// from frame to frame (clip coverage, palette, flat-region lookup, the static background) is
/// prepared once; `render(frame:into:cache:)` is safe to call from several threads at once.
public final class FrameRenderer: Sendable {
    public let config: WaveConfig
    public let plan: LoopPlan
    public let timing: FrameTiming
    public let target: RenderTarget
    public let palette: Palette

    /// Palette entries reserved for the colors a rider and a label produce.
    public static let overlayColors = 48

    let scene: SceneRaster
    /// Palette index of each fully-covering layer set (bit i = layer i), or -1 when that set was never seen.
    let flatLookup: [Int32]
    /// Indices of every pixel with no layer over it (background, ring).
    let baseFrame: [UInt8]
    /// Indices of every pixel with all layers over it (the base frame where there is no water).
    let fullFrame: [UInt8]
    /// Whether frames come with a matte plane (`render(frame:into:matte:cache:)`): lossy GIF frames
    /// (`gif.lossy` above 0) whose partly covered pixels over transparency are blended against `gif.matte`.
    public let marksMatte: Bool
    /// The matte planes of `baseFrame` and `fullFrame` (1: blended against the matte), and the mark
    /// of each flat layer set in `flatLookup`; all empty without `marksMatte`.
    let baseMatte: [UInt8]
    let fullMatte: [UInt8]
    let flatMatte: [UInt8]
    /// The true-color frames of a scene with gradients (nil without), and for a GIF the table its
    /// colors are matched to.
    let gradient: GradientRaster?
    let gradientPalette: GradientPalette?
    /// Whether `render` draws straight RGBA bytes (4 a pixel) rather than palette indices: a scene
    /// with gradients drawn for WebP or PNG, whose colors no palette holds.
    public let drawsTrueColor: Bool

    /// Prepares the frames of `config` for `format`; `label` holds the label's text coverage, placed,
    /// for every text its frames show. The palette is discovered and fitted first (`PalettePlan`).
    public convenience init(config: WaveConfig, plan: LoopPlan, format: OutputFormat, label: LabelTexts? = nil) {
        self.init(palette: PalettePlan(config: config, plan: plan, format: format, label: label))
    }

    /// Prepares the frames of `palette`'s scene, drawn into its palette.
    public init(palette plan: PalettePlan) {
        let discovery = plan.discovery
        let config = plan.config
        self.config = config
        self.plan = discovery.plan
        let timing = discovery.timing
        self.timing = timing
        let target = RenderTarget(format: discovery.format, config: config)
        self.target = target
        let scene = discovery.scene
        self.scene = scene
        let model = scene.model
        let palette = plan.palette
        let lookup = discovery.flatLookup, bgIndex = discovery.backgroundIndex
        let gradient = discovery.gradient
        self.gradient = gradient
        gradientPalette = plan.gradientPalette
        drawsTrueColor = gradient != nil && target == .rgba
        self.palette = palette
        flatLookup = lookup

        // Only a lossy GIF coder reads the plane.
        let marks = target.blendsEdgesWithMatte && palette.transparentIndex != nil && config.gif.lossy > 0 && gradient == nil
        marksMatte = marks
        // The base and full frames are in the wave frame, as `scene` addresses pixels.
        let width = scene.coverage.width, height = scene.coverage.height
        var base = [UInt8](repeating: 0, count: width * height)
        var baseMarks = marks ? base : []
        var cache = ColorCache()
        // A pixel the color of the one looked up last takes its entry, unless the entry depends on
        // where the pixel is (an ordered dither's edge): runs of one color cost no lookup.
        var last: (color: PremultipliedColor, index: UInt8)?
        func index(_ color: PremultipliedColor, _ x: Int, _ y: Int) -> UInt8 {
            if let last, last.color == color, !target.dependsOnPosition(color) { return last.index }
            let i = FrameRenderer.index(of: color, x: x, y: y, target: target, palette: palette, cache: &cache)
            last = (color, i)
            return i
        }
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                let b = Double(scene.coverage.border[i])
                let color = model.background.mixed(with: model.ringColor, b)
                base[i] = b == 0 && !target.dependsOnPosition(model.background) ? bgIndex : index(color, x, y)
                if marks && target.blendsWithMatte(color) { baseMarks[i] = 1 }
            }
        }
        baseFrame = base
        baseMatte = baseMarks
        // Under every layer a pixel's color does not change from frame to frame.
        var full = base, fullMarks = baseMarks
        for y in 0..<height {
            for x in scene.coverage.waterSpans[y] {
                let i = y * width + x
                let w = Double(scene.coverage.water[i])
                guard w > 0 else { continue }
                let water = w == 1 || scene.subcolumnsReachWater(x, y) ? model.allLayersColor : model.background
                let color = scene.mix(water: water, w, ring: Double(scene.coverage.border[i]))
                full[i] = index(color, x, y)
                if marks { fullMarks[i] = target.blendsWithMatte(color) ? 1 : 0 }
            }
        }
        fullFrame = full
        fullMatte = fullMarks
        flatMatte = marks ? lookup.indices.map { lookup[$0] >= 0 && target.blendsWithMatte(model.compositeColor(ofLayers: $0)) ? 1 : 0 } : []
    }

    @inline(__always)
    static func index(of c: PremultipliedColor, x: Int, y: Int, target: RenderTarget, palette: Palette,
                      cache: inout ColorCache) -> UInt8 {
        guard let stored = target.store(c, x: x, y: y) else { return UInt8(palette.transparentIndex ?? 0) }
        return cache.index(of: stored, in: palette)
    }

    /// Draws frame `frame` (0 ≤ frame < timing.frameCount) into `out` (width × height indices).
    public func render(frame: Int, into out: inout [UInt8], cache: inout ColorCache) {
        var none: [UInt8] = []
        render(frame: frame, into: &out, matte: &none, cache: &cache)
    }

    /// Draws frame `frame` into `out`, and with `marksMatte` its matte plane into `matte`: 1 for
    /// each pixel whose color is blended against `gif.matte` (partly covered over transparency),
    /// 0 elsewhere. Without `marksMatte`, `matte` is left empty.
    ///
    /// Only the rows between a column's highest crest and lowest trough change: above them the
    /// pixel is the base frame, below them the full-water frame, both copied. In the band, pixels of
    /// a single flat region take a table lookup, and every other pixel (an edge) is composited
    /// exactly and mapped to its nearest palette entry. The rider and label are drawn last, over
    /// their rectangles. This loop runs for every frame, so it works on raw buffers.
    ///
    /// The frame is drawn in the wave frame, where the water fills upwards, then laid out on the
    /// canvas (a quarter turn or a mirror for the other fill directions).
    public func render(frame: Int, into out: inout [UInt8], matte: inout [UInt8], cache: inout ColorCache) {
        if let gradient {
            renderGradient(gradient, frame: frame, into: &out, cache: &cache)
            matte.removeAll(keepingCapacity: true)
        } else {
            drawWaveFrame(frame: frame, into: &out, matte: &matte, cache: &cache)
        }
        let orientation = scene.model.orientation
        if !orientation.isIdentity {
            out = drawsTrueColor ? orientation.canvasPixels(out, bytesPerPixel: 4) : orientation.canvasPixels(out)
            matte = orientation.canvasPixels(matte)
        }
    }

    /// `render(frame:into:matte:cache:)` in the wave frame: `scene.coverage`'s width × height pixels.
    func drawWaveFrame(frame: Int, into out: inout [UInt8], matte: inout [UInt8], cache: inout ColorCache) {
        let width = scene.coverage.width, height = scene.coverage.height
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: baseFrame)
        matte.removeAll(keepingCapacity: true)
        matte.append(contentsOf: baseMatte)
        guard !scene.waterColumns.isEmpty else { return }
        let f = scene.frame(frame, of: timing.frameCount)
        let model = scene.model
        let columns = scene.waterColumns.count
        let x0 = scene.waterColumns.lowerBound
        // Per column: rows before `top` lie above every surface, rows from `bottom` on below all.
        var top = [Int](repeating: 0, count: columns), bottom = [Int](repeating: 0, count: columns)
        var firstRow = height, fullRow = 0
        for c in 0..<columns {
            let (lo, hi) = f.samples.extent(column: c)
            top[c] = max(0, min(height, Int(lo.rounded(.down))))
            bottom[c] = max(0, min(height, Int(hi.rounded(.up))))
            firstRow = min(firstRow, top[c])
            fullRow = max(fullRow, bottom[c])
        }
        let coverage = scene.coverage
        let target = self.target, palette = self.palette
        matte.withUnsafeMutableBufferPointer { marks in
            out.withUnsafeMutableBufferPointer { o in
                fullFrame.withUnsafeBufferPointer { full in
                    // The matte plane is written beside the indices only when it is asked for.
                    let m = marks.isEmpty ? nil : marks.baseAddress
                    @inline(__always) func put(_ color: PremultipliedColor, _ p: Int, _ x: Int, _ y: Int) {
                        o[p] = FrameRenderer.index(of: color, x: x, y: y, target: target, palette: palette, cache: &cache)
                        if let m { m[p] = target.blendsWithMatte(color) ? 1 : 0 }
                    }
                    for y in firstRow..<height {
                        let span = coverage.waterSpans[y]
                        guard !span.isEmpty else { continue }
                        let row = y * width
                        if y >= fullRow {
                            for x in span { o[row + x] = full[row + x] }
                            if let m { for x in span { m[row + x] = fullMatte[row + x] } }
                            continue
                        }
                        let rowTop = Double(y), rowBottom = Double(y + 1)
                        for x in span {
                            let c = x - x0, p = row + x
                            if y >= bottom[c] {
                                o[p] = full[p]
                                if let m { m[p] = fullMatte[p] }
                                continue
                            }
                            guard y >= top[c] else { continue }
                            if coverage.water[p] == 1 && coverage.border[p] == 0 {
                                let (mask, crossing) = f.samples.layers(column: c, top: rowTop, bottom: rowBottom)
                                if crossing == WaveModel.SurfaceSamples.noSurface {
                                    let index = flatLookup[mask]
                                    if index >= 0 {
                                        o[p] = UInt8(index)
                                        if let m { m[p] = flatMatte[mask] }
                                        continue
                                    }
                                } else if crossing >= 0, let color = singleEdge(mask, crossing, c, rowBottom, f) {
                                    put(color, p, x, y)
                                    continue
                                }
                            }
                            put(scene.color(x, y, f), p, x, y)
                        }
                    }
                    // Each label pixel over flat water is drawn once per layer set and text.
                    let layerBits = model.layerCount
                    let keeps = f.label.map { cache.keepLabel($0, drawnBy: self, layerSets: 1 << layerBits) } ?? false
                    for (rows, cols) in scene.overlayAreas(f) {
                        for y in rows {
                            let span = coverage.waterSpans[y].clamped(to: cols)
                            let rowTop = Double(y), rowBottom = Double(y + 1)
                            for x in span where coverage.water[y * width + x] > 0 {
                                let p = y * width + x
                                let (cx, cy) = scene.canvas(x, y)
                                // `scene.onOverlay`, with whether the rider may show kept for the pixel's color.
                                let riding = scene.onRider(x, y, f)
                                guard riding || (f.label?.covers(cx, cy) ?? false) else { continue }
                                // Label over a single flat region: no need to integrate the pixel.
                                if let label = f.label, !riding, model.hasCompositeTable,
                                   coverage.water[p] == 1, coverage.border[p] == 0 {
                                    let (mask, crossing) = f.samples.layers(column: x - x0, top: rowTop, bottom: rowBottom)
                                    if crossing == WaveModel.SurfaceSamples.noSurface {
                                        let slot = ((cy - label.y) * label.width + (cx - label.x)) << layerBits | mask
                                        if keeps, cache.labelDrawn[slot] != 0 {
                                            let drawn = cache.labelDrawn[slot]
                                            o[p] = UInt8(truncatingIfNeeded: drawn)
                                            if let m { m[p] = UInt8(truncatingIfNeeded: drawn >> 8) & 1 }
                                            continue
                                        }
                                        let color = label.paint(cx, cy, over: model.compositeColor(ofLayers: mask),
                                                                submerged: model.includesFrontLayer(mask) ? 1 : 0)
                                        put(color, p, x, y)
                                        if keeps {
                                            cache.labelDrawn[slot] = 0x200 | UInt16(m?[p] ?? 0) << 8 | UInt16(o[p])
                                        }
                                        continue
                                    }
                                }
                                put(scene.color(x, y, f, riding: riding), p, x, y)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Draws a frame of a scene with gradients in the wave frame: straight RGBA bytes
    /// (`drawsTrueColor`), or for a GIF each pixel's stored color matched to the table the loop's
    /// colors chose (an ordered dither's pattern laid on the wave frame's pixels, as the indexed
    /// renderer's edges are).
    func renderGradient(_ gradient: GradientRaster, frame: Int, into out: inout [UInt8], cache: inout ColorCache) {
        guard let table = gradientPalette else {
            gradient.render(frame: frame, of: timing.frameCount, into: &out)
            return
        }
        var rgba: [UInt8] = []
        gradient.frame(frame, of: timing.frameCount, into: &rgba)
        FrameRenderer.map(rgba, width: scene.coverage.width, table, into: &out, cache: &cache)
    }

    /// The entries of stored colors `rgba` (`width` pixels a row) in `table`: without a dither a
    /// pixel the color of the one before it takes its entry, else each is looked up
    /// (`plainMap`, which it is tested against).
    static func map(_ rgba: [UInt8], width: Int, _ table: GradientPalette, into out: inout [UInt8], cache: inout ColorCache) {
        guard table.ditherLevels == 0 else { return plainMap(rgba, width: width, table, into: &out, cache: &cache) }
        let count = rgba.count / 4
        out = [UInt8](repeating: 0, count: count)
        rgba.withUnsafeBytes { bytes in
            out.withUnsafeMutableBufferPointer { o in
                var last: UInt32 = 0, index: UInt8 = 0
                for p in 0..<count {
                    let v = bytes.loadUnaligned(fromByteOffset: p * 4, as: UInt32.self)
                    if p == 0 || v != last {
                        index = table.index(bytes[p * 4], bytes[p * 4 + 1], bytes[p * 4 + 2], bytes[p * 4 + 3], x: p % width, y: p / width, cache: &cache)
                        last = v
                    }
                    o[p] = index
                }
            }
        }
    }

    /// Every pixel of `rgba` looked up in `table` on its own.
    static func plainMap(_ rgba: [UInt8], width: Int, _ table: GradientPalette, into out: inout [UInt8], cache: inout ColorCache) {
        let count = rgba.count / 4
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(count)
        for p in 0..<count {
            out.append(table.index(rgba[p * 4], rgba[p * 4 + 1], rgba[p * 4 + 2], rgba[p * 4 + 3], x: p % width, y: p / width, cache: &cache))
        }
    }

    /// The color of an interior pixel crossed by exactly one layer's surface, `partial` (the common
    /// edge): the blend of the two flat regions it separates, `mask` and `mask` with that layer, by
    /// the part of the pixel under the layer, exact per sub-column.
    @inline(__always)
    func singleEdge(_ mask: Int, _ partial: Int, _ c: Int, _ bottom: Double, _ f: SceneRaster.Frame) -> PremultipliedColor? {
        let model = scene.model
        guard model.hasCompositeTable else { return nil }
        return model.compositeColor(ofLayers: mask).mixed(with: model.compositeColor(ofLayers: mask | 1 << partial),
                                                          f.samples.fractionBelow(layer: partial, column: c, bottom: bottom))
    }
}

/// Remembers the palette index chosen for each stored color, so a nearest-color search runs once
/// per color: a small open-addressing table, emptied when it fills up (the answer for a color never
/// depends on what is cached). One cache serves one palette (its entries, premultiplied for the
/// search, are taken at the first miss).
public struct ColorCache {
    private static let slots = 1 << 12
    private var keys = [UInt32](repeating: 0, count: slots)
    private var values = [UInt8](repeating: 0, count: slots)
    private var used = [Bool](repeating: false, count: slots)
    private var count = 0
    /// The palette's premultiplied entries by channel sum, taken at the first miss (a cache serves
    /// one palette).
    private var entries = Palette.SortedEntries([])

    /// What one renderer drew for the pixels of one label text over flat water: per pixel of the
    /// text's mask and layer set under it, 0 when not drawn yet, else 0x200 | matte mark << 8 |
    /// palette index (`FrameRenderer.drawWaveFrame`). The answer depends only on the pixel, the
    /// layer set, the text and the renderer, so it is kept while those stay.
    var labelDrawn: [UInt16] = []
    private var labelOwner: AnyObject?
    private var labelText: LabelOverlay?

    public init() {}

    /// Readies `labelDrawn` for `overlay` drawn by `owner` with `layerSets` layer sets; false
    /// (nothing kept) when the mask is too large to keep.
    @inline(__always)
    mutating func keepLabel(_ overlay: LabelOverlay, drawnBy owner: AnyObject, layerSets: Int) -> Bool {
        let size = overlay.width * overlay.height * layerSets
        guard size > 0, size <= 1 << 20 else { return false }
        if labelOwner === owner, labelText == overlay { return true }
        labelOwner = owner
        labelText = overlay
        labelDrawn = [UInt16](repeating: 0, count: size)
        return true
    }

    @inline(__always)
    mutating func index(of c: RGBA, in palette: Palette) -> UInt8 {
        let key = UInt32(c.r) << 24 | UInt32(c.g) << 16 | UInt32(c.b) << 8 | UInt32(c.a)
        let mask = ColorCache.slots - 1
        var h = Int((key &* 2_654_435_761) >> 20) & mask
        while used[h] {
            if keys[h] == key { return values[h] }
            h = (h + 1) & mask
        }
        if entries.count != palette.colors.count { entries = Palette.SortedEntries(palette.premultipliedEntries) }
        let i = UInt8(Palette.nearestIndex(to: c, in: entries))
        if count >= ColorCache.slots * 3 / 4 {
            for j in 0..<ColorCache.slots { used[j] = false }
            count = 0
            h = Int((key &* 2_654_435_761) >> 20) & mask
        }
        used[h] = true
        keys[h] = key
        values[h] = i
        count += 1
        return i
    }
}
