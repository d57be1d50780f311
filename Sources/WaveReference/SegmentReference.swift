import Foundation
import WaveKit

/// A slow reference render that judges every GIF in the rate–distortion benchmark
/// (`scripts/bench/compare-rd`): exact in y, 16 samples in x, layers composited per covered segment.
///
/// Each pixel column is sampled at 16 evenly spaced x positions. At each, the vertical line is cut
/// exactly at every layer's surface and at the edges of the water region, the border ring and the
/// shape (all exact in y at that x: every shape is convex, so each is one interval). Every piece
/// between two cuts is composited on its own (background, the layers whose surface lies above it in
/// order, the ring over them; premultiplied, in double precision), and each pixel sums the pieces
/// that fall inside it, weighted by their length. The only approximation is the 16 positions in x.
///
/// It shares nothing with the rasterizer: only `WaveModel`'s surfaces and still level (and for a
/// gradient, `LinearGradient`'s color at each pixel's center, as the raster takes it). It draws no
/// rider and no label, and refuses scenes that have one, or that fill in another direction than up
/// (`DirectionTests` holds those to the point-sampled test reference).
public struct SegmentReference: Sendable {
    public let config: WaveConfig
    public let model: WaveModel
    /// Sample positions in x per pixel column: 16 unless told (the judge of scripts/bench/compare-rd).
    /// On orb-plain 16 and 1024 differ by 71.5 dB PSNR, so at the benchmark's floors (60 dB and
    /// below) the choice does not matter.
    public let subcolumns: Int

    private let background: PremultipliedColor
    private let layerColors: [PremultipliedColor]
    private let borderColor: PremultipliedColor?

    /// Why a scene cannot be drawn by this reference.
    public struct Unsupported: Error, CustomStringConvertible {
        public let description: String
    }

    /// The reference for `config` over the loop `plan` lays out; a rider or label is refused.
    public init(config: WaveConfig, plan: LoopPlan, subcolumns: Int = 16) throws(Unsupported) {
        if config.rider != nil { throw Unsupported(description: "a rider: the reference draws none") }
        if config.label != nil { throw Unsupported(description: "a label: the reference draws none") }
        if config.direction != .up { throw Unsupported(description: "a fill direction other than up: the reference cuts columns of the canvas") }
        self.config = config
        self.subcolumns = max(1, subcolumns)
        model = WaveModel(config: config, plan: plan)
        background = PremultipliedColor(config.background)
        layerColors = config.layers.map { PremultipliedColor($0.color, opacity: $0.opacity) }
        borderColor = config.border.map { PremultipliedColor($0.color) }
    }

    /// Premultiplied RGBA (0…1), row by row, of frame `frame` of a loop of `count` frames.
    public func render(frame: Int, of count: Int) -> [PremultipliedColor] {
        let width = config.width, height = config.height
        let surfaces = model.surfaces(frame: frame, of: count)
        let ringInset = config.border.map { $0.width + $0.gap } ?? 0
        let borderWidth = config.border?.width ?? 0
        let weight = 1 / Double(subcolumns)
        var sums = [Double](repeating: 0, count: width * height * 4)
        var cuts: [Double] = []
        var levels = [Double](repeating: 0, count: config.layers.count)
        for px in 0..<width {
            for s in 0..<subcolumns {
                let x = Double(px) + (Double(s) + 0.5) * weight
                let water = chords(x: x, inset: ringInset)
                let outer = borderColor == nil ? [] : chords(x: x, inset: 0)
                let inner = borderColor == nil ? [] : chords(x: x, inset: borderWidth)
                cuts.removeAll(keepingCapacity: true)
                cuts += [0, Double(height)]
                for c in water + outer + inner { cuts += [c.top, c.bottom] }
                for i in levels.indices {
                    levels[i] = surfaces.surface(layer: i, atX: x)
                    cuts.append(levels[i])
                }
                cuts = cuts.map { min(max($0, 0), Double(height)) }.sorted()
                for k in 0..<(cuts.count - 1) {
                    let top = cuts[k], bottom = cuts[k + 1]
                    guard bottom > top else { continue }
                    let mid = (top + bottom) / 2
                    func within(_ runs: [(top: Double, bottom: Double)]) -> Bool { runs.contains { mid >= $0.top && mid <= $0.bottom } }
                    let inWater = within(water), onRing = borderColor != nil && within(outer) && !within(inner)
                    /// The piece's color in pixel row `row`: gradients take their color at the pixel's center.
                    func color(row: Int) -> PremultipliedColor {
                        let cx = Double(px) + 0.5, cy = Double(row) + 0.5
                        var c = config.backgroundGradient.map { $0.color(atX: cx, y: cy, in: config.canvasBox) } ?? background
                        if inWater {
                            for i in levels.indices where mid >= levels[i] {
                                let l = config.layers[i]
                                c = c.under(l.gradient.map { $0.color(atX: cx, y: cy, in: config.layerGradientBox, opacity: l.opacity) } ?? layerColors[i],
                                            coverage: 1)
                            }
                        }
                        if onRing, let borderColor { c = c.under(borderColor, coverage: 1) }
                        return c
                    }
                    var c = color(row: Int(top.rounded(.down)))
                    // Spread the piece over the pixel rows it crosses, by length.
                    var row = Int(top.rounded(.down))
                    while row < height, Double(row) < bottom {
                        if config.hasGradient { c = color(row: row) }
                        let length = min(bottom, Double(row + 1)) - max(top, Double(row))
                        let p = (row * width + px) * 4, w = length * weight
                        sums[p] += c.r * w
                        sums[p + 1] += c.g * w
                        sums[p + 2] += c.b * w
                        sums[p + 3] += c.a * w
                        row += 1
                    }
                }
            }
        }
        return (0..<(width * height)).map { PremultipliedColor(r: sums[4 * $0], g: sums[4 * $0 + 1], b: sums[4 * $0 + 2], a: sums[4 * $0 + 3]) }
    }

    /// The vertical extents of the outline shrunk by `d` on every side at column x (output pixels),
    /// top first. A path shape's come from the wave model's flattened edges (a column may cross it
    /// several times); every other shape is convex, so its extent is one interval, found here.
    public func chords(x: Double, inset d: Double) -> [(top: Double, bottom: Double)] {
        if case .path = config.shape { return model.outline.chords(x: x, inset: d) }
        return chord(x: x, inset: d).map { [$0] } ?? []
    }

    /// The vertical extent of a convex outline shrunk by `d` on every side at column x (output
    /// pixels), or nil when x misses it.
    public func chord(x: Double, inset d: Double) -> (top: Double, bottom: Double)? {
        let o = config.outline
        let extent: (top: Double, bottom: Double)?
        switch config.shape {
        case .path:
            return nil
        case .rect:
            extent = x >= o.x + d && x <= o.maxX - d ? (o.y + d, o.maxY - d) : nil
        case .circle:
            let r = o.width / 2 - d, dx = x - o.midX
            extent = r > 0 && dx * dx <= r * r ? (o.midY - (r * r - dx * dx).squareRoot(), o.midY + (r * r - dx * dx).squareRoot()) : nil
        case let .rounded(radius):
            // Corner circles keep their centres; their radius shrinks by d (down to a sharp corner).
            guard x >= o.x + d, x <= o.maxX - d else { return nil }
            let r = min(radius, o.width / 2, o.height / 2), inner = max(0, r - d)
            let cx = min(max(x, o.x + d + inner), o.maxX - d - inner)
            let h = max(0, inner * inner - (x - cx) * (x - cx)).squareRoot()
            extent = (o.y + d + inner - h, o.maxY - d - inner + h)
        case .triangle:
            // Apex at the top middle, base along the bottom; each edge's line moved inward by d.
            // Inside edge p → q: (ex(y − py) − ey(x − px)) / |e| ≥ d, a bound on y at this x.
            let a = (o.midX, o.y), b = (o.maxX, o.maxY), c = (o.x, o.maxY)
            var top = -Double.infinity, bottom = Double.infinity
            for (p, q) in [(a, b), (b, c), (c, a)] {
                let ex = q.0 - p.0, ey = q.1 - p.1
                let len = (ex * ex + ey * ey).squareRoot()
                let bound = d * len + ey * (x - p.0)
                if ex > 0 {
                    top = max(top, p.1 + bound / ex)
                } else if ex < 0 {
                    bottom = min(bottom, p.1 + bound / ex)
                } else if bound > 0 {
                    return nil
                }
            }
            extent = (top, bottom)
        }
        guard let extent, extent.bottom > extent.top else { return nil }
        return extent
    }

    /// How a GIF stores a pixel of premultiplied color `c`: as it is when opaque, transparent below
    /// half a level of alpha, and in between as the preset's `gif.edges` says (blended over
    /// `gif.matte`, or cut at 50 %). Nil for `dither`, which depends on the pixel's place.
    public func gifStored(_ c: PremultipliedColor) -> RGBA? {
        if c.a >= 1 - 1e-9 { return c.straight }
        if c.a * 255 < 0.5 { return .transparent }
        switch config.gif.edges {
        case .matte:
            return PremultipliedColor(config.gif.matte).under(c, coverage: 1).straight
        case .cut:
            guard c.a >= 0.5 else { return .transparent }
            var s = c.straight
            s.a = 255
            return s
        case .dither:
            return nil
        }
    }
}
