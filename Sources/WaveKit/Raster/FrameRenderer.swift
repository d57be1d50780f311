import Foundation

/// Draws the frames of one animation straight into palette indices. Everything that does not change
/// from frame to frame (clip coverage, palette, flat-region lookup, the static background) is
/// prepared once; `render(frame:into:cache:)` is safe to call from several threads at once.
public final class FrameRenderer: Sendable {
    public let config: WaveConfig
    public let plan: LoopPlan
    public let timing: FrameTiming
    public let target: RenderTarget
    public let palette: Palette

    /// Sub-columns per pixel column; coverage in y is exact within each.
    public static let subsamples = 16

    let coverage: StaticCoverage
    let background: PremultipliedColor
    let layerColors: [PremultipliedColor]
    /// The border ring's color over the background.
    let ringColor: PremultipliedColor
    /// Palette index of each fully-covering layer set (bit i = layer i), or -1 when that set was never seen.
    let flatLookup: [Int32]
    /// Indices of every pixel with no water in it.
    let baseFrame: [UInt8]
    /// Columns holding any water.
    let waterColumns: Range<Int>
    /// The rider, prepared for drawing.
    let rider: RiderRaster?

    /// Palette entries reserved for a rider's own colors.
    public static let riderColors = 48

    public init(config: WaveConfig, plan: LoopPlan, format: OutputFormat) {
        self.config = config
        self.plan = plan
        self.timing = plan.timing(for: format)
        let target: RenderTarget = format == .gif ? .gif(config.gif) : .rgba
        self.target = target
        let coverage = StaticCoverage(config: config)
        self.coverage = coverage
        let background = PremultipliedColor(config.background)
        let ringColor = background.under(config.border.map { PremultipliedColor($0.color) } ?? .clear, coverage: 1)
        let layerColors = config.layers.map { PremultipliedColor($0.color, opacity: $0.opacity) }
        self.background = background
        self.layerColors = layerColors
        self.ringColor = ringColor
        var lo = config.width, hi = 0
        for span in coverage.waterSpans where !span.isEmpty {
            lo = min(lo, span.lowerBound)
            hi = max(hi, span.upperBound)
        }
        waterColumns = lo < hi ? lo..<hi : 0..<0

        // Discover the flat regions and which of them meet, then build the palette from them.
        var builder = PaletteBuilder()
        let bgFlat = builder.flat(background)
        var borderFlat: Int?
        if config.border != nil {
            let b = builder.flat(ringColor)
            builder.edge(b, bgFlat)
            borderFlat = b
        }
        var maskFlat: [Int: Int] = [:]
        let layerCount = config.layers.count
        let columnExtent = FrameRenderer.columnExtents(coverage)
        var geometry = SurfaceGeometry(config: config, plan: plan)
        var ys = [Double](repeating: 0, count: layerCount)
        var order = Array(0..<layerCount)
        func flatOf(_ mask: Int) -> Int {
            if let f = maskFlat[mask] { return f }
            var c = background
            for i in 0..<layerCount where mask & (1 << i) != 0 { c = c.under(layerColors[i], coverage: 1) }
            let f = builder.flat(c)
            maskFlat[mask] = f
            builder.edge(f, bgFlat)
            if let b = borderFlat, (config.border?.gap ?? 0) == 0 { builder.edge(f, b) }
            return f
        }
        for k in 0..<timing.frameCount {
            geometry.prepare(frame: k, of: timing.frameCount)
            for x in waterColumns {
                let (top, bottom) = columnExtent[x]
                guard top < bottom else { continue }
                for i in 0..<layerCount { ys[i] = geometry.surface(layer: i, x: Double(x) + 0.5) }
                order.sort { ys[$0] < ys[$1] || (ys[$0] == ys[$1] && $0 < $1) }
                // Going down the column, each surface crossed adds one layer to the covering set.
                var mask = 0
                var previous = -1
                for j in 0...layerCount {
                    let upper = j == 0 ? -Double.infinity : ys[order[j - 1]]
                    let lower = j == layerCount ? Double.infinity : ys[order[j]]
                    if j > 0 { mask |= 1 << order[j - 1] }
                    guard lower > Double(top), upper < Double(bottom) else { continue }
                    let f = flatOf(mask)
                    if previous >= 0, upper >= Double(top) { builder.edge(previous, f) }
                    previous = f
                }
            }
        }
        let rider = config.rider.map(RiderRaster.init)
        self.rider = rider
        for c in rider?.representativeColors(FrameRenderer.riderColors) ?? [] { _ = builder.flat(c) }
        let (palette, flatIndex) = builder.build(target: target)
        var lookup = [Int32](repeating: -1, count: 1 << layerCount)
        for (mask, f) in maskFlat {
            let c = builder.color(f)
            if !target.dependsOnPosition(c) { lookup[mask] = Int32(flatIndex[f]) }
        }
        flatLookup = lookup
        self.palette = palette

        var base = [UInt8](repeating: 0, count: config.width * config.height)
        var cache = ColorCache()
        let bgIndex = UInt8(flatIndex[bgFlat])
        for y in 0..<config.height {
            for x in 0..<config.width {
                let i = y * config.width + x
                let b = Double(coverage.border[i])
                base[i] = b == 0 && !target.dependsOnPosition(background) ? bgIndex
                    : FrameRenderer.index(of: background.mixed(with: ringColor, b), x: x, y: y,
                                          target: target, palette: palette, cache: &cache)
            }
        }
        baseFrame = base
    }

    /// For each column, the first row with water and the row after the last.
    static func columnExtents(_ coverage: StaticCoverage) -> [(Int, Int)] {
        var extents = [(Int, Int)](repeating: (Int.max, Int.min), count: coverage.width)
        for y in 0..<coverage.height {
            for x in coverage.waterSpans[y] where coverage.water[y * coverage.width + x] > 0 {
                extents[x].0 = min(extents[x].0, y)
                extents[x].1 = max(extents[x].1, y + 1)
            }
        }
        return extents.map { $0.0 <= $0.1 ? $0 : (0, 0) }
    }

    @inline(__always)
    static func index(of c: PremultipliedColor, x: Int, y: Int, target: RenderTarget, palette: Palette,
                      cache: inout ColorCache) -> UInt8 {
        guard let stored = target.store(c, x: x, y: y) else { return UInt8(palette.transparentIndex ?? 0) }
        return cache.index(of: stored, in: palette)
    }

    /// A pixel's color from the area of it under water (`water` the color there), under the
    /// border ring, and the rest showing the background.
    @inline(__always)
    func mix(water: PremultipliedColor, _ w: Double, ring b: Double) -> PremultipliedColor {
        let rest = max(0, 1 - w - b)
        return PremultipliedColor(r: background.r * rest + water.r * w + ringColor.r * b,
                                  g: background.g * rest + water.g * w + ringColor.g * b,
                                  b: background.b * rest + water.b * w + ringColor.b * b,
                                  a: background.a * rest + water.a * w + ringColor.a * b)
    }

    /// Draws frame `frame` (0 ≤ frame < timing.frameCount) into `out` (width × height indices).
    public func render(frame: Int, into out: inout [UInt8], cache: inout ColorCache) {
        let width = config.width
        let layerCount = config.layers.count
        let n = FrameRenderer.subsamples
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: baseFrame)
        guard !waterColumns.isEmpty else { return }

        var geometry = SurfaceGeometry(config: config, plan: plan)
        geometry.prepare(frame: frame, of: timing.frameCount)
        let columns = waterColumns.count
        let x0 = waterColumns.lowerBound
        // Surface heights at every sub-column, and each column's highest and lowest point per layer.
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
        let riderLayer = rider?.rider.layer ?? -1
        for y in 0..<config.height {
            let span = coverage.waterSpans[y]
            let top = Double(y), bottom = Double(y + 1)
            let riderRow = placement?.rows.contains(y) ?? false
            for x in span {
                let p = y * width + x
                let w = coverage.water[p]
                guard w > 0 else { continue }
                let c = x - x0
                let onRider = riderRow && placement!.columns.contains(x)
                if w == 1 && coverage.border[p] == 0 && !onRider {
                    var mask = 0
                    var partial = false
                    for i in 0..<layerCount {
                        let k = i * columns + c
                        if maxY[k] <= top { mask |= 1 << i } else if minY[k] < bottom { partial = true }
                    }
                    if !partial {
                        let f = flatLookup[mask]
                        if f >= 0 { out[p] = UInt8(f); continue }
                    }
                }
                // The water inside the shape, then the pixel's regions (outside, water, ring)
                // mixed by area, so that layers and clip edges never conflate.
                var water = background
                for i in 0..<layerCount {
                    let k = i * columns + c
                    let cov: Double
                    if maxY[k] <= top { cov = 1 } else if minY[k] >= bottom { cov = 0 } else {
                        var sum = 0.0
                        let base = k * n
                        for s in 0..<n { sum += min(1, max(0, bottom - samples[base + s])) }
                        cov = sum / Double(n)
                    }
                    if cov > 0 { water = water.under(layerColors[i], coverage: cov) }
                    if i == riderLayer && onRider { water = water.under(rider!.sample(x, y, placement!), coverage: 1) }
                }
                let color = mix(water: water, Double(w), ring: Double(coverage.border[p]))
                out[p] = FrameRenderer.index(of: color, x: x, y: y, target: target, palette: palette, cache: &cache)
            }
        }
    }
}

/// Remembers the palette index chosen for each stored color, so a nearest-color search runs once per color.
public struct ColorCache {
    private var entries: [UInt32: UInt8] = [:]

    public init() {}

    @inline(__always)
    mutating func index(of c: RGBA, in palette: Palette) -> UInt8 {
        let key = UInt32(c.r) << 24 | UInt32(c.g) << 16 | UInt32(c.b) << 8 | UInt32(c.a)
        if let i = entries[key] { return i }
        let i = UInt8(palette.nearestIndex(to: c))
        entries[key] = i
        return i
    }
}

/// The water surface of every layer at one frame: surface(x) = y0 + offset − A sin(2π((x − box.x)/λ + phase − cycles × u)).
struct SurfaceGeometry {
    let config: WaveConfig
    let cycles: [Double]
    private(set) var base: [Double]
    private(set) var phase: [Double]

    init(config: WaveConfig, plan: LoopPlan) {
        self.config = config
        cycles = plan.layers.map { Double($0.cycles) }
        base = Array(repeating: 0, count: config.layers.count)
        phase = base
    }

    /// Moves to frame `frame` of `count` (loop fraction u = frame / count).
    mutating func prepare(frame: Int, of count: Int) {
        let u = Double(frame) / Double(count)
        let level = config.level.level(frame: frame, of: count)
        let y0 = config.box.y + config.box.height * (1 - level)
        for (i, layer) in config.layers.enumerated() {
            base[i] = y0 + layer.offset
            // Reduce the phase to one turn so the sine's argument stays small and exact.
            let p = layer.phase - cycles[i] * u
            phase[i] = p - p.rounded(.down)
        }
    }

    /// dy/dx of a layer's surface at x (y grows downwards).
    func slope(layer i: Int, x: Double) -> Double {
        let l = config.layers[i]
        let k = 2 * Double.pi / l.wavelength
        return -l.amplitude * k * cos(2 * Double.pi * ((x - config.box.x) / l.wavelength + phase[i]))
    }

    @inline(__always)
    func surface(layer i: Int, x: Double) -> Double {
        let l = config.layers[i]
        return base[i] - l.amplitude * sin(2 * Double.pi * ((x - config.box.x) / l.wavelength + phase[i]))
    }
}
