import Foundation

/// The parts of a scene that never change, and the exact color of any pixel of any frame. The
/// frame renderer uses it for every pixel that is not a plain flat region; the palette builder uses
/// it to see which colors a rider really produces.
struct SceneRaster: Sendable {
    let config: WaveConfig
    let plan: LoopPlan
    let coverage: StaticCoverage
    let background: PremultipliedColor
    let layerColors: [PremultipliedColor]
    /// The border ring's color over the background.
    let ringColor: PremultipliedColor
    /// Columns holding any water.
    let waterColumns: Range<Int>
    let rider: RiderRaster?
    let label: LabelOverlay?
    /// The outline, for the water's extent in each sub-column of an edge pixel.
    let outline: OutlineGeometry
    /// Border width plus gap: how far the water region lies inside the outline.
    let ring: Double

    /// Sub-columns per pixel column; coverage in y is exact within each.
    static let subsamples = 16

    init(config: WaveConfig, plan: LoopPlan, label: LabelOverlay? = nil) {
        self.label = label
        self.config = config
        self.plan = plan
        coverage = StaticCoverage(config: config)
        background = PremultipliedColor(config.background)
        ringColor = background.under(config.border.map { PremultipliedColor($0.color) } ?? .clear, coverage: 1)
        layerColors = config.layers.map { PremultipliedColor($0.color, opacity: $0.opacity) }
        var lo = config.width, hi = 0
        for span in coverage.waterSpans where !span.isEmpty {
            lo = min(lo, span.lowerBound)
            hi = max(hi, span.upperBound)
        }
        waterColumns = lo < hi ? lo..<hi : 0..<0
        rider = config.rider.map(RiderRaster.init)
        outline = OutlineGeometry(shape: config.shape, box: config.outline)
        ring = config.border.map { $0.width + $0.gap } ?? 0
    }

    /// Everything about one frame that the pixels of that frame share.
    struct Frame {
        var geometry: SurfaceGeometry
        /// Surface heights at every sub-column, per layer: [(layer × columns + column) × subsamples + s].
        var samples: [Double]
        /// Each column's highest and lowest surface point, per layer: [layer × columns + column].
        var minY: [Double]
        var maxY: [Double]
        var placement: RiderRaster.Placement?
    }

    func frame(_ index: Int, of count: Int) -> Frame {
        var geometry = SurfaceGeometry(config: config, plan: plan)
        geometry.prepare(frame: index, of: count)
        let layerCount = config.layers.count, columns = waterColumns.count, n = SceneRaster.subsamples
        let x0 = waterColumns.lowerBound
        var samples = [Double](repeating: 0, count: layerCount * columns * n)
        var minY = [Double](repeating: .infinity, count: layerCount * columns)
        var maxY = [Double](repeating: -.infinity, count: layerCount * columns)
        samples.withUnsafeMutableBufferPointer { samples in
            for i in 0..<layerCount {
                let layer = config.layers[i]
                let base = geometry.base[i], amplitude = layer.amplitude
                let k = 2 * Double.pi / layer.wavelength
                // Sub-columns are evenly spaced, so the sine advances by a fixed rotation; it is
                // seeded afresh with sin and cos at every column.
                let step = k / Double(n), stepSin = sin(step), stepCos = cos(step)
                for c in 0..<columns {
                    let x = Double(x0 + c) + 0.5 / Double(n)
                    let theta = k * (x - config.box.x) + 2 * Double.pi * geometry.phase[i]
                    var sine = sin(theta), cosine = cos(theta)
                    var lo = Double.infinity, hi = -Double.infinity
                    let row = (i * columns + c) * n
                    for s in 0..<n {
                        let y = base - amplitude * sine
                        samples[row + s] = y
                        lo = min(lo, y)
                        hi = max(hi, y)
                        (sine, cosine) = (sine * stepCos + cosine * stepSin, cosine * stepCos - sine * stepSin)
                    }
                    minY[i * columns + c] = lo
                    maxY[i * columns + c] = hi
                }
            }
        }
        let placement = rider?.place(on: geometry, box: config.box, canvasWidth: config.width, canvasHeight: config.height)
        return Frame(geometry: geometry, samples: samples, minY: minY, maxY: maxY, placement: placement)
    }

    /// Whether pixel (x, y) may show the rider in this frame.
    @inline(__always)
    func onRider(_ x: Int, _ y: Int, _ f: Frame) -> Bool {
        guard let p = f.placement else { return false }
        return p.rows.contains(y) && p.columns.contains(x)
    }

    /// Whether pixel (x, y) may show the rider or the label in this frame.
    @inline(__always)
    func onOverlay(_ x: Int, _ y: Int, _ f: Frame) -> Bool {
        onRider(x, y, f) || (label?.covers(x, y) ?? false)
    }

    /// The exact premultiplied color of pixel (x, y) inside the water spans. In each of the pixel's
    /// sub-columns the surfaces cut the pixel's height into segments, each covered by a known set of
    /// layers, so overlapping layers are composited exactly rather than as independent coverages.
    /// On the water region's edge only the part of each sub-column inside the region counts, so the
    /// layers seen there are the ones really inside. Then the pixel's regions (outside, water, ring)
    /// are mixed by area.
    func color(_ x: Int, _ y: Int, _ f: Frame) -> PremultipliedColor {
        let p = y * config.width + x
        let w = Double(coverage.water[p])
        let columns = waterColumns.count, n = SceneRaster.subsamples
        let c = x - waterColumns.lowerBound
        let bottom = Double(y + 1), top = Double(y)
        let layerCount = layerColors.count
        let riderColor = onRider(x, y, f) ? rider!.sample(x, y, f.placement!) : nil
        let riderLayer = rider?.rider.layer ?? -1
        var sum = PremultipliedColor.clear
        var submerged = 0.0
        var inside = 0.0, used = 0
        let edge = w < 1
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * layerCount + 2) { buffer in
            let ys = buffer.baseAddress!, cuts = ys + layerCount
            for s in 0..<n {
                var lo = top, hi = bottom
                if edge {
                    guard let (a, b) = outline.chord(x: Double(x) + (Double(s) + 0.5) / Double(n), inset: ring) else { continue }
                    lo = max(lo, a)
                    hi = min(hi, b)
                    guard hi > lo else { continue }
                }
                inside += hi - lo
                used += 1
                var cutCount = 0
                cuts[cutCount] = lo
                cutCount += 1
                for i in 0..<layerCount {
                    let v = f.samples[(i * columns + c) * n + s]
                    ys[i] = v
                    if v > lo && v < hi {
                        // Insertion into the sorted cut list.
                        var j = cutCount
                        while j > 1 && cuts[j - 1] > v { cuts[j] = cuts[j - 1]; j -= 1 }
                        cuts[j] = v
                        cutCount += 1
                    }
                }
                cuts[cutCount] = hi
                cutCount += 1
                for k in 0..<(cutCount - 1) {
                    let a = cuts[k], length = cuts[k + 1] - a
                    guard length > 0 else { continue }
                    // Layers whose surface lies at or above the segment cover it.
                    var color = background
                    for i in 0..<layerCount {
                        if ys[i] <= a { color = color.under(layerColors[i], coverage: 1) }
                        if i == riderLayer, let r = riderColor { color = color.under(r, coverage: 1) }
                    }
                    sum = PremultipliedColor(r: sum.r + color.r * length, g: sum.g + color.g * length,
                                             b: sum.b + color.b * length, a: sum.a + color.a * length)
                }
                submerged += max(0, hi - max(lo, ys[layerCount - 1])) / (hi - lo)
            }
        }
        // The average over the part of the pixel inside the water region (its area, w, comes from
        // the finer static coverage).
        let k = inside > 0 ? 1 / inside : 0
        var water = inside > 0 ? PremultipliedColor(r: sum.r * k, g: sum.g * k, b: sum.b * k, a: sum.a * k) : background
        if let label, label.covers(x, y) { water = label.paint(x, y, over: water, submerged: used > 0 ? submerged / Double(used) : 0) }
        return mix(water: water, w, ring: Double(coverage.border[p]))
    }

    /// Whether any sub-column of an edge pixel reaches into the water region (the test `color`
    /// uses to decide whether the pixel shows water at all).
    func subcolumnsReachWater(_ x: Int, _ y: Int) -> Bool {
        let n = SceneRaster.subsamples
        for s in 0..<n {
            guard let (a, b) = outline.chord(x: Double(x) + (Double(s) + 0.5) / Double(n), inset: ring) else { continue }
            if min(Double(y + 1), b) > max(Double(y), a) { return true }
        }
        return false
    }

    /// A pixel's color from the area of it inside the water region (`water` the color there), under
    /// the border ring, and the rest showing the background.
    @inline(__always)
    func mix(water: PremultipliedColor, _ w: Double, ring b: Double) -> PremultipliedColor {
        let rest = max(0, 1 - w - b)
        return PremultipliedColor(r: background.r * rest + water.r * w + ringColor.r * b,
                                  g: background.g * rest + water.g * w + ringColor.g * b,
                                  b: background.b * rest + water.b * w + ringColor.b * b,
                                  a: background.a * rest + water.a * w + ringColor.a * b)
    }

    /// The colors the rider and the label produce over a few frames spread across the loop, for the palette.
    func overlayColors(frames count: Int, probes: Int = 8) -> [PremultipliedColor] {
        guard rider != nil || label != nil, count > 0 else { return [] }
        var out: [PremultipliedColor] = []
        for j in 0..<min(probes, count) {
            let f = frame(j * count / min(probes, count), of: count)
            var area: [(Range<Int>, Range<Int>)] = []
            if let p = f.placement { area.append((p.rows, p.columns)) }
            if let l = label { area.append((max(0, l.y)..<min(config.height, l.y + l.height), max(0, l.x)..<min(config.width, l.x + l.width))) }
            for (rows, columns) in area {
                for y in rows {
                    for x in columns where coverage.waterSpans[y].contains(x) && coverage.water[y * config.width + x] > 0 {
                        let riderHere = f.placement.map { rider!.sample(x, y, $0).a > 0.02 } ?? false
                        if riderHere || (label?.covers(x, y) ?? false) { out.append(color(x, y, f)) }
                    }
                }
            }
        }
        return out
    }
}

/// Median cut: up to `count` colors standing for `colors`, deterministic for the same input.
func medianCut(_ colors: [PremultipliedColor], count: Int) -> [PremultipliedColor] {
    guard !colors.isEmpty, count > 0 else { return [] }
    var points = colors.map { [$0.r, $0.g, $0.b, $0.a] }
    var boxes: [Range<Int>] = [0..<points.count]
    func widest(_ r: Range<Int>) -> (Double, Int) {
        var lo = [Double](repeating: .infinity, count: 4), hi = [Double](repeating: -.infinity, count: 4)
        for p in points[r] { for k in 0..<4 { lo[k] = min(lo[k], p[k]); hi[k] = max(hi[k], p[k]) } }
        let widths = (0..<4).map { hi[$0] - lo[$0] }
        let axis = widths.firstIndex(of: widths.max()!)!
        return (widths[axis], axis)
    }
    while boxes.count < count {
        var best: (index: Int, width: Double, axis: Int)?
        for (i, r) in boxes.enumerated() where r.count > 1 {
            let (w, axis) = widest(r)
            if best == nil || w > best!.width { best = (i, w, axis) }
        }
        guard let b = best, b.width > 0.5 / 255 else { break }
        let r = boxes[b.index]
        points[r].sort { $0[b.axis] < $1[b.axis] || ($0[b.axis] == $1[b.axis] && $0.lexicographicallyPrecedes($1)) }
        let mid = r.lowerBound + r.count / 2
        boxes[b.index] = r.lowerBound..<mid
        boxes.append(mid..<r.upperBound)
    }
    return boxes.map { r in
        var sum = [0.0, 0.0, 0.0, 0.0]
        for p in points[r] { for k in 0..<4 { sum[k] += p[k] } }
        let n = Double(r.count)
        return PremultipliedColor(r: sum[0] / n, g: sum[1] / n, b: sum[2] / n, a: sum[3] / n)
    }
}
