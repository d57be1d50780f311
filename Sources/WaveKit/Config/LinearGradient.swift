import WavePlatform

/// A CSS linear gradient (CSS Images Level 3, `linear-gradient()`): a direction and two or more
/// color stops, laid over a box as a CSS background is laid over its element.
public struct LinearGradient: Equatable, Sendable {
    /// Which way the gradient line points.
    public enum Direction: Equatable, Sendable {
        /// An angle in degrees: 0 points up (`to top`), 90 right, clockwise.
        case angle(Double)
        /// `to top right` and the like: horizontal −1 (left), 0 or 1 (right); vertical −1 (top), 0
        /// or 1 (bottom). The gradient line is perpendicular to the diagonal between the two
        /// neighbouring corners, so the 50 % line runs through them and 100 % through the corner named.
        case corner(horizontal: Int, vertical: Int)
    }

    /// A color stop as written: its color and position (a fraction of the gradient line, 1 = 100 %),
    /// nil when the stop gives none.
    public struct Stop: Equatable, Sendable {
        public var color: RGBA
        public var position: Double?

        public init(_ color: RGBA, _ position: Double? = nil) {
            self.color = color
            self.position = position
        }
    }

    public var direction: Direction
    public var stops: [Stop]

    public init(direction: Direction, stops: [Stop]) {
        self.direction = direction
        self.stops = stops
    }

    /// The stops with CSS's fix-up applied ("Color stop fixup"): a first stop without a position is
    /// at 0, a last one at 1; a position below an earlier one is raised to it; runs without
    /// positions are spread evenly between their neighbours.
    public var resolvedStops: [(color: RGBA, position: Double)] {
        var positions = stops.map(\.position)
        if positions[0] == nil { positions[0] = 0 }
        if positions[positions.count - 1] == nil { positions[positions.count - 1] = 1 }
        var highest = -Double.infinity
        for i in positions.indices {
            if let p = positions[i] {
                highest = max(highest, p)
                positions[i] = highest
            }
        }
        var i = 0
        while i < positions.count {
            guard positions[i] == nil else { i += 1; continue }
            let start = i - 1
            var end = i
            while positions[end] == nil { end += 1 }
            let a = positions[start]!, b = positions[end]!
            for k in (start + 1)..<end { positions[k] = a + (b - a) * Double(k - start) / Double(end - start) }
            i = end
        }
        return zip(stops, positions).map { ($0.color, $1!) }
    }

    /// The gradient line over `box` (output pixels, y down): where 0 % and 100 % lie. It runs
    /// through the box's center, and its length is the box's extent along it
    /// (|W sin θ| + |H cos θ|), so the corners' perpendiculars meet 0 % and 100 %.
    public func line(in box: Rect) -> (start: (x: Double, y: Double), end: (x: Double, y: Double)) {
        let (dx, dy) = unitDirection(in: box)
        let half = (abs(box.width * dx) + abs(box.height * dy)) / 2
        return ((box.midX - dx * half, box.midY - dy * half), (box.midX + dx * half, box.midY + dy * half))
    }

    /// The gradient line's direction as a unit vector (y down).
    func unitDirection(in box: Rect) -> (Double, Double) {
        switch direction {
        case let .angle(degrees):
            let a = degrees * Double.pi / 180
            return (sin(a), -cos(a))
        case let .corner(h, v):
            if h == 0 || v == 0 { return (Double(h), Double(v)) }
            // Perpendicular to the diagonal through the other two corners: (h × H, v × W).
            let x = Double(h) * box.height, y = Double(v) * box.width
            let n = (x * x + y * y).squareRoot()
            return n > 0 ? (x / n, y / n) : (Double(h) / 2.squareRoot(), Double(v) / 2.squareRoot())
        }
    }

    /// The color at point (x, y) of `box`, premultiplied, with its alpha multiplied by `opacity`.
    /// Colors are interpolated in premultiplied sRGB, as CSS Images says; before the first stop the
    /// first color holds, after the last the last, and where stops share a position the later wins.
    public func color(atX x: Double, y: Double, in box: Rect, opacity: Double = 1) -> PremultipliedColor {
        GradientSampler(self, box: box, opacity: opacity).color(atX: x, y: y)
    }

    /// A color standing for the whole gradient where one color must do: the mean of its stops'.
    public var meanColor: RGBA {
        var sum = PremultipliedColor.clear
        for s in stops {
            let c = PremultipliedColor(s.color)
            sum = PremultipliedColor(r: sum.r + c.r, g: sum.g + c.g, b: sum.b + c.b, a: sum.a + c.a)
        }
        let k = 1 / Double(stops.count)
        return PremultipliedColor(r: sum.r * k, g: sum.g * k, b: sum.b * k, a: sum.a * k).straight
    }
}

/// A gradient laid over one box, ready to be asked for colors fast: the line's start and its
/// direction scaled by 1 / length, and the stops as premultiplied colors.
public struct GradientSampler: Sendable {
    let startX: Double, startY: Double
    let stepX: Double, stepY: Double
    let positions: [Double]
    let colors: [PremultipliedColor]

    public init(_ gradient: LinearGradient, box: Rect, opacity: Double = 1) {
        let (start, end) = gradient.line(in: box)
        let dx = end.x - start.x, dy = end.y - start.y
        let squared = dx * dx + dy * dy
        startX = start.x
        startY = start.y
        stepX = squared > 0 ? dx / squared : 0
        stepY = squared > 0 ? dy / squared : 0
        let stops = gradient.resolvedStops
        positions = stops.map(\.position)
        colors = stops.map { PremultipliedColor($0.color, opacity: opacity) }
    }

    /// The position of (x, y) along the gradient line: 0 at its start, 1 at its end.
    @inline(__always)
    func position(x: Double, y: Double) -> Double { (x - startX) * stepX + (y - startY) * stepY }

    /// The premultiplied color at (x, y), output pixels.
    public func color(atX x: Double, y: Double) -> PremultipliedColor {
        let t = position(x: x, y: y)
        let last = positions.count - 1
        if !(t >= positions[0]) { return colors[0] }
        if t >= positions[last] { return colors[last] }
        var i = 1
        while positions[i] <= t { i += 1 }
        let a = positions[i - 1], b = positions[i]
        return colors[i - 1].mixed(with: colors[i], b > a ? (t - a) / (b - a) : 1)
    }
}

/// What fills a layer or the background: one color, or a linear gradient over a box.
public enum Paint: Equatable, Sendable {
    case flat(RGBA)
    case linear(LinearGradient)

    /// The flat color, or nil for a gradient.
    public var flatColor: RGBA? {
        if case let .flat(c) = self { return c }
        return nil
    }

    /// The gradient, or nil for a flat color.
    public var gradient: LinearGradient? {
        if case let .linear(g) = self { return g }
        return nil
    }

    /// One color standing for the paint where one must do (a gradient's mean color).
    public var representativeColor: RGBA {
        switch self {
        case let .flat(c): return c
        case let .linear(g): return g.meanColor
        }
    }
}
