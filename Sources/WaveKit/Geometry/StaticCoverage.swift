import Dispatch
import WavePlatform

/// Per-pixel coverage of the parts that never move: the water's clip region and the border ring,
/// pixel by pixel of the wave frame (the canvas for `up`; each is a canvas pixel, and its coverage
/// is the canvas outline's there).
struct StaticCoverage: Sendable {
    let width: Int
    let height: Int
    /// Fraction of each pixel inside the water region (the outline less border and gap).
    let water: [Float]
    /// Fraction of each pixel inside the border ring (zero everywhere without a border).
    let border: [Float]
    /// For each row, the half-open range of columns holding any water coverage.
    let waterSpans: [Range<Int>]

    /// Columns holding any water.
    let waterColumns: Range<Int>

    /// The coverage of `model`'s water region and border ring on its canvas: the same numbers as
    /// `init(reference:)`, faster. A path shape's pixels far from every edge (`NearOutline`) are
    /// wholly inside or outside at every level, so only their side is found (the same crossing test
    /// as the signed distance's); the pixels near the outline take the exact area. The rows are
    /// worked in horizontal bands, spread over the cores, whatever the shape: a small circle's
    /// or rounded box's coverage (1–3 ms on one core for orb and dark) is the longest stretch of
    /// their setup that runs on one core. Along a box's straight sides a pixel's coverage is its
    /// neighbour's (`StraightSides`), taken from it.
    init(model: WaveModel) {
        let width = model.orientation.width, height = model.orientation.height
        let geometry = model.waveOutline
        let margin = StaticCoverage.farMargin(model)
        let near: NearOutline? = if case .path = geometry.shape { geometry.edges.near(margin: margin, width: width, height: height) } else { nil }
        let straight = StraightSides(geometry)
        let bands = StaticCoverage.bands(width: width, height: height, threads: ProcessEnvironment.activeProcessorCount)
        let results = SharedSlots<(water: [Float], border: [Float], spans: [Range<Int>])>(count: bands.count)
        let work: @Sendable (Int) -> Void = { b in
            results.set(b, StaticCoverage.rows(bands[b], model: model, near: near, straight: straight))
        }
        if bands.count > 1 {
            DispatchQueue.concurrentPerform(iterations: bands.count, execute: work)
        } else {
            for b in bands.indices { work(b) }
        }
        var water: [Float] = [], border: [Float] = [], spans: [Range<Int>] = []
        water.reserveCapacity(width * height)
        border.reserveCapacity(width * height)
        spans.reserveCapacity(height)
        for band in results.values.map({ $0! }) {
            water += band.water
            border += band.border
            spans += band.spans
        }
        self.init(width: width, height: height, water: water, border: border, spans: spans)
    }

    /// The coverage of `model`'s water region and border ring, pixel by pixel on one thread, every
    /// pixel's signed distance measured: the plain form `init(model:)` is tested against.
    init(reference model: WaveModel) {
        let width = model.orientation.width, height = model.orientation.height
        let all = StaticCoverage.rows(0..<height, model: model, near: nil, straight: nil)
        self.init(width: width, height: height, water: all.water, border: all.border, spans: all.spans)
    }

    private init(width: Int, height: Int, water: [Float], border: [Float], spans: [Range<Int>]) {
        self.width = width
        self.height = height
        self.water = water
        self.border = border
        self.waterSpans = spans
        var lo = width, hi = 0
        for span in spans where !span.isEmpty {
            lo = min(lo, span.lowerBound)
            hi = max(hi, span.upperBound)
        }
        waterColumns = lo < hi ? lo..<hi : 0..<0
    }

    /// How far from every edge a pixel's center must be for the pixel to lie wholly on one side of
    /// every level the coverage measures (0, −ring, −border width): its half-diagonal beyond the
    /// deepest level, and a pixel more.
    static func farMargin(_ model: WaveModel) -> Double {
        halfDiagonal + max(model.waterInset, model.borderWidth, 0) + 1
    }

    /// Rows of about equal work for `threads` threads: one band for a small canvas or one thread.
    static func bands(width: Int, height: Int, threads: Int) -> [Range<Int>] {
        let count = width * height < 4096 || threads <= 1 ? 1 : max(1, min(height, 4 * threads))
        return (0..<count).map { b in (b * height / count)..<((b + 1) * height / count) }
    }

    /// The coverage of rows `rows`, as `init(reference:)` measures it, save that a pixel `near`
    /// does not hold (when given) takes its side alone, and a pixel along `straight`'s sides (when
    /// given) the coverage of the pixel before it in its row or column.
    static func rows(_ rows: Range<Int>, model: WaveModel, near: NearOutline?,
                     straight: StraightSides?) -> (water: [Float], border: [Float], spans: [Range<Int>]) {
        let width = model.orientation.width
        let geometry = model.waveOutline
        let ring = model.waterInset
        let borderWidth = model.borderWidth
        var water = [Float](repeating: 0, count: width * rows.count)
        var border = [Float](repeating: 0, count: width * rows.count)
        var spans: [Range<Int>] = []
        spans.reserveCapacity(rows.count)
        var inside: [Bool] = []
        var candidates: [Int32] = []
        // The coverage last measured along a top or bottom side in this row, and along a left or
        // right side in each column (with its row).
        var alongRow: (water: Float, border: Float)?
        var alongColumn = [(water: Float, border: Float, row: Int)](repeating: (0, 0, -2), count: straight == nil ? 0 : width)
        // How far from a pixel's center the edges that can matter to its area may lie: its
        // distance (below the half-diagonal past the deepest level) and twice the reach of
        // `LocalEdges`' neighbourhood, with a pixel to spare.
        let rowReach = halfDiagonal + max(ring, borderWidth, 0) + 2 * LocalEdges.reach * 2.0.squareRoot() + 1
        for y in rows {
            var first = width, last = -1
            alongRow = nil
            if near != nil {
                inside = geometry.edges.insideRow(y: Double(y) + 0.5, width: width)
                candidates = geometry.edges.edges(meetingRows: Double(y) + 0.5 - rowReach, Double(y) + 0.5 + rowReach)
            }
            for x in 0..<width {
                let i = (y - rows.lowerBound) * width + x
                if let near, !near.contains(x, y) {
                    // Further than `farMargin` from every edge: |d| passes every level by more than
                    // the half-diagonal, so water is the side and the ring is 1 − 1 or 0 − 0.
                    if inside[x] {
                        water[i] = 1
                        first = min(first, x); last = x
                    }
                    continue
                }
                // Along a straight side, every distance the measure below asks is the one it asked
                // for the pixel before (the same numbers, so the same coverage).
                var side = StraightSides.Side.none
                if let straight {
                    side = straight.side(x, y)
                    let kept: (water: Float, border: Float)? = switch side {
                    case .none: nil
                    case .row: alongRow
                    case .column: alongColumn[x].row == y - 1 ? (alongColumn[x].water, alongColumn[x].border) : nil
                    }
                    if let kept {
                        water[i] = kept.water
                        border[i] = kept.border
                        if side == .column { alongColumn[x].row = y }
                        if water[i] > 0 { first = min(first, x); last = x }
                        continue
                    }
                }
                let d = geometry.signedDistance(Double(x) + 0.5, Double(y) + 0.5)
                // Water: d ≤ −ring. Border: −borderWidth ≤ d ≤ 0. A pixel further from a level
                // than its half-diagonal is all on one side of it.
                // With `near`, a path's edges around this pixel (the same distances, found among a few).
                var local: LocalEdges?
                func coverage(_ level: Double) -> Double {
                    guard abs(d - level) < StaticCoverage.halfDiagonal else { return d < level ? 1 : 0 }
                    guard near != nil else { return StaticCoverage.area(geometry, Double(x), Double(y), 1, level: level) }
                    if local == nil {
                        local = LocalEdges(geometry.edges, x: Double(x) + 0.5, y: Double(y) + 0.5, distance: d, candidates: candidates)
                    }
                    return StaticCoverage.area(local!, Double(x), Double(y), 1, level: level)
                }
                water[i] = Float(coverage(-ring))
                border[i] = borderWidth > 0 ? Float(max(0, coverage(0) - coverage(-borderWidth))) : 0
                switch side {
                case .none: break
                case .row: alongRow = (water[i], border[i])
                case .column: alongColumn[x] = (water[i], border[i], y)
                }
                if water[i] > 0 { first = min(first, x); last = x }
            }
            spans.append(last >= first ? first..<(last + 1) : 0..<0)
        }
        return (water, border, spans)
    }

    /// The water coverage of the one pixel (x, y), as `init(reference:)` measures it: for a few
    /// pixels (the label's fit), where the whole canvas's would cost more.
    static func water(_ x: Int, _ y: Int, model: WaveModel) -> Float {
        let geometry = model.waveOutline, level = -model.waterInset
        let d = geometry.signedDistance(Double(x) + 0.5, Double(y) + 0.5)
        guard abs(d - level) < StaticCoverage.halfDiagonal else { return d < level ? 1 : 0 }
        return Float(StaticCoverage.area(geometry, Double(x), Double(y), 1, level: level))
    }

    /// Half a unit square's diagonal, rounded up: no point of the square is further from its center.
    static let halfDiagonal = 0.7072

    /// The area of the square at (x, y) of side `size` where `geometry`'s signed distance is at
    /// most `level` (−inset: the outline shrunk by that inset).
    ///
    /// Where the edge is smooth across the square, the edge's tangent line (the signed distance
    /// and its gradient at the center) cuts off a known area (`halfPlaneArea`), and the sliver
    /// between that line and the edge is integrated along the line (`sliver`): within a quarter of
    /// an 8-bit level on every shape `StaticCoverageTests` measures. Where it is not (a corner, a vertex, a curve tighter than the square), the
    /// square is split in four, down to 1/16 px, where the tangent line's area stands. The signed
    /// distance changes by at most 1 per unit, so a square whose center is further from the level
    /// than its half-diagonal is all in or all out.
    static func area<G: SignedDistanceField>(_ g: G, _ x: Double, _ y: Double, _ size: Double, level: Double) -> Double {
        let cx = x + size / 2, cy = y + size / 2
        let s = g.signedDistance(cx, cy)
        let reach = size * halfDiagonal
        if s - level <= -reach { return size * size }
        if s - level >= reach { return 0 }
        let h = size * 1e-4
        var nx = slope(g, cx, cy, 1, 0, step: h)
        var ny = slope(g, cx, cy, 0, 1, step: h)
        let norm = (nx * nx + ny * ny).squareRoot()
        let tangent = norm > 0.5 && norm < 1.5
        if tangent {
            nx /= norm
            ny /= norm
            let line = size * size * halfPlaneArea(nx, ny, (level - s) / size)
            if let sliver = sliver(g, cx, cy, size, nx, ny, level: level, offset: level - s) {
                return min(size * size, max(0, line + sliver))
            }
            if size <= 1.0 / 16 { return line }
        } else if size <= 1.0 / 16 {
            return size * size / 2
        }
        let half = size / 2
        return area(g, x, y, half, level: level) + area(g, x + half, y, half, level: level)
            + area(g, x, y + half, half, level: level) + area(g, x + half, y + half, half, level: level)
    }

    /// The signed area inside the square of side `size` centered on (cx, cy) between the line
    /// n·(p − center) = `offset` and the edge where the signed distance equals `level` (positive
    /// where the edge lies beyond the line, on the side n points to): at 8 points along the line,
    /// the edge is found along n by Newton steps, its offset clipped to the square, and the offsets
    /// summed by the midpoint rule. Nil unless at every point the edge is found within half the
    /// square of the line, once, the distance there growing along n at nearly 1 per unit (the
    /// edge nearly parallel to the line), and the square's corners lie on the sides the line
    /// puts them: no corner or second edge inside.
    static func sliver<G: SignedDistanceField>(_ g: G, _ cx: Double, _ cy: Double, _ size: Double, _ nx: Double, _ ny: Double,
                       level: Double, offset u: Double) -> Double? {
        let r = size / 2
        // Where along (dx, dy) the square spans, through (px, py) (relative to its center).
        func span(_ px: Double, _ py: Double, _ dx: Double, _ dy: Double) -> (Double, Double) {
            var lo = -Double.infinity, hi = Double.infinity
            for (p, d) in [(px, dx), (py, dy)] {
                if abs(d) < 1e-12 {
                    if abs(p) > r { return (1, 0) }
                } else {
                    let a = (-r - p) / d, b = (r - p) / d
                    lo = max(lo, min(a, b))
                    hi = min(hi, max(a, b))
                }
            }
            return (lo, hi)
        }
        // The line's chord through the square: u·n + w·τ, τ = (−ny, nx).
        let (w0, w1) = span(u * nx, u * ny, -ny, nx)
        guard w1 > w0 else { return 0 }
        let samples = 8
        let step = size * 1e-3
        var sum = 0.0, largest = 0.0
        for i in 0..<samples {
            let w = w0 + (Double(i) + 0.5) * (w1 - w0) / Double(samples)
            let qx = u * nx - w * ny, qy = u * ny + w * nx
            var delta = 0.0
            for _ in 0..<3 { delta += level - g.signedDistance(cx + qx + delta * nx, cy + qy + delta * ny) }
            let ex = cx + qx + delta * nx, ey = cy + qy + delta * ny
            let growth = slope(g, ex, ey, nx, ny, step: step)
            guard abs(delta) <= r, growth > 0.9, abs(level - g.signedDistance(ex, ey)) < 1e-9 else { return nil }
            // The normal through this point meets the edge once inside the square (the region
            // is convex, so once its ends lie on the sides the crossing puts them).
            let (lo, hi) = span(qx, qy, nx, ny)
            for t in [lo, hi] where abs(t - delta) > 1e-9 {
                let inside = g.signedDistance(cx + qx + t * nx, cy + qy + t * ny) <= level
                guard inside == (t < delta) else { return nil }
            }
            sum += min(max(delta, lo), hi)
            largest = max(largest, abs(delta))
        }
        // Corners beyond the band the normals sweep lie on the line's side they should.
        for (sx, sy) in [(-r, -r), (r, -r), (-r, r), (r, r)] {
            let along = nx * sx + ny * sy - u
            guard abs(along) > largest + 1e-9 else { continue }
            guard (g.signedDistance(cx + sx, cy + sy) <= level) == (along < 0) else { return nil }
        }
        return sum * (w1 - w0) / Double(samples)
    }

    /// How fast the signed distance grows at (x, y) along (dx, dy): a central difference `step` each way.
    @inline(__always)
    static func slope<G: SignedDistanceField>(_ g: G, _ x: Double, _ y: Double, _ dx: Double, _ dy: Double, step: Double) -> Double {
        (g.signedDistance(x + step * dx, y + step * dy) - g.signedDistance(x - step * dx, y - step * dy)) / (2 * step)
    }

    /// The area of the unit square centered on the origin where (nx, ny)·q ≤ u, (nx, ny) a unit vector.
    static func halfPlaneArea(_ nx: Double, _ ny: Double, _ u: Double) -> Double {
        let a = min(abs(nx), abs(ny)), b = max(abs(nx), abs(ny))
        let reach = (a + b) / 2
        if u <= -reach { return 0 }
        if u >= reach { return 1 }
        // The area below -|u|: a corner triangle out to (b - a)/2 from the middle, then a band.
        let v = abs(u)
        let below = v >= (b - a) / 2 && a > 1e-12 ? (reach - v) * (reach - v) / (2 * a * b) : max(0, 0.5 - v / b)
        return u < 0 ? below : 1 - below
    }

    /// For each column, the first row with water and the row after the last ((0, 0) for none).
    var waterRowsByColumn: [(top: Int, bottom: Int)] {
        var extents = [(top: Int, bottom: Int)](repeating: (Int.max, Int.min), count: width)
        for y in 0..<height {
            for x in waterSpans[y] where water[y * width + x] > 0 {
                extents[x].top = min(extents[x].top, y)
                extents[x].bottom = max(extents[x].bottom, y + 1)
            }
        }
        return extents.map { $0.top <= $0.bottom ? $0 : (0, 0) }
    }
}

/// Where a rectangle's or rounded box's signed distance depends on one coordinate alone: along its
/// top and bottom sides (away from the corners, and from the middle row, where the nearer side
/// changes) on y alone, along its left and right sides on x alone; a triangle's likewise along a
/// side that is level or upright, where that side's half-plane is the largest by a margin. There
/// `StaticCoverage.area` asks the same distances for a pixel as for its neighbour along the side:
/// the points it asks at share their other coordinate (the tangent is axis-aligned, as the central
/// differences across the side are exactly 0), so it returns the same number. `side` answers for
/// a pixel when every point `area` may ask at lies where the distance depends on that coordinate
/// alone: across the side within the pixel (a central difference steps 1/10,000 px out), along the
/// normal within 3 px of it (the tangent line's sliver is found by Newton steps from within 0.71 px
/// of the level, where the distance grows at exactly 1 per px, so they land within 1.42 px). The
/// windows checked are wider than that, by a pixel across and 1.5 px along.
struct StraightSides: Sendable {
    enum Side { case none, row, column }
    let midX: Double, midY: Double
    /// Half the box's width and height less the corner radius: the straight sides' half-lengths.
    let halfX: Double, halfY: Double
    /// A triangle's half-planes (empty for a box): its distance is the largest of them.
    let planes: [(nx: Double, ny: Double, c: Double)]

    init?(_ geometry: OutlineGeometry) {
        let box = geometry.box
        let r: Double
        switch geometry.shape {
        case .rect: r = 0
        case let .rounded(radius): r = min(radius, box.width / 2, box.height / 2)
        case .triangle:
            // A level or upright side's half-plane takes the same value all along it (0 · x is 0).
            guard geometry.planes.contains(where: { $0.nx == 0 || $0.ny == 0 }) else { return nil }
            r = 0
        default: return nil
        }
        midX = box.midX
        midY = box.midY
        halfX = box.width / 2 - r
        halfY = box.height / 2 - r
        planes = if case .triangle = geometry.shape { geometry.planes } else { [] }
    }

    /// Along which of a triangle's sides pixel (x, y) lies: a level side's half-plane exceeds
    /// every other by more than a margin over the points `area` may ask at (a box; the others are
    /// linear, so their largest excess is at its corners).
    @inline(__always)
    func triangleSide(_ x: Int, _ y: Int, margin: Double) -> Side {
        for (h, p) in planes.enumerated() where p.nx == 0 || p.ny == 0 {
            let row = p.nx == 0
            let x0 = Double(x) - (row ? 1 : 3), x1 = Double(x) + (row ? 2 : 4)
            let y0 = Double(y) - (row ? 3 : 1), y1 = Double(y) + (row ? 4 : 2)
            var largest = true
            for (j, q) in planes.enumerated() where j != h {
                let dx = q.nx - p.nx, dy = q.ny - p.ny
                if max(dx * x0, dx * x1) + max(dy * y0, dy * y1) + (q.c - p.c) >= -margin {
                    largest = false
                    break
                }
            }
            if largest { return row ? .row : .column }
        }
        return .none
    }

    /// The least and most of |v − mid| − half over [lo, hi], and whether it holds `mid`.
    @inline(__always)
    static func reach(_ lo: Double, _ hi: Double, _ mid: Double, _ half: Double) -> (least: Double, most: Double, crosses: Bool) {
        let a = abs(lo - mid), b = abs(hi - mid)
        let crosses = lo <= mid && mid <= hi
        return ((crosses ? 0 : min(a, b)) - half, max(a, b) - half, crosses)
    }

    /// Whether pixel (x, y) lies along a top or bottom side (`row`: its coverage is every pixel's
    /// of its row so placed), a left or right side (`column`), or neither.
    @inline(__always)
    func side(_ x: Int, _ y: Int) -> Side {
        let margin = 1e-6
        if !planes.isEmpty { return triangleSide(x, y, margin: margin) }
        // qx = |X − midX| − halfX, qy = |Y − midY| − halfY: the distance is qy − r where
        // qx ≤ min(0, qy), and qx − r where qy ≤ min(0, qx).
        let across = StraightSides.reach(Double(x) - 1, Double(x) + 2, midX, halfX)
        let along = StraightSides.reach(Double(y) - 3, Double(y) + 4, midY, halfY)
        if !along.crosses, across.most < min(0, along.least) - margin { return .row }
        let acrossY = StraightSides.reach(Double(y) - 1, Double(y) + 2, midY, halfY)
        let alongX = StraightSides.reach(Double(x) - 3, Double(x) + 4, midX, halfX)
        if !alongX.crosses, acrossY.most < min(0, alongX.least) - margin { return .column }
        return .none
    }
}

/// What `StaticCoverage.area` measures: a signed distance, 1-Lipschitz.
protocol SignedDistanceField {
    func signedDistance(_ x: Double, _ y: Double) -> Double
}

extension OutlineGeometry: SignedDistanceField {}
