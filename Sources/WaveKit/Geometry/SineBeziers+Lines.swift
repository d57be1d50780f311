import WavePlatform

extension SineBeziers {
    /// The surface over `lower`…`upper` traced by straight lines within `tolerance` output pixels
    /// (measured vertically), as the vertices left to right: the first at `lower` on the sine,
    /// the others at `lower` + k × `step` (the last at `upper`, on the sine), each within
    /// `tolerance` of it. The step is halved where the sine bends too sharply for it.
    ///
    /// Some renderers flatten cubic curves coarsely: Chromium's (Skia's) edge of a cubic strays by
    /// up to about 1/8 px, while a line is drawn where it is.
    ///
    /// Greedy: from each vertex the next is the farthest grid point that some line from the vertex
    /// reaches while passing within `tolerance` of the sine at every grid point between (the
    /// slopes that do so narrow to an interval as the line grows); the vertex is put on that line
    /// as near the sine as it allows. A vertex may thus sit off the sine and a line run on both
    /// sides of it, which a chord cannot: lines about 1.4× longer. Deterministic.
    public func lines(from lower: Double, to upper: Double, tolerance: Double, step largest: Double = 0.1) -> [PathPoint] {
        // Between two grid points the sine bulges from a line by at most curvature × step² / 8:
        // the grid is fine enough for that to be a quarter of the tolerance at most, and the grid
        // points are held to the rest.
        let curvature = amplitude * pow(2 * Double.pi / wavelength, 2)
        var step = largest
        while curvature * step * step / 8 > tolerance / 4 { step /= 2 }
        let tolerance = tolerance - curvature * step * step / 8
        let count = max(1, Int(saturating: ((upper - lower) / step).rounded(.up)))
        let xs = (0...count).map { k in k == count ? upper : lower + Double(k) * step }
        let ys = xs.map { height(atX: $0) }
        var vertices = [PathPoint(xs[0], ys[0])]
        var a = 0
        while a < count {
            let start = vertices[vertices.count - 1]
            // Slopes from `start` within tolerance of every grid point after it so far.
            var low = -Double.infinity, high = Double.infinity
            var best = (index: a + 1, y: ys[a + 1])
            var b = a + 1
            while b <= count {
                let dx = xs[b] - start.x
                let lo = (ys[b] - tolerance - start.y) / dx, hi = (ys[b] + tolerance - start.y) / dx
                // The end vertex itself lies within tolerance too; the last one lies on the sine.
                let endLow = b == count ? (ys[b] - start.y) / dx : lo, endHigh = b == count ? endLow : hi
                let reachLow = max(low, endLow), reachHigh = min(high, endHigh)
                if reachLow <= reachHigh {
                    let onSine = (ys[b] - start.y) / dx
                    best = (b, start.y + min(max(onSine, reachLow), reachHigh) * dx)
                } else if b > a + 1 {
                    break
                }
                low = max(low, lo)
                high = min(high, hi)
                if low > high { break }
                b += 1
            }
            vertices.append(PathPoint(xs[best.index], best.y))
            a = best.index
        }
        return vertices
    }

    /// `lines` traced over one wavelength and repeated to cover `lower`…`upper`:
    /// from the last vertex at or before `lower` to the first at or after `upper`. Moved by a
    /// whole number of wavelengths the polyline falls on itself, so a layer that drifts one
    /// wavelength per cycle loops without a seam.
    public func periodicLines(from lower: Double, to upper: Double, tolerance: Double) -> [PathPoint] {
        // The wavelength is traced from 16 places a sixteenth apart, the fewest lines kept (the
        // greedy tracing is not optimal, and where it starts matters); each start at or before
        // `lower` on a whole hundredth, so that steps of 0.1 px from it are written with one
        // decimal.
        let turns = ((lower - origin) / wavelength + phase).rounded(.down) - 1
        var period: ArraySlice<PathPoint> = []
        for k in 0..<16 {
            let start = ((origin + (turns - phase + Double(k) / 16) * wavelength) * 100).rounded(.down) / 100
            let traced = lines(from: start, to: start + wavelength, tolerance: tolerance).dropLast()
            if period.isEmpty || traced.count < period.count { period = traced }
        }
        var vertices: [PathPoint] = []
        var j = 0.0
        while vertices.last.map({ $0.x < upper }) ?? true {
            for v in period {
                vertices.append(PathPoint(v.x + j * wavelength, v.y))
                if v.x + j * wavelength >= upper { break }
            }
            j += 1
        }
        let first = vertices.lastIndex { $0.x <= lower } ?? 0
        return Array(vertices[first...])
    }

    /// The largest vertical distance between the polyline through `vertices` and the true surface,
    /// sampled `samples` times per line: the slow check beside `lines`.
    public func deviation(ofLines vertices: [PathPoint], samples: Int = 64) -> Double {
        var worst = 0.0
        for (p, q) in zip(vertices, vertices.dropFirst()) {
            for i in 0...samples {
                let t = Double(i) / Double(samples)
                let x = p.x + (q.x - p.x) * t
                worst = max(worst, abs(p.y + (q.y - p.y) * t - height(atX: x)))
            }
        }
        return worst
    }
}
