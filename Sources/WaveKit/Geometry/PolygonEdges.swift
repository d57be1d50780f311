import WavePlatform

/// The edges of closed polygons (output pixels, y downwards) filled by the nonzero or even-odd
/// rule: the inside-test, the signed distance and the vertical chords of a path shape, all from
/// the same edges, so that they agree exactly. A class: the few edges around one pixel
/// (`LocalEdges`, made for every pixel near the outline, on every core at once) keep a single
/// reference to all of them rather than one to each array here.
final class PolygonEdges: Sendable {
    /// Edge k runs from (ax[k], ay[k]) to (bx[k], by[k]).
    let ax: [Double], ay: [Double], bx: [Double], by: [Double]
    let evenOdd: Bool
    /// The box holding every edge.
    let bounds: Rect
    /// The edges by cell and by band, for `signedDistance`.
    let grid: EdgeGrid

    /// The edges of `polygons`, each closed back to its first point.
    init(_ polygons: [[PathPoint]], evenOdd: Bool) {
        var ax: [Double] = [], ay: [Double] = [], bx: [Double] = [], by: [Double] = []
        var lo = PathPoint(.infinity, .infinity), hi = PathPoint(-.infinity, -.infinity)
        for polygon in polygons where polygon.count > 1 {
            for (k, a) in polygon.enumerated() {
                let b = polygon[(k + 1) % polygon.count]
                lo = PathPoint(min(lo.x, a.x), min(lo.y, a.y))
                hi = PathPoint(max(hi.x, a.x), max(hi.y, a.y))
                guard a != b else { continue }
                ax.append(a.x); ay.append(a.y); bx.append(b.x); by.append(b.y)
            }
        }
        (self.ax, self.ay, self.bx, self.by) = (ax, ay, bx, by)
        self.evenOdd = evenOdd
        bounds = lo.x <= hi.x ? Rect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y) : Rect(x: 0, y: 0, width: 0, height: 0)
        grid = EdgeGrid(ax: ax, ay: ay, bx: bx, by: by, bounds: bounds)
    }

    /// Whether the winding number `w` counts as inside under the fill rule.
    @inline(__always)
    func holds(_ w: Int) -> Bool { evenOdd ? w & 1 != 0 : w != 0 }

    /// The distance from (x, y) to the nearest edge, negative inside: 1-Lipschitz everywhere.
    ///
    /// The edges are looked up in `grid`: the crossings among the edges of the point's band, the
    /// nearest edge among the cells in rings around the point's cell, ring by ring until no edge
    /// outside them can be nearer. Each edge found is measured by the same expressions as in
    /// `referenceSignedDistance`, which visits every edge; the minimum and the crossing count do
    /// not depend on the order, so both give the same value.
    func signedDistance(_ x: Double, _ y: Double) -> Double {
        guard !ax.isEmpty else { return referenceSignedDistance(x, y) }
        // Every local lives inside the one closure and no nested function captures a variable, so
        // the loops run without dynamic exclusivity checks.
        let (best, winding) = ax.withUnsafeBufferPointer { ax in
            ay.withUnsafeBufferPointer { ay in
                bx.withUnsafeBufferPointer { bx in
                    by.withUnsafeBufferPointer { by in
                        grid.cellStart.withUnsafeBufferPointer { cellStart in
                            grid.cellEdges.withUnsafeBufferPointer { cellEdges in
                                PolygonEdges.nearest(x, y, grid, ax, ay, bx, by, cellStart, cellEdges)
                            }
                        }
                    }
                }
            }
        }
        let d = best.squareRoot()
        return holds(winding) ? -d : d
    }

    /// `signedDistance`'s squared distance and winding number, on the edges' buffers.
    @inline(__always)
    private static func nearest(_ x: Double, _ y: Double, _ g: EdgeGrid, _ ax: UnsafeBufferPointer<Double>, _ ay: UnsafeBufferPointer<Double>,
                                _ bx: UnsafeBufferPointer<Double>, _ by: UnsafeBufferPointer<Double>,
                                _ cellStart: UnsafeBufferPointer<Int32>, _ cellEdges: UnsafeBufferPointer<Int32>) -> (Double, Int) {
        var best = Double.infinity, winding = 0
        if y >= g.minY, y < g.maxY {
            let b = g.band(y)
            for e in Int(g.bandStart[b])..<Int(g.bandStart[b + 1]) {
                let k = Int(g.bandEdges[e])
                let x0 = ax[k], y0 = ay[k], x1 = bx[k], y1 = by[k]
                let ex = x1 - x0, ey = y1 - y0
                if (y0 <= y) != (y1 <= y), x < x0 + (y - y0) * ex / ey { winding += ey > 0 ? 1 : -1 }
            }
        }
        let columns = g.columns, rows = g.rows
        let ci = Int(max(-1e9, min(1e9, ((x - g.ox) / g.cell).rounded(.down))))
        let cj = Int(max(-1e9, min(1e9, ((y - g.oy) / g.cell).rounded(.down))))
        // Rings before the first that reaches the grid hold no cell.
        var r = max(0, -ci, ci - (columns - 1), -cj, cj - (rows - 1))
        while true {
            let i0 = max(0, ci - r), i1 = min(columns - 1, ci + r)
            let j0 = max(0, cj - r), j1 = min(rows - 1, cj + r)
            if i0 <= i1 && j0 <= j1 {
                for j in j0...j1 {
                    // The ring's whole top and bottom rows; on the rows between, its two ends.
                    let whole = j == cj - r || j == cj + r
                    let left = whole ? i0 : ci - r, right = whole ? i1 : ci + r
                    var i = left
                    while i <= right {
                        if i >= 0 && i < columns {
                            let c = j * columns + i
                            for e in Int(cellStart[c])..<Int(cellStart[c + 1]) {
                                let k = Int(cellEdges[e])
                                let x0 = ax[k], y0 = ay[k], x1 = bx[k], y1 = by[k]
                                let ex = x1 - x0, ey = y1 - y0, px = x - x0, py = y - y0
                                let t = max(0, min(1, (px * ex + py * ey) / (ex * ex + ey * ey)))
                                let dx = px - t * ex, dy = py - t * ey
                                best = min(best, dx * dx + dy * dy)
                            }
                        }
                        // Between the ends, nothing (the ring's inner cells were visited before).
                        i += whole || r == 0 ? 1 : 2 * r
                    }
                }
            }
            if ci - r <= 0 && ci + r >= columns - 1 && cj - r <= 0 && cj + r >= rows - 1 { break }
            // Every edge not yet visited lies outside the block of rings 0…r, at
            // least `reach` away (less a margin for rounding).
            let reach = min(x - (g.ox + Double(ci - r) * g.cell), g.ox + Double(ci + r + 1) * g.cell - x,
                            y - (g.oy + Double(cj - r) * g.cell), g.oy + Double(cj + r + 1) * g.cell - y) - 1e-4
            if reach > 0 && best < reach * reach { break }
            r += 1
        }
        return (best, winding)
    }

    /// `signedDistance` by visiting every edge: the plain form the grid's answer is tested against.
    func referenceSignedDistance(_ x: Double, _ y: Double) -> Double {
        var best = Double.infinity, winding = 0
        for k in ax.indices {
            let x0 = ax[k], y0 = ay[k], x1 = bx[k], y1 = by[k]
            let ex = x1 - x0, ey = y1 - y0, px = x - x0, py = y - y0
            let t = max(0, min(1, (px * ex + py * ey) / (ex * ex + ey * ey)))
            let dx = px - t * ex, dy = py - t * ey
            best = min(best, dx * dx + dy * dy)
            // Crossings of the ray from (x, y) to the right, edges half-open in y.
            if (y0 <= y) != (y1 <= y), x < x0 + (y - y0) * ex / ey { winding += ey > 0 ? 1 : -1 }
        }
        let d = best.squareRoot()
        return holds(winding) ? -d : d
    }

    /// The pixels of a `width` × `height` canvas (pixel (x, y) centered on (x + ½, y + ½)) whose
    /// center may lie within `margin` of an edge: every pixel that does is in the set, and a pixel
    /// not in it is further than `margin` from every edge. Per edge and row, the part of the edge
    /// within `margin` of the row's centers (in y), widened by `margin` (in x).
    func near(margin: Double, width: Int, height: Int) -> NearOutline {
        var bits = [Bool](repeating: false, count: width * height)
        // A little slack, so that rounding never leaves out a pixel at the margin.
        let m = margin + 1e-6
        for k in ax.indices {
            let x0 = ax[k], y0 = ay[k], x1 = bx[k], y1 = by[k]
            let top = max(0, Int((min(y0, y1) - m - 0.5).rounded(.up)))
            let bottom = min(height - 1, Int(max(-1, (max(y0, y1) + m - 0.5).rounded(.down))))
            guard top <= bottom else { continue }
            for y in top...bottom {
                let cy = Double(y) + 0.5
                // The edge's points with |y − cy| ≤ m: the parameter range where its y lies there.
                var t0 = 0.0, t1 = 1.0
                let ey = y1 - y0
                if abs(ey) > 1e-12 {
                    let a = (cy - m - y0) / ey, b = (cy + m - y0) / ey
                    t0 = max(0, min(a, b))
                    t1 = min(1, max(a, b))
                    guard t0 <= t1 else { continue }
                }
                let xa = x0 + (x1 - x0) * t0, xb = x0 + (x1 - x0) * t1
                let lo = max(0, Int((min(xa, xb) - m - 0.5 - 1e-9).rounded(.up)))
                let hi = min(width - 1, Int(max(-1, (max(xa, xb) + m - 0.5 + 1e-9).rounded(.down))))
                guard lo <= hi else { continue }
                for x in lo...hi { bits[y * width + x] = true }
            }
        }
        return NearOutline(width: width, height: height, bits: bits)
    }

    /// The edges whose height meets `top`…`bottom`.
    func edges(meetingRows top: Double, _ bottom: Double) -> [Int32] {
        var out: [Int32] = []
        for k in ax.indices where min(ay[k], by[k]) <= bottom && max(ay[k], by[k]) >= top { out.append(Int32(k)) }
        return out
    }

    /// For each pixel center (x + ½, y) of a row, x in 0..<width: whether it is inside by the fill
    /// rule, by the crossing test `signedDistance` and `referenceSignedDistance` make (the same
    /// expressions over every edge, so the same answer at every point).
    func insideRow(y: Double, width: Int) -> [Bool] {
        var crossings: [(x: Double, turn: Int)] = []
        for k in ax.indices {
            let x0 = ax[k], y0 = ay[k], x1 = bx[k], y1 = by[k]
            guard (y0 <= y) != (y1 <= y) else { continue }
            crossings.append((x0 + (y - y0) * (x1 - x0) / (y1 - y0), y1 - y0 > 0 ? 1 : -1))
        }
        var out = [Bool](repeating: false, count: width)
        guard !crossings.isEmpty else { return out }
        // A crossing counts for every point strictly left of it: sweep from the right.
        crossings.sort { $0.x > $1.x }
        var winding = 0, next = 0
        for x in stride(from: width - 1, through: 0, by: -1) {
            let px = Double(x) + 0.5
            while next < crossings.count, px < crossings[next].x {
                winding += crossings[next].turn
                next += 1
            }
            out[x] = holds(winding)
        }
        return out
    }

    /// The intervals of column x inside the polygons and at least `inset` from every edge, top
    /// first: the column's inside runs (edges half-open in x) less, for inset > 0, the stretch of
    /// the column within `inset` of each edge (a disc at each end and a band along it).
    func chords(x: Double, inset: Double) -> [(top: Double, bottom: Double)] {
        var crossings: [(y: Double, turn: Int)] = []
        for k in ax.indices {
            let x0 = ax[k], x1 = bx[k]
            guard (x0 <= x) != (x1 <= x) else { continue }
            crossings.append((ay[k] + (x - x0) * (by[k] - ay[k]) / (x1 - x0), x1 > x0 ? 1 : -1))
        }
        crossings.sort { $0.y < $1.y || ($0.y == $1.y && $0.turn < $1.turn) }
        var inside: [(top: Double, bottom: Double)] = []
        var winding = 0, start = 0.0
        for c in crossings {
            let was = holds(winding)
            winding += c.turn
            let now = holds(winding)
            if !was && now { start = c.y } else if was && !now, c.y > start { inside.append((start, c.y)) }
        }
        guard inset > 0, !inside.isEmpty else { return inside }
        // The stretches near an edge, merged.
        var near: [(top: Double, bottom: Double)] = []
        let r2 = inset * inset
        for k in ax.indices {
            let x0 = ax[k], y0 = ay[k], x1 = bx[k], y1 = by[k]
            guard min(x0, x1) - inset <= x, max(x0, x1) + inset >= x else { continue }
            var lo = Double.infinity, hi = -Double.infinity
            if abs(x - x0) <= inset {
                let h = (r2 - (x - x0) * (x - x0)).squareRoot()
                lo = min(lo, y0 - h); hi = max(hi, y0 + h)
            }
            if abs(x - x1) <= inset {
                let h = (r2 - (x - x1) * (x - x1)).squareRoot()
                lo = min(lo, y1 - h); hi = max(hi, y1 + h)
            }
            // The band: 0 ≤ (p − a)·e ≤ |e|² and |(p − a) × e| ≤ inset·|e|, each linear in y.
            let ex = x1 - x0, ey = y1 - y0, length = (ex * ex + ey * ey).squareRoot()
            var blo = -Double.infinity, bhi = Double.infinity
            func bound(_ slope: Double, _ value: Double, _ low: Double, _ high: Double) {
                // low ≤ value + slope·y ≤ high.
                if abs(slope) < 1e-15 {
                    if value < low || value > high { blo = .infinity; bhi = -.infinity }
                } else {
                    let a = (low - value) / slope, b = (high - value) / slope
                    blo = max(blo, min(a, b)); bhi = min(bhi, max(a, b))
                }
            }
            bound(ey, (x - x0) * ex - y0 * ey, 0, length * length)
            bound(-ex, (x - x0) * ey + y0 * ex, -inset * length, inset * length)
            if blo <= bhi { lo = min(lo, blo); hi = max(hi, bhi) }
            if lo <= hi { near.append((lo, hi)) }
        }
        near.sort { $0.top < $1.top }
        var merged: [(top: Double, bottom: Double)] = []
        for n in near {
            if let last = merged.last, n.top <= last.bottom { merged[merged.count - 1].bottom = max(last.bottom, n.bottom) } else { merged.append(n) }
        }
        var out: [(top: Double, bottom: Double)] = []
        for var run in inside {
            for n in merged where n.bottom > run.top && n.top < run.bottom {
                if n.top > run.top { out.append((run.top, n.top)) }
                run.top = max(run.top, n.bottom)
                if run.top >= run.bottom { break }
            }
            if run.top < run.bottom { out.append(run) }
        }
        return out
    }
}

/// Pixels near a polygon's edges (`PolygonEdges.near`): a bit per pixel of a canvas.
struct NearOutline: Sendable {
    let width: Int, height: Int
    let bits: [Bool]

    @inline(__always)
    func contains(_ x: Int, _ y: Int) -> Bool { bits[y * width + x] }
}

/// A path's signed distance at points near one pixel's center (within `reach` on each axis),
/// among the few edges that can matter there: the same number as `PolygonEdges.signedDistance`
/// (and `referenceSignedDistance`) bit for bit, further away that query itself.
///
/// A point q within `reach` of the center c on each axis is within ρ = reach × √2 of it, so its
/// nearest edge lies within D(q) ≤ D(c) + ρ of q, within D(c) + 2ρ of c: every edge whose box
/// comes that near is kept, and the minimum over them is the minimum over all. The crossing test
/// counts an edge only where its height spans q's and it passes right of q: every edge whose height
/// meets c's rows ± reach and whose right end is not left of c − reach is kept; the rest count
/// for no such q. Each kept edge is measured by the same expressions as there.
struct LocalEdges: SignedDistanceField {
    let edges: PolygonEdges
    let cx: Double, cy: Double
    /// Edges for the distance and for the crossings, as (x0, y0, x1, y1).
    let nearby: [SIMD4<Double>]
    let crossing: [SIMD4<Double>]
    /// Half the side of the square around the center where the few edges answer.
    static let reach = 1.0

    /// The edges around (cx, cy), whose signed distance is `d`, among `candidates` (which must hold
    /// every edge whose height meets cy ± (|d| + 2√2 × reach), more slack than that is harmless).
    init(_ edges: PolygonEdges, x cx: Double, y cy: Double, distance d: Double, candidates: [Int32]) {
        self.edges = edges
        self.cx = cx
        self.cy = cy
        let reach = LocalEdges.reach
        let r = abs(d) + 2 * reach * 2.0.squareRoot() + 1e-6
        var nearby: [SIMD4<Double>] = [], crossing: [SIMD4<Double>] = []
        for k in candidates {
            let i = Int(k)
            let x0 = edges.ax[i], y0 = edges.ay[i], x1 = edges.bx[i], y1 = edges.by[i]
            let e = SIMD4(x0, y0, x1, y1)
            if min(x0, x1) <= cx + r, max(x0, x1) >= cx - r, min(y0, y1) <= cy + r, max(y0, y1) >= cy - r { nearby.append(e) }
            if min(y0, y1) <= cy + reach + 1e-6, max(y0, y1) >= cy - reach - 1e-6, max(x0, x1) >= cx - reach - 1e-6 { crossing.append(e) }
        }
        self.nearby = nearby
        self.crossing = crossing
    }

    func signedDistance(_ x: Double, _ y: Double) -> Double {
        guard abs(x - cx) <= LocalEdges.reach, abs(y - cy) <= LocalEdges.reach else { return edges.signedDistance(x, y) }
        var best = Double.infinity, winding = 0
        nearby.withUnsafeBufferPointer { nearby in
            for e in nearby {
                let x0 = e[0], y0 = e[1], x1 = e[2], y1 = e[3]
                let ex = x1 - x0, ey = y1 - y0, px = x - x0, py = y - y0
                let t = max(0, min(1, (px * ex + py * ey) / (ex * ex + ey * ey)))
                let dx = px - t * ex, dy = py - t * ey
                best = min(best, dx * dx + dy * dy)
            }
        }
        crossing.withUnsafeBufferPointer { crossing in
            for e in crossing {
                let x0 = e[0], y0 = e[1], x1 = e[2], y1 = e[3]
                let ex = x1 - x0, ey = y1 - y0
                if (y0 <= y) != (y1 <= y), x < x0 + (y - y0) * ex / ey { winding += ey > 0 ? 1 : -1 }
            }
        }
        let d = best.squareRoot()
        return edges.holds(winding) ? -d : d
    }
}
