import Foundation
@testable import WaveKit

/// A slow, obviously correct renderer: many point samples per pixel, each composited on its own in
/// double precision, averaged in premultiplied RGBA. No palette, no coverage shortcuts, and its own
/// inside-tests for every shape.
///
/// A fill direction other than `up` is drawn by its own map of each sample point into the frame
/// where the water fills upwards (the surfaces are worked out there); the shape, the ring, the
/// rider and the label are drawn on the canvas, the rider upright at its anchor on the front.
struct ReferenceRenderer {
    let config: WaveConfig
    let plan: LoopPlan
    /// The label's placed texts, drawn over the water (none when nil).
    var label: LabelTexts?
    /// Whether the rider is sampled from its image shrunk to the drawn size as the rasterizer
    /// stores it (`RiderImage.resampled`), rather than from the original: the difference then
    /// measures where and how the rider is placed, not the area filter against point samples.
    var riderAsStored = false
    /// The rider's image as sampled: the original, or as stored with `riderAsStored`.
    let riderImage: RiderImage?
    /// Sample points per pixel, as a Fibonacci lattice: `samples` points with as many distinct x and
    /// y positions, so straight edges at any angle are integrated finely. A Fibonacci number.
    var samples = 144
    /// A path shape's outline flattened into closed polygons (output pixels); empty for other shapes.
    let polygons: [[PathPoint]]

    init(config: WaveConfig, plan: LoopPlan, samples: Int = 144, label: LabelTexts? = nil, riderAsStored: Bool = false) {
        self.riderAsStored = riderAsStored
        riderImage = config.rider.map { rider in
            riderAsStored ? rider.image.resampled(width: max(1, Int(rider.width.rounded())), height: max(1, Int(rider.height.rounded()))) : rider.image
        }
        self.config = config
        self.plan = plan
        self.samples = samples
        self.label = label
        if case let .path(path) = config.shape { polygons = path.polygons(in: config.outline) } else { polygons = [] }
    }

    /// The lattice for `samples` points: x = (i + ½)/n, y = frac(i × g / n + ½/n), g the previous Fibonacci number.
    var lattice: [(Double, Double)] {
        var (a, b) = (1, 1)
        while b < samples { (a, b) = (b, a + b) }
        let n = b, g = a
        return (0..<n).map { (i: Int) -> (Double, Double) in
            let x = (Double(i) + 0.5) / Double(n)
            let y = (Double(i * g % n) + 0.5) / Double(n)
            return (x, y)
        }
    }

    /// The frame where the water fills upwards: canvas point (x, y) there.
    func turned(_ x: Double, _ y: Double) -> (Double, Double) {
        let w = Double(config.width), h = Double(config.height)
        switch config.direction {
        case .up: return (x, y)
        case .down: return (x, h - y)
        case .right: return (y, w - x)
        case .left: return (y, x)
        }
    }

    /// The canvas point of point (x, y) of the turned frame.
    func unturned(_ x: Double, _ y: Double) -> (Double, Double) {
        let w = Double(config.width), h = Double(config.height)
        switch config.direction {
        case .up: return (x, y)
        case .down: return (x, h - y)
        case .right: return (w - y, x)
        case .left: return (y, x)
        }
    }

    /// The wave box in the turned frame.
    var turnedBox: Rect {
        let b = config.box
        let (x0, y0) = turned(b.x, b.y), (x1, y1) = turned(b.maxX, b.maxY)
        return Rect(x: min(x0, x1), y: min(y0, y1), width: abs(x1 - x0), height: abs(y1 - y0))
    }

    /// Premultiplied RGBA (0…1) of frame `frame` of `count`.
    func render(frame: Int, of count: Int) -> [PremultipliedColor] {
        let u = Double(frame) / Double(count)
        let level = config.level.level(frame: frame, of: count)
        let box = turnedBox
        let y0 = box.y + box.height * (1 - level)
        let text = label?.overlay(frame: frame, of: count)
        let front = config.layers.count - 1
        let bg = PremultipliedColor(config.background)
        var out = [PremultipliedColor](repeating: .clear, count: config.width * config.height)
        let points = lattice
        for py in 0..<config.height {
            for px in 0..<config.width {
                var sum = PremultipliedColor.clear
                for (sx, sy) in points {
                    do {
                        let x = Double(px) + sx
                        let y = Double(py) + sy
                        let (tx, ty) = turned(x, y)
                        // A paint takes its color at the canvas pixel's center, as browsers draw a CSS gradient.
                        let cx = Double(px) + 0.5, cy = Double(py) + 0.5
                        var c = config.backgroundGradient.map { gradientColor($0, cx, cy, box: canvasBox, opacity: 1) } ?? bg
                        if insideWater(x, y) {
                            var wet = false
                            for (i, l) in config.layers.enumerated() {
                                let cycles = Double(plan.layers[i].cycles)
                                let s = y0 + l.offset - l.amplitude * sin(2 * Double.pi * ((tx - box.x) / l.wavelength + l.phase - cycles * u))
                                if ty >= s {
                                    let paint = l.gradient.map { gradientColor($0, cx, cy, box: config.outline, opacity: l.opacity) }
                                        ?? PremultipliedColor(l.color, opacity: l.opacity)
                                    c = c.under(paint, coverage: 1)
                                    if i == front { wet = true }
                                }
                                if let rider = config.rider, rider.layer == i { c = c.under(riderColor(rider, x, y, u: u, y0: y0), coverage: 1) }
                            }
                            if let text, px >= text.x, py >= text.y, px < text.x + text.width, py < text.y + text.height {
                                let k = (py - text.y) * text.width + (px - text.x)
                                c = c.under(text.strokeColor, coverage: Double(text.stroke[k]))
                                    .under(wet ? text.colorOnWater : text.color, coverage: Double(text.fill[k]))
                            }
                        }
                        if let b = config.border, insideRing(x, y, width: b.width) {
                            c = c.under(PremultipliedColor(b.color), coverage: 1)
                        }
                        sum = PremultipliedColor(r: sum.r + c.r, g: sum.g + c.g, b: sum.b + c.b, a: sum.a + c.a)
                    }
                }
                let k = Double(points.count)
                out[py * config.width + px] = PremultipliedColor(r: sum.r / k, g: sum.g / k, b: sum.b / k, a: sum.a / k)
            }
        }
        return out
    }

    var canvasBox: Rect { Rect(x: 0, y: 0, width: Double(config.width), height: Double(config.height)) }

    /// A CSS linear gradient's color at (x, y) over `box`, straight from CSS Images 3: the
    /// gradient line runs through the box's center at the angle (0° up, clockwise; a corner's angle
    /// makes the line perpendicular to the diagonal between the neighbouring corners), its length
    /// |W sin a| + |H cos a|; the stops' positions are fixed up (first 0, last 1, each at least
    /// the largest before it, the rest spread evenly) and colors mixed in premultiplied RGBA.
    func gradientColor(_ g: LinearGradient, _ x: Double, _ y: Double, box: Rect, opacity: Double) -> PremultipliedColor {
        let w = box.width, h = box.height
        var angle: Double
        switch g.direction {
        case let .angle(degrees): angle = degrees * Double.pi / 180
        case let .corner(horizontal, vertical):
            // atan2 of the corner direction (h·H, v·W) in CSS's bearing (x = sin, −y = cos).
            angle = atan2(Double(horizontal) * h, -Double(vertical) * w)
        }
        let length = abs(w * sin(angle)) + abs(h * cos(angle))
        // Distance along the line from its start, over its length.
        let along = (x - box.midX) * sin(angle) - (y - box.midY) * cos(angle)
        let t = length > 0 ? along / length + 0.5 : 0
        // Fix-up, step by step: ends, then monotone, then the gaps spread evenly.
        var given: [Double?] = g.stops.map(\.position)
        if given[0] == nil { given[0] = 0 }
        if given[given.count - 1] == nil { given[given.count - 1] = 1 }
        var largest = -Double.infinity
        for n in 0..<given.count {
            if let v = given[n] {
                largest = max(largest, v)
                given[n] = largest
            }
        }
        var p = [Double](repeating: 0, count: given.count)
        var lastKnown = 0
        p[0] = given[0]!
        for n in 1..<given.count {
            guard let v = given[n] else { continue }
            let gap = n - lastKnown
            for m in (lastKnown + 1)..<(n + 1) { p[m] = p[lastKnown] + (v - p[lastKnown]) * Double(m - lastKnown) / Double(gap) }
            lastKnown = n
        }
        let colors = g.stops.map { PremultipliedColor($0.color, opacity: opacity) }
        if t <= p[0] { return colors[0] }
        for k in 1..<p.count where t < p[k] {
            let f = (t - p[k - 1]) / (p[k] - p[k - 1])
            return colors[k - 1].mixed(with: colors[k], f)
        }
        return colors[colors.count - 1]
    }

    /// The rider's color at canvas point (x, y): the anchor on the surface, turned by tilt × the
    /// slope's angle (mirrored for `down`, upright for a sideways front), the original image
    /// sampled bilinearly in premultiplied alpha.
    func riderColor(_ rider: Rider, _ x: Double, _ y: Double, u: Double, y0: Double) -> PremultipliedColor {
        let l = config.layers[rider.layer]
        let cycles = Double(plan.layers[rider.layer].cycles)
        let box = turnedBox
        let tx = box.x + rider.x * box.width
        let arg = 2 * Double.pi * ((tx - box.x) / l.wavelength + l.phase - cycles * u)
        let ty = y0 + l.offset - l.amplitude * sin(arg) + rider.sink
        let (ax, ay) = unturned(tx, ty)
        let slopeAngle = rider.tilt * atan(-l.amplitude * 2 * Double.pi / l.wavelength * cos(arg))
        let angle = config.direction == .up ? slopeAngle : config.direction == .down ? -slopeAngle : 0
        let dx = x - ax, dy = y - ay
        // Rotate back by the angle, then scale drawn pixels to image pixels.
        let px = cos(angle) * dx + sin(angle) * dy + rider.anchor.x * rider.width
        let py = -sin(angle) * dx + cos(angle) * dy + rider.anchor.y * rider.height
        let img = riderImage ?? rider.image
        let u = px * Double(img.width) / rider.width - 0.5, v = py * Double(img.height) / rider.height - 0.5
        func at(_ i: Int, _ j: Int) -> PremultipliedColor {
            guard i >= 0, j >= 0, i < img.width, j < img.height else { return .clear }
            let k = (j * img.width + i) * 4
            return PremultipliedColor(RGBA(img.rgba[k], img.rgba[k + 1], img.rgba[k + 2], img.rgba[k + 3]))
        }
        let i0 = Int(u.rounded(.down)), j0 = Int(v.rounded(.down))
        let fx = u - Double(i0), fy = v - Double(j0)
        return at(i0, j0).mixed(with: at(i0 + 1, j0), fx).mixed(with: at(i0, j0 + 1).mixed(with: at(i0 + 1, j0 + 1), fx), fy)
    }

    var ring: Double { config.border.map { $0.width + $0.gap } ?? 0 }

    func insideWater(_ x: Double, _ y: Double) -> Bool { inside(x, y, shrink: ring) }

    func insideRing(_ x: Double, _ y: Double, width: Double) -> Bool {
        inside(x, y, shrink: 0) && !inside(x, y, shrink: width)
    }

    /// Whether (x, y) lies in the outline shrunk by `d` on every side.
    func inside(_ x: Double, _ y: Double, shrink d: Double) -> Bool {
        let o = config.outline
        switch config.shape {
        case let .path(path):
            // Count the polygon edges crossed by a ray to the right, with their direction; inside
            // when the count (nonzero) or its parity (evenodd) says so, and no edge within d.
            var winding = 0
            for polygon in polygons {
                for k in polygon.indices {
                    let a = polygon[k], b = polygon[(k + 1) % polygon.count]
                    if (a.y <= y) != (b.y <= y) {
                        let cross = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)
                        if cross > x { winding += b.y > a.y ? 1 : -1 }
                    }
                    if d > 0 {
                        // The nearest point of the edge, by projection clamped to its ends.
                        let ex = b.x - a.x, ey = b.y - a.y
                        let t = ex == 0 && ey == 0 ? 0 : max(0, min(1, ((x - a.x) * ex + (y - a.y) * ey) / (ex * ex + ey * ey)))
                        let dx = x - (a.x + t * ex), dy = y - (a.y + t * ey)
                        if dx * dx + dy * dy < d * d { return false }
                    }
                }
            }
            return path.fillRule == .evenodd ? winding % 2 != 0 : winding != 0
        case .rect:
            return x >= o.x + d && x <= o.maxX - d && y >= o.y + d && y <= o.maxY - d
        case .circle:
            let r = o.width / 2 - d
            return (x - o.midX) * (x - o.midX) + (y - o.midY) * (y - o.midY) <= r * r
        case let .rounded(radius):
            guard x >= o.x + d, x <= o.maxX - d, y >= o.y + d, y <= o.maxY - d else { return false }
            // Corner circles keep their centers; their radius shrinks by d (down to a sharp corner).
            let r = min(radius, o.width / 2, o.height / 2), inner = max(0, r - d)
            let cx = min(max(x, o.x + d + inner), o.maxX - d - inner)
            let cy = min(max(y, o.y + d + inner), o.maxY - d - inner)
            return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= inner * inner
        case .triangle:
            // Each edge's line moved inward by d; inside when on the inner side of all three.
            let a = (o.midX, o.y), b = (o.maxX, o.maxY), c = (o.x, o.maxY)
            for (p, q) in [(a, b), (b, c), (c, a)] {
                let ex = q.0 - p.0, ey = q.1 - p.1
                let len = (ex * ex + ey * ey).squareRoot()
                // Cross product sign: the interior is to the right of each edge going clockwise on screen.
                let side = (ex * (y - p.1) - ey * (x - p.0)) / len
                if side < d { return false }
            }
            return true
        }
    }
}

/// PSNR in dB between two premultiplied images over all four channels.
func psnr(_ a: [PremultipliedColor], _ b: [PremultipliedColor]) -> Double {
    var sum = 0.0
    for (p, q) in zip(a, b) {
        sum += (p.r - q.r) * (p.r - q.r) + (p.g - q.g) * (p.g - q.g) + (p.b - q.b) * (p.b - q.b) + (p.a - q.a) * (p.a - q.a)
    }
    let mse = sum / Double(a.count * 4)
    return mse == 0 ? .infinity : 10 * log10(1 / mse)
}
