import WavePlatform

/// An outline given as SVG path data: its view box is fitted into the shape's area as SVG's
/// `preserveAspectRatio="xMidYMid meet"` fits it (scaled by one factor, centred), and its inside
/// follows the fill rule.
public struct ShapePath: Equatable, Sendable {
    /// Which points a path with overlapping or nested subpaths holds (SVG's `fill-rule`).
    public enum FillRule: String, Equatable, Sendable, CaseIterable {
        case nonzero, evenodd
    }

    /// The parsed path data, in view box units.
    public var data: PathData
    /// The part of the path's plane that is fitted into the shape's area.
    public var viewBox: Rect
    public var fillRule: FillRule

    public init(data: PathData, viewBox: Rect, fillRule: FillRule = .nonzero) {
        self.data = data
        self.viewBox = viewBox
        self.fillRule = fillRule
    }

    /// How far a flattened curve may stray from the curve, in output pixels.
    public static let flatness = 0.02

    /// How far a fitted path may reach from the canvas's origin, in canvas sizes (its larger side).
    public static let maximumReach = 16

    /// The most straight segments an outline may be flattened into.
    public static let maximumSegments = 20_000

    /// The view box placed in `area` (output pixels): as large as fits, centred.
    public func fitted(in area: Rect) -> Rect {
        let s = min(area.width / viewBox.width, area.height / viewBox.height)
        let w = viewBox.width * s, h = viewBox.height * s
        return Rect(x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h)
    }

    /// The subpaths as closed polygons in output pixels, the view box filling `box` (a box
    /// `fitted(in:)` gave), each cubic split into equal steps in its parameter, as many as keep the
    /// lines within `flatness` of it: the deviation of n steps is at most ⅛·max|B''|/n², and
    /// |B''| ≤ 6·max(|P0 − 2P1 + P2|, |P1 − 2P2 + P3|). Each polygon ends where it starts (the
    /// closing edge implied).
    public func polygons(in box: Rect) -> [[PathPoint]] {
        let s = box.width / viewBox.width
        func place(_ p: PathPoint) -> PathPoint { PathPoint(box.x + (p.x - viewBox.x) * s, box.y + (p.y - viewBox.y) * s) }
        var out: [[PathPoint]] = []
        for sub in data.subpaths {
            var points = [place(sub.start)]
            var current = sub.start
            for seg in sub.segments {
                switch seg {
                case let .line(p):
                    points.append(place(p))
                case let .cubic(a, b, p):
                    let p0 = place(current), p1 = place(a), p2 = place(b), p3 = place(p)
                    let n = ShapePath.steps(p0, p1, p2, p3)
                    for k in 1...n {
                        let t = Double(k) / Double(n), u = 1 - t
                        let w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t
                        points.append(k == n ? p3 : PathPoint(w0 * p0.x + w1 * p1.x + w2 * p2.x + w3 * p3.x,
                                                              w0 * p0.y + w1 * p1.y + w2 * p2.y + w3 * p3.y))
                    }
                }
                current = seg.end
            }
            out.append(points)
        }
        return out
    }

    /// The straight steps a cubic (output pixels) is flattened into.
    static func steps(_ p0: PathPoint, _ p1: PathPoint, _ p2: PathPoint, _ p3: PathPoint) -> Int {
        let d1 = hypot(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y)
        let d2 = hypot(p1.x - 2 * p2.x + p3.x, p1.y - 2 * p2.y + p3.y)
        let n = (6 * max(d1, d2) / (8 * flatness)).squareRoot().rounded(.up)
        return n.isFinite ? Int(max(1, min(n, Double(maximumSegments + 1)))) : maximumSegments + 1
    }

    /// The number of straight segments the outline takes in `box`.
    public func segmentCount(in box: Rect) -> Int {
        let s = box.width / viewBox.width
        func place(_ p: PathPoint) -> PathPoint { PathPoint(box.x + (p.x - viewBox.x) * s, box.y + (p.y - viewBox.y) * s) }
        var count = 0
        for sub in data.subpaths {
            var current = sub.start
            count += 1
            for seg in sub.segments {
                if case let .cubic(a, b, p) = seg { count += ShapePath.steps(place(current), place(a), place(b), place(p)) } else { count += 1 }
                current = seg.end
                if count > ShapePath.maximumSegments { return count }
            }
        }
        return count
    }
}

extension ShapePath {
    /// A heart: two round lobes over a point, 100 × 88 units.
    public static let heart = builtin(
        "M50 88C20 66 0 48 0 27C0 11 12 0 27 0C37 0 45 5 50 13C55 5 63 0 73 0C88 0 100 11 100 27C100 48 80 66 50 88Z",
        viewBox: Rect(x: 0, y: 0, width: 100, height: 88))

    /// A drop: a point at the top over a round bottom, 80 × 110 units.
    public static let drop = builtin(
        "M40 0C52 18 80 44 80 70A40 40 0 0 1 0 70C0 44 28 18 40 0Z",
        viewBox: Rect(x: 0, y: 0, width: 80, height: 110))

    private static func builtin(_ d: String, viewBox: Rect) -> ShapePath {
        // The built-in path data is fixed and well formed.
        ShapePath(data: try! PathData(parsing: d), viewBox: viewBox)
    }
}
