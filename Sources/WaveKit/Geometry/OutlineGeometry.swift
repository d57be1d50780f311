import WavePlatform

/// The shape's outline as geometry, in output pixels (y grows downwards): its signed distance and
/// its vertical chords, also shrunk by an inset (the water region lies inside the outline by the
/// border's width and gap).
public struct OutlineGeometry: Sendable {
    /// The outline's kind (rectangle, rounded rectangle, circle or triangle).
    public let shape: Shape
    /// The box the outline fills, in output pixels.
    public let box: Rect
    /// A rectangle's or triangle's sides as half-planes nx·x + ny·y + c ≤ 0 (outward unit normals).
    let planes: [(nx: Double, ny: Double, c: Double)]
    /// A path shape's edges (flattened within `ShapePath.flatness`), in output pixels; empty for
    /// the other shapes.
    let edges: PolygonEdges

    /// The outline of `shape` filling `box` (a circle's box is a square).
    public init(shape: Shape, box: Rect) {
        // Rectangles and triangles are intersections of half-planes (used for chords).
        self.shape = shape
        self.box = box
        if case let .path(path) = shape {
            edges = PolygonEdges(path.polygons(in: box), evenOdd: path.fillRule == .evenodd)
        } else {
            edges = PolygonEdges([], evenOdd: false)
        }
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
            // The four sides of the box, outward normals.
            planes = [(-1, 0, box.x), (1, 0, -box.maxX), (0, -1, box.y), (0, 1, -box.maxY)]
        }
    }

    /// The outline of `shape` filling the canvas box `box`, seen in the wave frame of `orientation`:
    /// the same outline, turned or mirrored with the canvas, so its signed distance at a wave-frame
    /// point is the canvas outline's at the canvas point, and its chords run along the wave frame's
    /// columns (the canvas's rows for a sideways direction).
    public init(shape: Shape, box: Rect, orientation: WaveOrientation) {
        let canvas = OutlineGeometry(shape: shape, box: box)
        guard !orientation.isIdentity else { self = canvas; return }
        self.shape = shape
        self.box = orientation.waveRect(box)
        if case let .path(path) = shape {
            let polygons = path.polygons(in: box).map { polygon in
                polygon.map { p in
                    let q = orientation.wavePoint(p.x, p.y)
                    return PathPoint(q.u, q.v)
                }
            }
            edges = PolygonEdges(polygons, evenOdd: path.fillRule == .evenodd)
        } else {
            edges = PolygonEdges([], evenOdd: false)
        }
        // A canvas half-plane n·p + c ≤ 0, with p = A·q + t, is (Aᵀn)·q + (n·t + c) ≤ 0.
        let m = orientation.matrix
        planes = canvas.planes.map { p in
            (p.nx * m.a + p.ny * m.b, p.nx * m.c + p.ny * m.d, p.nx * m.e + p.ny * m.f + p.c)
        }
    }

    /// The intervals [top, bottom] of column x (output pixels) inside the outline shrunk by `d`,
    /// top first: one at most for every shape but a path.
    public func chords(x: Double, inset d: Double) -> [(top: Double, bottom: Double)] {
        if case .path = shape { return edges.chords(x: x, inset: d) }
        return chord(x: x, inset: d).map { [(top: $0.0, bottom: $0.1)] } ?? []
    }

    /// The vertical extent [top, bottom] of the outline shrunk by `d` at column x, or nil when x is
    /// outside it; all in output pixels. For the convex shapes (a path's column may cross it
    /// several times: see `chords`).
    public func chord(x: Double, inset d: Double) -> (Double, Double)? {
        switch shape {
        case .path:
            let c = edges.chords(x: x, inset: d)
            return c.isEmpty ? nil : (c.first!.top, c.last!.bottom)
        case .rect, .triangle:
            var lo = -Double.infinity, hi = Double.infinity
            for p in planes {
                // Inside: nx·x + ny·y + c ≤ −d.
                let rhs = -d - p.c - p.nx * x
                if abs(p.ny) < 1e-12 {
                    if rhs < 0 { return nil }
                } else if p.ny > 0 {
                    hi = min(hi, rhs / p.ny)
                } else {
                    lo = max(lo, rhs / p.ny)
                }
            }
            return lo < hi ? (lo, hi) : nil
        case let .rounded(radius):
            let b = box.insetBy(d)
            guard b.width > 0, b.height > 0, x >= b.x, x <= b.maxX else { return nil }
            let r = max(0, min(radius, box.width / 2, box.height / 2) - d)
            let cx = min(max(x, b.x + r), b.maxX - r)
            let h = (max(0, r * r - (x - cx) * (x - cx))).squareRoot()
            return (b.y + r - h, b.maxY - r + h)
        case .circle:
            let r = box.width / 2 - d
            let dx = x - box.midX
            guard r > 0, abs(dx) <= r else { return nil }
            let h = (r * r - dx * dx).squareRoot()
            return (box.midY - h, box.midY + h)
        }
    }

    /// `hypot(a, b)` of a, b ≥ 0, the other when one is 0 (the same number: hypot(0, b) is b
    /// exactly), as it is everywhere but near a box's corners.
    @inline(__always)
    static func length(_ a: Double, _ b: Double) -> Double {
        a == 0 ? b : b == 0 ? a : hypot(a, b)
    }

    /// Signed distance from (x, y) to the outline, in output pixels: negative inside, positive
    /// outside. Every shape's is 1-Lipschitz, so `|d| > 0.71` at a pixel's center means the whole
    /// pixel is on one side.
    public func signedDistance(_ x: Double, _ y: Double) -> Double {
        switch shape {
        case .path:
            return edges.signedDistance(x, y)
        case .rect:
            let dx = abs(x - box.midX) - box.width / 2, dy = abs(y - box.midY) - box.height / 2
            return OutlineGeometry.length(max(dx, 0), max(dy, 0)) + min(max(dx, dy), 0)
        case let .rounded(radius):
            let r = min(radius, box.width / 2, box.height / 2)
            let qx = abs(x - box.midX) - (box.width / 2 - r), qy = abs(y - box.midY) - (box.height / 2 - r)
            return OutlineGeometry.length(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - r
        case .circle:
            return hypot(x - box.midX, y - box.midY) - box.width / 2
        case .triangle:
            var d = -Double.infinity
            for p in planes { d = max(d, p.nx * x + p.ny * y + p.c) }
            return d
        }
    }
}
