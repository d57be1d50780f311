import WavePlatform

/// The parts of a scene that never change, and the exact color of any pixel of any frame. The
/// frame renderer uses it for every pixel that is not a plain flat region; the palette builder uses
/// it to see which colors a rider really produces.
///
/// Pixels are addressed in the wave frame (`WaveModel.orientation`: the canvas itself for `up`),
/// where the water fills upwards and the exact column coverage applies; the rider and the label
/// stay upright on the canvas, so they are asked at the canvas pixel each wave-frame pixel is.
struct SceneRaster: Sendable {
    let config: WaveConfig
    /// The surfaces, the layer sets' colours and the clip.
    let model: WaveModel
    let coverage: StaticCoverage
    let rider: RiderRaster?
    /// The label's text on every frame (nil without a label).
    let label: LabelTexts?

    /// The water region's extents in every sub-column (index x × `subsamples` + s, top first).
    let waterChords: [[(top: Double, bottom: Double)]]

    /// Sub-columns per pixel column; coverage in y is exact within each.
    static let subsamples = 16
    /// Layer sets whose composite under a rider `color` keeps per pixel.
    static let memoCapacity = 8

    init(config: WaveConfig, plan: LoopPlan, label: LabelTexts? = nil) {
        self.label = label
        self.config = config
        let model = WaveModel(config: config, plan: plan)
        self.model = model
        coverage = StaticCoverage(model: model)
        rider = config.rider.map(RiderRaster.init)
        let n = SceneRaster.subsamples
        // A path's chords cross every edge of its outline: those are worth the cores.
        let chords: @Sendable (Int) -> [(top: Double, bottom: Double)] = { i in
            model.waterChords(atX: Double(i / n) + (Double(i % n) + 0.5) / Double(n))
        }
        let columns = model.orientation.width * n
        if case .path = model.waveOutline.shape {
            waterChords = Concurrently.map(columns, chords)
        } else {
            waterChords = (0..<columns).map(chords)
        }
    }

    /// Columns holding any water.
    var waterColumns: Range<Int> { coverage.waterColumns }

    /// Everything about one frame that the pixels of that frame share.
    struct Frame {
        var surfaces: WaveModel.Surfaces
        /// The surfaces at every sub-column of the water columns.
        var samples: WaveModel.SurfaceSamples
        var placement: RiderRaster.Placement?
        /// The label's text as this frame shows it.
        var label: LabelOverlay?
    }

    func frame(_ index: Int, of count: Int) -> Frame {
        let surfaces = model.surfaces(frame: index, of: count)
        let samples = surfaces.sampleSubcolumns(columns: waterColumns, subsamples: SceneRaster.subsamples)
        let placement = rider?.place(on: surfaces, box: model.waveBox, orientation: model.orientation)
        return Frame(surfaces: surfaces, samples: samples, placement: placement, label: label?.overlay(frame: index, of: count))
    }

    /// The canvas pixel that wave-frame pixel (x, y) is.
    @inline(__always)
    func canvas(_ x: Int, _ y: Int) -> (x: Int, y: Int) {
        model.orientation.canvasPixel(x, y)
    }

    /// Whether wave-frame pixel (x, y) may show the rider in this frame.
    @inline(__always)
    func onRider(_ x: Int, _ y: Int, _ f: Frame) -> Bool {
        guard let p = f.placement else { return false }
        let (cx, cy) = canvas(x, y)
        return p.rows.contains(cy) && p.columns.contains(cx) && rider!.covers(cx, cy, p)
    }

    /// Whether wave-frame pixel (x, y) may show the rider or the label in this frame.
    @inline(__always)
    func onOverlay(_ x: Int, _ y: Int, _ f: Frame) -> Bool {
        onRider(x, y, f) || (f.label.map { l in let (cx, cy) = canvas(x, y); return l.covers(cx, cy) } ?? false)
    }

    /// The exact premultiplied color of pixel (x, y) inside the water spans. In each of the pixel's
    /// sub-columns the surfaces cut the pixel's height into segments, each covered by a known set of
    /// layers, so overlapping layers are composited exactly rather than as independent coverages.
    /// On the water region's edge only the part of each sub-column inside the region counts, so the
    /// layers seen there are the ones really inside. Then the pixel's regions (outside, water, ring)
    /// are mixed by area. `remember` false composites every segment anew and integrates every
    /// pixel, flat or not (the plain form the shortcuts are tested against).
    ///
    /// `local`, for a scene with gradients, holds the colors at the canvas pixel's center
    /// (`ScenePaint` at `canvas(x, y)`); without it the colors are the model's flat ones.
    /// `riding`, when the caller knows it, is `onRider(x, y, f)`; `riderSample`, when the caller
    /// has taken it, is the rider's sample there (`RiderRaster.sample`), used when riding.
    func color(_ x: Int, _ y: Int, _ f: Frame, local: LocalColors? = nil, remember: Bool = true, riding: Bool? = nil,
               riderSample: PremultipliedColor? = nil) -> PremultipliedColor {
        let p = y * coverage.width + x
        let (cx, cy) = canvas(x, y)
        let w = Double(coverage.water[p])
        let n = SceneRaster.subsamples
        let c = x - waterColumns.lowerBound
        let bottom = Double(y + 1), top = Double(y)
        let layerCount = model.layerCount
        let riderColor = riding ?? onRider(x, y, f) ? riderSample ?? rider!.sample(cx, cy, f.placement!) : nil
        let riderLayer = rider?.rider.layer ?? -1
        var sum = PremultipliedColor.clear
        var submerged = 0.0
        var inside = 0.0, used = 0
        let edge = w < 1
        let labelled = f.label?.covers(cx, cy) ?? false
        if remember, !edge {
            let (mask, crossing) = f.samples.layers(column: c, top: top, bottom: bottom)
            var whole: (water: PremultipliedColor, submerged: Double)?
            if crossing == WaveModel.SurfaceSamples.noSurface {
                // Under a label the front surface lies wholly above the pixel (every sub-column's
                // part below it is 1, their mean 1) or wholly below it (0).
                whole = (flatColor(mask, riderColor, riderLayer, local: local), model.includesFrontLayer(mask) ? 1 : 0)
            } else if crossing >= 0, riderColor == nil {
                whole = singleCrossing(mask, crossing, c, top, bottom, f, riderLayer, labelled: labelled, local: local)
            }
            if let (flat, under) = whole {
                var water = flat
                if labelled, let label = f.label { water = label.paint(cx, cy, over: flat, submerged: under) }
                if let local { return mix(water: water, w, ring: Double(coverage.border[p]), background: local.background, ringColor: local.ring) }
                return mix(water: water, w, ring: Double(coverage.border[p]))
            }
        }
        // Under a rider each segment's color is composited anew; a pixel's segments share a few
        // layer sets, so each set's color is kept once computed (the same call gives the same value).
        withUnsafeTemporaryAllocation(of: (mask: Int, color: PremultipliedColor).self, capacity: SceneRaster.memoCapacity) { memo in
            withUnsafeTemporaryAllocation(of: (Double, Int).self, capacity: layerCount) { cuts in
                var memoCount = 0
                for s in 0..<n {
                    let chords = edge ? waterChords[x * n + s].count : 1
                    for r in 0..<chords {
                        let (chordTop, chordBottom) = edge ? waterChords[x * n + s][r] : (top, bottom)
                        let lo = max(top, chordTop), hi = min(bottom, chordBottom)
                        guard hi > lo else { continue }
                        inside += hi - lo
                        used += 1
                        // Surfaces above the segment's top cover all of it; those inside cut it, in order.
                        var mask = 0, cutCount = 0
                        for i in 0..<layerCount {
                            let v = f.samples.height(layer: i, column: c, subcolumn: s)
                            if v <= lo {
                                mask |= 1 << i
                            } else if v < hi {
                                var j = cutCount
                                while j > 0 && cuts[j - 1].0 > v { cuts[j] = cuts[j - 1]; j -= 1 }
                                cuts[j] = (v, i)
                                cutCount += 1
                            }
                        }
                        // Each segment shows its layer set, with the rider after its layer.
                        var a = lo
                        for j in 0..<cutCount {
                            let (v, i) = cuts[j]
                            let color = SceneRaster.composite(mask, model, local, riderColor, riderLayer, memo, &memoCount, remember), length = v - a
                            sum = PremultipliedColor(r: sum.r + color.r * length, g: sum.g + color.g * length,
                                                     b: sum.b + color.b * length, a: sum.a + color.a * length)
                            mask |= 1 << i
                            a = v
                        }
                        let color = SceneRaster.composite(mask, model, local, riderColor, riderLayer, memo, &memoCount, remember), length = hi - a
                        sum = PremultipliedColor(r: sum.r + color.r * length, g: sum.g + color.g * length,
                                                 b: sum.b + color.b * length, a: sum.a + color.a * length)
                        if labelled {
                            let front = f.samples.height(layer: model.frontLayer, column: c, subcolumn: s)
                            submerged += model.fractionBelow(surface: front, top: lo, bottom: hi)
                        }
                    }
                }
            }
        }
        // The average over the part of the pixel inside the water region (its area, w, comes from
        // the finer static coverage).
        let k = inside > 0 ? 1 / inside : 0
        var water = inside > 0 ? PremultipliedColor(r: sum.r * k, g: sum.g * k, b: sum.b * k, a: sum.a * k) : local?.background ?? model.background
        if labelled, let label = f.label { water = label.paint(cx, cy, over: water, submerged: used > 0 ? submerged / Double(used) : 0) }
        if let local { return mix(water: water, w, ring: Double(coverage.border[p]), background: local.background, ringColor: local.ring) }
        return mix(water: water, w, ring: Double(coverage.border[p]))
    }

    /// The water's color over a whole interior pixel that no surface crosses, under layer set
    /// `mask`: what `color` integrates over its sub-columns there, where every segment is the whole
    /// pixel (height 1) under the same layer set, with the same operations (the set's color added
    /// once per sub-column, times the pixel's height, then divided by the summed heights), without
    /// measuring each sub-column.
    @inline(__always)
    func flatColor(_ mask: Int, _ rider: PremultipliedColor?, _ riderLayer: Int,
                   local: LocalColors? = nil) -> PremultipliedColor {
        let color = local?.composite(mask, rider: rider, afterLayer: riderLayer)
            ?? model.compositeColor(ofLayers: mask, rider: rider, afterLayer: riderLayer)
        let length = 1.0
        var sum = PremultipliedColor.clear
        var inside = 0.0
        for _ in 0..<SceneRaster.subsamples {
            inside += length
            sum = PremultipliedColor(r: sum.r + color.r * length, g: sum.g + color.g * length,
                                     b: sum.b + color.b * length, a: sum.a + color.a * length)
        }
        let k = 1 / inside
        return PremultipliedColor(r: sum.r * k, g: sum.g * k, b: sum.b * k, a: sum.a * k)
    }

    /// The water's color over a whole interior pixel of column `c` (rows `top`…`top + 1`) that
    /// only layer `crossing`'s surface crosses, with no rider, under layer set `mask` above that
    /// surface, and the part of the pixel under the front surface: what `color` integrates over its
    /// sub-columns there, with the same operations in the same order (each sub-column's one or two
    /// segments, the two layer sets' colors composited once instead of per segment).
    @inline(__always)
    func singleCrossing(_ mask: Int, _ crossing: Int, _ c: Int, _ top: Double, _ bottom: Double, _ f: Frame,
                        _ riderLayer: Int, labelled: Bool, local: LocalColors?) -> (PremultipliedColor, Double) {
        let above = local?.composite(mask) ?? model.compositeColor(ofLayers: mask, rider: nil, afterLayer: riderLayer)
        let below = local?.composite(mask | 1 << crossing)
            ?? model.compositeColor(ofLayers: mask | 1 << crossing, rider: nil, afterLayer: riderLayer)
        let front = model.frontLayer
        // The front surface, when it does not cross the pixel, lies wholly above it or below it.
        let frontWhole = model.includesFrontLayer(mask) ? 1.0 : 0.0
        let lo = top, hi = bottom
        var sum = PremultipliedColor.clear
        var submerged = 0.0, inside = 0.0
        @inline(__always) func add(_ color: PremultipliedColor, _ length: Double) {
            sum = PremultipliedColor(r: sum.r + color.r * length, g: sum.g + color.g * length,
                                     b: sum.b + color.b * length, a: sum.a + color.a * length)
        }
        for s in 0..<SceneRaster.subsamples {
            inside += hi - lo
            let v = f.samples.height(layer: crossing, column: c, subcolumn: s)
            if v <= lo {
                add(below, hi - lo)
            } else if v < hi {
                add(above, v - lo)
                add(below, hi - v)
            } else {
                add(above, hi - lo)
            }
            if labelled {
                submerged += crossing == front ? model.fractionBelow(surface: v, top: lo, bottom: hi) : frontWhole
            }
        }
        let k = 1 / inside
        return (PremultipliedColor(r: sum.r * k, g: sum.g * k, b: sum.b * k, a: sum.a * k),
                submerged / Double(SceneRaster.subsamples))
    }

    /// The color of layer set `mask` with `rider` (if any) after layer `riderLayer`, from `local`
    /// (one pixel's gradient colors) when given, else the model's: under a rider looked up in `memo`
    /// (its first `count` entries, kept for one pixel) or composited and, with `remember`, kept there.
    @inline(__always)
    static func composite(_ mask: Int, _ model: WaveModel, _ local: LocalColors?, _ rider: PremultipliedColor?, _ riderLayer: Int,
                          _ memo: UnsafeMutableBufferPointer<(mask: Int, color: PremultipliedColor)>, _ count: inout Int,
                          _ remember: Bool) -> PremultipliedColor {
        guard let rider else {
            return local?.composite(mask) ?? model.compositeColor(ofLayers: mask, rider: nil, afterLayer: riderLayer)
        }
        for i in 0..<count where memo[i].mask == mask { return memo[i].color }
        let color = local?.composite(mask, rider: rider, afterLayer: riderLayer)
            ?? model.compositeColor(ofLayers: mask, rider: rider, afterLayer: riderLayer)
        if remember, count < memo.count {
            memo[count] = (mask, color)
            count += 1
        }
        return color
    }

    /// Whether any sub-column of an edge pixel reaches into the water region (the test `color`
    /// uses to decide whether the pixel shows water at all).
    func subcolumnsReachWater(_ x: Int, _ y: Int) -> Bool {
        let n = SceneRaster.subsamples
        for s in 0..<n {
            for (a, b) in waterChords[x * n + s] where min(Double(y + 1), b) > max(Double(y), a) { return true }
        }
        return false
    }

    /// A pixel's color from the area of it inside the water region (`water` the color there), under
    /// the border ring, and the rest showing the background.
    @inline(__always)
    func mix(water: PremultipliedColor, _ w: Double, ring b: Double) -> PremultipliedColor {
        mix(water: water, w, ring: b, background: model.background, ringColor: model.ringColor)
    }

    /// `mix(water:_:ring:)` with the background's and the ring's colors given (a gradient scene's at
    /// the pixel).
    @inline(__always)
    func mix(water: PremultipliedColor, _ w: Double, ring b: Double, background: PremultipliedColor,
             ringColor: PremultipliedColor) -> PremultipliedColor {
        let rest = max(0, 1 - w - b)
        return PremultipliedColor(r: background.r * rest + water.r * w + ringColor.r * b,
                                  g: background.g * rest + water.g * w + ringColor.g * b,
                                  b: background.b * rest + water.b * w + ringColor.b * b,
                                  a: background.a * rest + water.a * w + ringColor.a * b)
    }

    /// How many frames `overlayColors` samples, of a loop of `count`.
    static func overlayProbes(frames count: Int) -> Int { min(8, count) }

    /// The rectangles (rows, columns) of the wave frame the rider and the label may touch in a frame.
    func overlayAreas(_ f: SceneRaster.Frame) -> [(Range<Int>, Range<Int>)] {
        var areas: [(Range<Int>, Range<Int>)] = []
        if let p = f.placement { areas.append((p.rows, p.columns)) }
        if let l = f.label {
            areas.append((max(0, l.y)..<max(0, min(config.height, l.y + l.height)), max(0, l.x)..<max(0, min(config.width, l.x + l.width))))
        }
        let orientation = model.orientation
        return orientation.isIdentity ? areas : areas.map { orientation.wavePixels(rows: $0.0, columns: $0.1) }
    }

    /// The colors the rider and the label produce over a few frames spread across the loop, for the
    /// palette; each probed frame shows its own text, so a label that follows the level is sampled
    /// at several levels and texts (every text uses the same colours over the same water). The
    /// probed frames are drawn on the cores, their colors put together in frame order.
    func overlayColors(frames count: Int) -> [PremultipliedColor] {
        guard rider != nil || label != nil, count > 0 else { return [] }
        let probes = SceneRaster.overlayProbes(frames: count)
        let parts = SharedSlots<[PremultipliedColor]>(count: probes)
        let work: @Sendable (Int) -> Void = { j in parts.set(j, self.overlayColors(frame: j * count / probes, of: count)) }
        Concurrently.perform(probes, work)
        return parts.values.flatMap { $0 ?? [] }
    }

    /// The colors the rider and the label produce in frame `index` of `count`: every water pixel
    /// where the rider's sample is more than 2 % opaque or the label covers it.
    func overlayColors(frame index: Int, of count: Int) -> [PremultipliedColor] {
        var out: [PremultipliedColor] = []
        let f = frame(index, of: count)
        for (rows, columns) in overlayAreas(f) {
            for y in rows {
                for x in columns where coverage.waterSpans[y].contains(x) && coverage.water[y * coverage.width + x] > 0 {
                    let (cx, cy) = canvas(x, y)
                    // Where the rider cannot reach (`RiderRaster.covers`) its sample is clear: not sampled.
                    var sample: PremultipliedColor?
                    if let p = f.placement, rider!.covers(cx, cy, p) { sample = rider!.sample(cx, cy, p) }
                    guard (sample?.a ?? 0) > 0.02 || (f.label?.covers(cx, cy) ?? false) else { continue }
                    // The pixel's color with the sample just taken when it shows the rider (`onRider`).
                    let riding = sample != nil && f.placement!.rows.contains(cy) && f.placement!.columns.contains(cx)
                    out.append(color(x, y, f, riding: riding, riderSample: riding ? sample : nil))
                }
            }
        }
        return out
    }

    /// `overlayColors(frames:)` as it was first written: one frame after the other, the rider
    /// sampled at every pixel of its rectangle and again for the pixel's color, every pixel's color
    /// integrated over its sub-columns (the plain form the threads, the skipped samples and the
    /// shortcuts of `color` are tested against).
    func referenceOverlayColors(frames count: Int) -> [PremultipliedColor] {
        guard rider != nil || label != nil, count > 0 else { return [] }
        var out: [PremultipliedColor] = []
        let probes = SceneRaster.overlayProbes(frames: count)
        for j in 0..<probes {
            let f = frame(j * count / probes, of: count)
            for (rows, columns) in overlayAreas(f) {
                for y in rows {
                    for x in columns where coverage.waterSpans[y].contains(x) && coverage.water[y * coverage.width + x] > 0 {
                        let (cx, cy) = canvas(x, y)
                        let riderHere = f.placement.map { rider!.sample(cx, cy, $0).a > 0.02 } ?? false
                        if riderHere || (f.label?.covers(cx, cy) ?? false) { out.append(color(x, y, f, remember: false)) }
                    }
                }
            }
        }
        return out
    }
}
