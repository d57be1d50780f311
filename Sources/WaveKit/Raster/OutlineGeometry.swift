import Foundation

/// Signed distance to the shape's outline, in output pixels: negative inside, positive outside.
/// Every variant is 1-Lipschitz, so `|d| > 0.71` at a pixel's center means the whole pixel is on one side.
struct OutlineGeometry: Sendable {
    let shape: Shape
    let box: Rect
    private let planes: [(nx: Double, ny: Double, c: Double)]

    init(shape: Shape, box: Rect) {
        self.shape = shape
        self.box = box
        if case .triangle = shape {
            let t = TriangleGeometry(box)
            let corners = [t.apex, t.right, t.left]
            planes = (0..<3).map { i in
                let a = corners[i], b = corners[(i + 1) % 3]
                // Outward normal of a clockwise (in y-down screen space) edge a → b.
                var nx = b.y - a.y, ny = -(b.x - a.x)
                let len = (nx * nx + ny * ny).squareRoot()
                nx /= len
                ny /= len
                return (nx, ny, -(nx * a.x + ny * a.y))
            }
        } else {
            planes = []
        }
    }

    func signedDistance(_ x: Double, _ y: Double) -> Double {
        switch shape {
        case .rect:
            let dx = abs(x - box.midX) - box.width / 2, dy = abs(y - box.midY) - box.height / 2
            return hypot(max(dx, 0), max(dy, 0)) + min(max(dx, dy), 0)
        case let .rounded(radius):
            let r = min(radius, box.width / 2, box.height / 2)
            let qx = abs(x - box.midX) - (box.width / 2 - r), qy = abs(y - box.midY) - (box.height / 2 - r)
            return hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - r
        case .circle:
            return hypot(x - box.midX, y - box.midY) - box.width / 2
        case .triangle:
            var d = -Double.infinity
            for p in planes { d = max(d, p.nx * x + p.ny * y + p.c) }
            return d
        }
    }
}

/// Per-pixel coverage of the parts that never move: the water's clip region and the border ring.
struct StaticCoverage: Sendable {
    /// Samples per axis inside a pixel that straddles an outline (16 × 16 = 256 per pixel).
    static let samplesPerAxis = 16

    let width: Int
    let height: Int
    /// Fraction of each pixel inside the water region (the outline less border and gap).
    let water: [Float]
    /// Fraction of each pixel inside the border ring (zero everywhere without a border).
    let border: [Float]
    /// For each row, the half-open range of columns holding any water coverage.
    let waterSpans: [Range<Int>]

    init(config: WaveConfig) {
        width = config.width
        height = config.height
        let geometry = OutlineGeometry(shape: config.shape, box: config.outline)
        let ring = config.border.map { $0.width + $0.gap } ?? 0
        let borderWidth = config.border?.width ?? 0
        var water = [Float](repeating: 0, count: width * height)
        var border = [Float](repeating: 0, count: width * height)
        var spans: [Range<Int>] = []
        let n = StaticCoverage.samplesPerAxis
        let step = 1 / Double(n)
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
                    for sy in 0..<n {
                        let py = Double(y) + (Double(sy) + 0.5) * step
                        for sx in 0..<n {
                            let sd = geometry.signedDistance(Double(x) + (Double(sx) + 0.5) * step, py)
                            if sd <= -ring { w += 1 }
                            if borderWidth > 0, sd <= 0, sd >= -borderWidth { b += 1 }
                        }
                    }
                    water[i] = Float(w) / Float(n * n)
                    border[i] = Float(b) / Float(n * n)
                }
                if water[i] > 0 { first = min(first, x); last = x }
            }
            spans.append(last >= first ? first..<(last + 1) : 0..<0)
        }
        self.water = water
        self.border = border
        self.waterSpans = spans
    }
}
