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
        for i in 0..<layerCount {
            for c in 0..<columns {
                var lo = Double.infinity, hi = -Double.infinity
                for s in 0..<n {
                    let y = geometry.surface(layer: i, x: Double(x0 + c) + (Double(s) + 0.5) / Double(n))
                    samples[(i * columns + c) * n + s] = y
                    lo = min(lo, y)
                    hi = max(hi, y)
                }
                minY[i * columns + c] = lo
                maxY[i * columns + c] = hi
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

    /// The exact premultiplied color of pixel (x, y) inside the water spans: the water region's
    /// layers (and rider) composited with their coverage, then the pixel's regions (outside, water,
    /// ring) mixed by area, so that layers and clip edges never conflate.
    func color(_ x: Int, _ y: Int, _ f: Frame) -> PremultipliedColor {
        let p = y * config.width + x
        let w = Double(coverage.water[p])
        let columns = waterColumns.count, n = SceneRaster.subsamples
        let c = x - waterColumns.lowerBound
        let bottom = Double(y + 1), top = Double(y)
        let riderLayer = onRider(x, y, f) ? rider!.rider.layer : -1
        var water = background
        var cov = 0.0
        for i in 0..<layerColors.count {
            let k = i * columns + c
            if f.maxY[k] <= top { cov = 1 } else if f.minY[k] >= bottom { cov = 0 } else {
                var sum = 0.0
                let base = k * n
                for s in 0..<n { sum += min(1, max(0, bottom - f.samples[base + s])) }
                cov = sum / Double(n)
            }
            if cov > 0 { water = water.under(layerColors[i], coverage: cov) }
            if i == riderLayer { water = water.under(rider!.sample(x, y, f.placement!), coverage: 1) }
        }
        if let label, label.covers(x, y) { water = label.paint(x, y, over: water, submerged: cov) }
        return mix(water: water, w, ring: Double(coverage.border[p]))
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
