/// An outline as a figure a vector format can draw, in output pixels (y grows downwards).
public enum OutlineFigure: Equatable, Sendable {
    /// A rectangle with rounded corners of `cornerRadius` (0 for sharp corners).
    case rect(Rect, cornerRadius: Double)
    case circle(centerX: Double, centerY: Double, radius: Double)
    /// A convex polygon, its corners in drawing order.
    case polygon([PathPoint])
    /// The points inside closed polygons (by the even-odd rule when `evenOdd`, else nonzero) that
    /// lie at least `inset` from every edge: a path shape (flattened within `ShapePath.flatness`)
    /// shrunk by `inset`. A vector format draws it as the polygons' fill less a round-joined stroke
    /// of width 2 × `inset` along them.
    case path([[PathPoint]], evenOdd: Bool, inset: Double)
}

extension OutlineGeometry {
    /// The outline shrunk by `d` output pixels: exactly the set where `signedDistance ≤ −d`, which the
    /// rasterizer's coverage measures; nil when nothing is left.
    public func figure(inset d: Double) -> OutlineFigure? {
        switch shape {
        case let .path(path):
            return .path(path.polygons(in: box), evenOdd: path.fillRule == .evenodd, inset: d)
        case .rect:
            let b = box.insetBy(d)
            return b.width > 0 && b.height > 0 ? .rect(b, cornerRadius: 0) : nil
        case let .rounded(radius):
            let b = box.insetBy(d)
            guard b.width > 0, b.height > 0 else { return nil }
            return .rect(b, cornerRadius: max(0, min(radius, box.width / 2, box.height / 2) - d))
        case .circle:
            let r = box.width / 2 - d
            return r > 0 ? .circle(centerX: box.midX, centerY: box.midY, radius: r) : nil
        case .triangle:
            // Shrinking a triangle's sides inwards gives a similar triangle about its incenter.
            let t = TriangleGeometry(box)
            let k = (t.inradius - d) / t.inradius
            guard k > 0 else { return nil }
            return .polygon([t.apex, t.right, t.left].map {
                PathPoint(t.incenter.x + ($0.x - t.incenter.x) * k, t.incenter.y + ($0.y - t.incenter.y) * k)
            })
        }
    }
}
