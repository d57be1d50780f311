import WaveKit
import WaveText

/// A closed Lottie path (a `bezier` value: vertices and, relative to each vertex, the in and out
/// tangents' control points), its numbers already rounded to the decimals it is written with, in
/// output pixels (y grows downwards).
struct LottieBezier {
    private(set) var vertices: [PathPoint] = []
    private(set) var inTangents: [PathPoint] = []
    private(set) var outTangents: [PathPoint] = []
    /// Decimals every number is rounded to.
    let decimals: Int

    init(decimals: Int) {
        self.decimals = decimals
    }

    /// `v` rounded to the path's decimals.
    func rounded(_ v: Double) -> Double { LottieBezier.round(v, decimals: decimals) }

    func rounded(_ p: PathPoint) -> PathPoint { PathPoint(rounded(p.x), rounded(p.y)) }

    static func round(_ v: Double, decimals: Int) -> Double {
        var k = 1.0
        for _ in 0..<decimals { k *= 10 }
        let r = (v * k).rounded() / k
        return r == 0 ? 0 : r
    }

    /// Appends a vertex reached by a straight line (or by a curve whose in tangent is `inTangent`,
    /// relative to the vertex).
    mutating func append(_ p: PathPoint, inTangent: PathPoint = PathPoint(0, 0)) {
        vertices.append(rounded(p))
        inTangents.append(rounded(inTangent))
        outTangents.append(PathPoint(0, 0))
    }

    /// Sets the last vertex's out tangent (relative to it).
    mutating func setOutTangent(_ t: PathPoint) {
        outTangents[outTangents.count - 1] = rounded(t)
    }

    /// A cubic from the last vertex through absolute control points c1, c2 to `end`.
    mutating func curve(_ c1: PathPoint, _ c2: PathPoint, to end: PathPoint) {
        let last = vertices[vertices.count - 1]
        setOutTangent(PathPoint(c1.x - last.x, c1.y - last.y))
        let e = rounded(end)
        append(e, inTangent: PathPoint(c2.x - e.x, c2.y - e.y))
    }

    /// Drops a last vertex that repeats the first (a contour that returns to its start), giving its
    /// in tangent to the first: a closed Lottie path joins its ends itself.
    mutating func closeOnFirst() {
        guard vertices.count > 1, vertices[vertices.count - 1] == vertices[0] else { return }
        inTangents[0] = inTangents.removeLast()
        vertices.removeLast()
        outTangents.removeLast()
    }

    /// The cubic segments a reader traces from the rounded numbers, from vertex k to k + 1 for k in
    /// `range` (for checking a traced surface against its sine).
    func segments(_ range: Range<Int>) -> [CubicSegment] {
        range.map { k in
            let a = vertices[k], b = vertices[k + 1], o = outTangents[k], i = inTangents[k + 1]
            return CubicSegment(start: a, control1: PathPoint(a.x + o.x, a.y + o.y), control2: PathPoint(b.x + i.x, b.y + i.y), end: b)
        }
    }

    /// The path as Lottie JSON: `{"c":true,"v":[…],"i":[…],"o":[…]}`.
    var json: JSONNode {
        func points(_ ps: [PathPoint]) -> JSONNode { .array(ps.map { .array([.number($0.x), .number($0.y)]) }) }
        return .object([("c", .bool(true)), ("v", points(vertices)), ("i", points(inTangents)), ("o", points(outTangents))])
    }
}

extension LottieBezier {
    /// A wave surface: `segments` left to right, then straight down to `bottom`, across and up.
    static func surface(_ segments: [CubicSegment], bottom: Double, decimals: Int) -> LottieBezier {
        var path = LottieBezier(decimals: decimals)
        path.append(segments[0].start)
        for s in segments { path.curve(s.control1, s.control2, to: s.end) }
        path.append(PathPoint(segments[segments.count - 1].end.x, bottom))
        path.append(PathPoint(segments[0].start.x, bottom))
        return path
    }

    /// How far a cubic's control point lies along the tangent for a quarter circle of radius 1.
    static let quarterArc = 0.5522847498307936

    /// An outline figure, clockwise on screen, with 2 decimals. Circular arcs are cubics within
    /// 0.03 % of the radius. A path figure's first polygon only: `figures` gives them all.
    static func figure(_ figure: OutlineFigure) -> LottieBezier {
        var path = LottieBezier(decimals: 2)
        let k = quarterArc
        switch figure {
        case let .rect(r, radius):
            let rr = min(radius, r.width / 2, r.height / 2)
            guard rr > 0 else {
                for p in [PathPoint(r.x, r.y), PathPoint(r.maxX, r.y), PathPoint(r.maxX, r.maxY), PathPoint(r.x, r.maxY)] { path.append(p) }
                return path
            }
            let c = k * rr
            // Each corner: the end of one side, then the start of the next, joined by a quarter arc.
            let corners: [(PathPoint, PathPoint, PathPoint, PathPoint)] = [
                (PathPoint(r.maxX - rr, r.y), PathPoint(c, 0), PathPoint(r.maxX, r.y + rr), PathPoint(0, -c)),
                (PathPoint(r.maxX, r.maxY - rr), PathPoint(0, c), PathPoint(r.maxX - rr, r.maxY), PathPoint(c, 0)),
                (PathPoint(r.x + rr, r.maxY), PathPoint(-c, 0), PathPoint(r.x, r.maxY - rr), PathPoint(0, c)),
                (PathPoint(r.x, r.y + rr), PathPoint(0, -c), PathPoint(r.x + rr, r.y), PathPoint(-c, 0)),
            ]
            for (end, out, start, into) in corners {
                path.append(end)
                path.setOutTangent(out)
                path.append(start, inTangent: into)
            }
            path.closeOnFirst()
        case let .circle(cx, cy, r):
            let c = k * r
            path.append(PathPoint(cx, cy - r), inTangent: PathPoint(-c, 0))
            path.setOutTangent(PathPoint(c, 0))
            path.append(PathPoint(cx + r, cy), inTangent: PathPoint(0, -c))
            path.setOutTangent(PathPoint(0, c))
            path.append(PathPoint(cx, cy + r), inTangent: PathPoint(c, 0))
            path.setOutTangent(PathPoint(-c, 0))
            path.append(PathPoint(cx - r, cy), inTangent: PathPoint(0, c))
            path.setOutTangent(PathPoint(0, -c))
        case let .polygon(points):
            for p in points { path.append(p) }
        case let .path(polygons, _, _):
            for p in polygons.first ?? [] { path.append(p) }
            path.closeOnFirst()
        }
        return path
    }

    /// An outline figure as closed paths: one per polygon of a path shape, else `figure(_:)`.
    static func figures(_ figure: OutlineFigure) -> [LottieBezier] {
        guard case let .path(polygons, _, _) = figure else { return [self.figure(figure)] }
        return polygons.map { points in
            var path = LottieBezier(decimals: 2)
            for p in points { path.append(p) }
            path.closeOnFirst()
            return path
        }
    }

    /// The label's glyph contours moved by (dx, dy), one closed path each, with 2 decimals.
    /// TrueType's quadratic curves become the cubics that trace them exactly.
    static func glyphs(_ outline: TextOutline, dx: Double, dy: Double) -> [LottieBezier] {
        var paths: [LottieBezier] = []
        var path = LottieBezier(decimals: 2)
        var current = PathPoint(0, 0)
        func at(_ x: Double, _ y: Double) -> PathPoint { PathPoint(x + dx, y + dy) }
        func finish() {
            path.closeOnFirst()
            if path.vertices.count > 1 { paths.append(path) }
            path = LottieBezier(decimals: 2)
        }
        for c in outline.commands {
            switch c {
            case let .move(x, y):
                if !path.vertices.isEmpty { finish() }
                current = at(x, y)
                path.append(current)
            case let .line(x, y):
                current = at(x, y)
                path.append(current)
            case let .quad(cx, cy, x, y):
                let q = at(cx, cy), end = at(x, y)
                path.curve(PathPoint(current.x + 2 * (q.x - current.x) / 3, current.y + 2 * (q.y - current.y) / 3),
                           PathPoint(end.x + 2 * (q.x - end.x) / 3, end.y + 2 * (q.y - end.y) / 3), to: end)
                current = end
            case let .cubic(ax, ay, bx, by, x, y):
                let end = at(x, y)
                path.curve(at(ax, ay), at(bx, by), to: end)
                current = end
            case .close:
                finish()
            }
        }
        if !path.vertices.isEmpty { finish() }
        return paths
    }
}
