/// Per-pixel coverage of the parts that never move: the water's clip region and the border ring.
struct StaticCoverage: Sendable {
    /// Points of a Fibonacci lattice inside a pixel that straddles an outline: 233 points with 233
    /// distinct x and 233 distinct y positions, so that edges at any angle (axis-aligned ones
    /// included) get their area to within about 1/233.
    static let lattice: [(Double, Double)] = (0..<233).map { i in
        let y = (Double(i * 144 % 233) + 0.5) / 233
        return ((Double(i) + 0.5) / 233, y)
    }

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

    /// The coverage of `model`'s water region and border ring on its canvas.
    init(model: WaveModel) {
        width = model.config.width
        height = model.config.height
        let geometry = model.outline
        let ring = model.waterInset
        let borderWidth = model.borderWidth
        var water = [Float](repeating: 0, count: width * height)
        var border = [Float](repeating: 0, count: width * height)
        var spans: [Range<Int>] = []
        let lattice = StaticCoverage.lattice
        for y in 0..<height {
            var first = width, last = -1
            for x in 0..<width {
                let d = geometry.signedDistance(Double(x) + 0.5, Double(y) + 0.5)
                let i = y * width + x
                // Water: d ≤ −ring. Border: −borderWidth ≤ d ≤ 0.
                let waterClear = d + ring > 0.71, waterFull = d + ring < -0.71
                let borderClear = borderWidth <= 0 || d > 0.71 || d + borderWidth < -0.71
                let borderFull = borderWidth > 0 && d < -0.71 && d + borderWidth > 0.71
                if (waterClear || waterFull) && (borderClear || borderFull) {
                    water[i] = waterFull ? 1 : 0
                    border[i] = borderFull ? 1 : 0
                } else {
                    var w = 0, b = 0
                    for (sx, sy) in lattice {
                        let sd = geometry.signedDistance(Double(x) + sx, Double(y) + sy)
                        if sd <= -ring { w += 1 }
                        if borderWidth > 0, sd <= 0, sd >= -borderWidth { b += 1 }
                    }
                    water[i] = Float(w) / Float(lattice.count)
                    border[i] = Float(b) / Float(lattice.count)
                }
                if water[i] > 0 { first = min(first, x); last = x }
            }
            spans.append(last >= first ? first..<(last + 1) : 0..<0)
        }
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
