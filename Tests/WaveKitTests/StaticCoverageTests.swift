import Foundation
import Testing
@testable import WaveKit

/// The coverage of the water region and the border ring against a slow measure good to a quarter
/// of a level (`area`), on every pixel an outline crosses.
@Suite struct StaticCoverageTests {
    /// Shapes with curves, corners and insets of every kind, at sizes from icon to large.
    static let shapes: [(String, String)] = [
        ("circle 160", ##"{"size": [160, 160], "shape": "circle", "inset": "4px", "background": "transparent", "border": {"width": "4px", "color": "#1E88E5", "gap": "4px"}, "layers": [{"color": "#1E88E5"}]}"##),
        ("circle 24", ##"{"size": [24, 24], "shape": "circle", "background": "transparent", "border": {"width": "1.5px", "color": "#1E88E5", "gap": "1px"}, "layers": [{"color": "#1E88E5"}]}"##),
        ("rounded", ##"{"size": [96, 30], "shape": "rounded", "cornerRadius": 0.5, "inset": "1.3px", "background": "#ffffff", "border": {"width": "2px", "color": "#333333", "gap": "0.5px"}, "layers": [{"color": "#43A047"}]}"##),
        ("triangle", ##"{"size": [64, 56], "shape": "triangle", "background": "#202020", "border": {"width": "2.5px", "color": "#333333", "gap": "1px"}, "layers": [{"color": "#00E5FF"}]}"##),
        ("rect", ##"{"size": [40, 30], "shape": "rect", "inset": "2.4px", "background": "#202020", "border": {"width": "1.7px", "color": "#333333"}, "layers": [{"color": "#00E5FF"}]}"##),
        ("star path", ##"{"size": [40, 40], "shape": {"path": "M50 7L61.17 36.63 92.8 38.09 68.07 57.87 76.45 88.41 50 71 23.55 88.41 31.93 57.87 7.2 38.09 38.83 36.63Z", "viewBox": [0, 0, 100, 100]}, "background": "#202020", "border": {"width": "1.5px", "color": "#333333", "gap": "1px"}, "layers": [{"color": "#00E5FF"}]}"##),
        ("pentagram evenodd", ##"{"size": [40, 40], "shape": {"path": "M50 5L78 95L5 38H95L22 95Z", "viewBox": [0, 0, 100, 100], "fillRule": "evenodd"}, "background": "#202020", "border": {"width": "1.5px", "color": "#333333", "gap": "1px"}, "layers": [{"color": "#00E5FF"}]}"##),
    ]

    /// The fraction of pixel (x, y)'s `points` where the signed distance is at most `level`.
    static func counted(_ g: OutlineGeometry, _ x: Int, _ y: Int, _ level: Double, _ points: [(Double, Double)]) -> Double {
        var inside = 0
        for (sx, sy) in points where g.signedDistance(Double(x) + sx, Double(y) + sy) <= level { inside += 1 }
        return Double(inside) / Double(points.count)
    }

    /// The area of the square at (x, y) of side `size` where the signed distance is at most
    /// `level`, by halving: the distance changes by at most 1 per unit (every shape's does), so a
    /// square whose center is further from the level than its half-diagonal is all in or all out.
    /// Squares still undecided at 1/1024 px count half: about 2 000 of them along an edge across
    /// a pixel, each off by at most half its area, so the whole is within 0.001 (a quarter level;
    /// in practice errors of both signs cancel).
    static func area(_ g: OutlineGeometry, _ x: Double, _ y: Double, _ size: Double, _ level: Double) -> Double {
        let d = g.signedDistance(x + size / 2, y + size / 2) - level
        let reach = size * 0.7072
        if d <= -reach { return size * size }
        if d >= reach { return 0 }
        if size <= 1.0 / 1024 { return size * size / 2 }
        let h = size / 2
        return area(g, x, y, h, level) + area(g, x + h, y, h, level) + area(g, x, y + h, h, level) + area(g, x + h, y + h, h, level)
    }

    /// The largest difference from the slow subdivision (`area`) over every pixel an outline crosses, for the
    /// water region and the ring, with `coverage` giving (water, ring) of a pixel.
    static func worstError(_ json: String, _ coverage: (OutlineGeometry, Int, Int, Double, Double) -> (Double, Double)) throws -> Double {
        let (config, plan) = try scene(json)
        let model = WaveModel(config: config, plan: plan)
        let g = model.outline, ring = model.waterInset, bw = model.borderWidth
        var worst = 0.0
        for y in 0..<config.height {
            for x in 0..<config.width {
                let d = g.signedDistance(Double(x) + 0.5, Double(y) + 0.5)
                guard abs(d + ring) < 0.75 || (bw > 0 && (abs(d) < 0.75 || abs(d + bw) < 0.75)) else { continue }
                let (water, border) = coverage(g, x, y, ring, bw)
                let (px, py) = (Double(x), Double(y))
                let trueWater = area(g, px, py, 1, -ring)
                let trueBorder = bw > 0 ? area(g, px, py, 1, 0) - area(g, px, py, 1, -bw) : 0
                worst = max(worst, abs(water - trueWater), abs(border - trueBorder))
            }
        }
        return worst
    }

    @Test(arguments: shapes)
    func edgesAreWithinAHalfLevelOfASlowSubdivision(name: String, json: String) throws {
        let worst = try Self.worstError(json) { g, x, y, ring, bw in
            let (px, py) = (Double(x), Double(y))
            let water = StaticCoverage.area(g, px, py, 1, level: -ring)
            return (water, bw > 0 ? max(0, StaticCoverage.area(g, px, py, 1, level: 0) - StaticCoverage.area(g, px, py, 1, level: -bw)) : 0)
        }
        // Half an 8-bit level at full contrast.
        #expect(worst <= 0.5 / 255, "\(name): off by \(worst * 255) levels")
    }

    /// The counter-check: counting 233 Fibonacci lattice points per pixel (how coverage was once
    /// measured) is off by several levels on a circle, so the test above can tell.
    @Test func aPlainLatticeCountIsOffOnCurves() throws {
        let lattice = (0..<233).map { (i: Int) -> (Double, Double) in
            ((Double(i) + 0.5) / 233, (Double(i * 144 % 233) + 0.5) / 233)
        }
        let worst = try Self.worstError(Self.shapes[0].1) { g, x, y, ring, bw in
            (Self.counted(g, x, y, -ring, lattice), Self.counted(g, x, y, 0, lattice) - Self.counted(g, x, y, -bw, lattice))
        }
        #expect(worst > 2 / 255)
    }

    /// A global check beside the per-pixel one: the water coverage summed over the canvas is the
    /// water region's area, and the ring's the ring's, from the shapes' own formulas.
    @Test(arguments: shapes)
    func coverageAddsUpToTheShapesArea(name: String, json: String) throws {
        let (config, plan) = try scene(json)
        let model = WaveModel(config: config, plan: plan)
        let coverage = StaticCoverage(model: model)
        let g = model.outline, box = g.box
        /// The area inside the outline shrunk by `d`.
        func area(inset d: Double) -> Double {
            let w = box.width - 2 * d, h = box.height - 2 * d
            switch g.shape {
            case .path:
                // The chords' lengths integrated across the columns, 64 to a pixel (midpoint rule).
                let n = 64
                var sum = 0.0
                for i in 0..<(config.width * n) {
                    for c in g.chords(x: (Double(i) + 0.5) / Double(n), inset: d) { sum += c.bottom - c.top }
                }
                return sum / Double(n)
            case .rect: return w * h
            case let .rounded(cornerRadius):
                let r = max(0, min(cornerRadius, box.width / 2, box.height / 2) - d)
                return w * h - (4 - Double.pi) * r * r
            case .circle: return Double.pi * w * w / 4
            case .triangle:
                // Apex at the top middle, base along the bottom: shrinking moves every side in by
                // d, which scales the triangle about its incentre by (r − d)/r, r its inradius.
                let whole = box.width * box.height / 2
                let inradius = 2 * whole / (box.width + 2 * (box.width * box.width / 4 + box.height * box.height).squareRoot())
                return whole * pow((inradius - d) / inradius, 2)
            }
        }
        let water = coverage.water.reduce(0) { $0 + Double($1) }
        let ring = coverage.border.reduce(0) { $0 + Double($1) }
        #expect(abs(water - area(inset: model.waterInset)) < 0.02, "\(name): water \(water) against \(area(inset: model.waterInset))")
        if model.borderWidth > 0 {
            #expect(abs(ring - (area(inset: 0) - area(inset: model.borderWidth))) < 0.02,
                    "\(name): ring \(ring) against \(area(inset: 0) - area(inset: model.borderWidth))")
        }
    }

    /// The banded coverage, with the pixels far from a path's outline taking their side alone,
    /// against the plain pixel-by-pixel form, bit for bit: every shape above, the bundled path
    /// presets, and a path turned sideways.
    @Test(arguments: shapes + [
        ("heart left", ##"{"size": [64, 60], "shape": "heart", "inset": 0.05, "direction": "left", "background": "transparent", "border": {"width": "2px", "color": "#37474F", "gap": "1px"}, "layers": [{"color": "#00E5FF"}]}"##),
        ("drop large", ##"{"size": [300, 400], "shape": "drop", "background": "#202020", "layers": [{"color": "#00E5FF"}]}"##),
    ] + boxes)
    func bandsAndFarPixelsMatchTheReference(name: String, json: String) throws {
        let (config, plan) = try scene(json)
        try Self.expectSameCoverage(WaveModel(config: config, plan: plan), name)
    }

    /// Boxes whose straight sides take a neighbour's coverage (`StraightSides`): wide, tall and
    /// square, pill-shaped, with small corners and none, at fractional sizes and insets, filling
    /// every way (the box turned into the wave frame).
    static let boxes: [(String, String)] = [
        ("pill 240×32", ##"{"size": [240, 32], "shape": "rounded", "cornerRadius": 0.5, "border": {"width": "2px", "color": "#BBDEFB", "gap": "2px"}, "layers": [{"color": "#1E88E5"}]}"##),
        ("pill right 240×32", ##"{"size": [240, 32], "shape": "rounded", "cornerRadius": 0.5, "direction": "right", "border": {"width": "2px", "color": "#BBDEFB", "gap": "2px"}, "layers": [{"color": "#1E88E5"}]}"##),
        ("tall rounded down", ##"{"size": [37, 121], "shape": "rounded", "cornerRadius": 0.3, "inset": "1.7px", "direction": "down", "border": {"width": "2.5px", "color": "#333333", "gap": "0.6px"}, "layers": [{"color": "#1E88E5"}]}"##),
        ("square rounded left", ##"{"size": [101, 101], "shape": "rounded", "cornerRadius": 0.12, "inset": "3.3px", "direction": "left", "border": {"width": "3px", "color": "#333333", "gap": "1.2px"}, "layers": [{"color": "#1E88E5"}]}"##),
        ("rect up", ##"{"size": [90, 41], "shape": "rect", "inset": "2.5px", "border": {"width": "1.3px", "color": "#333333", "gap": "0.7px"}, "layers": [{"color": "#1E88E5"}]}"##),
        ("triangle up", ##"{"size": [74, 64], "shape": "triangle", "border": {"width": 0.06, "color": "#3949AB", "gap": 0.05}, "layers": [{"color": "#1E88E5"}]}"##),
        ("triangle left", ##"{"size": [90, 51], "shape": "triangle", "inset": "1.5px", "direction": "left", "border": {"width": "2.2px", "color": "#3949AB", "gap": "0.8px"}, "layers": [{"color": "#1E88E5"}]}"##),
        ("triangle down", ##"{"size": [41, 77], "shape": "triangle", "direction": "down", "border": {"width": "1.5px", "color": "#3949AB"}, "layers": [{"color": "#1E88E5"}]}"##),
        ("thin rect right", ##"{"size": [23, 140], "shape": "rect", "inset": "0.5px", "direction": "right", "border": {"width": "2px", "color": "#333333"}, "layers": [{"color": "#1E88E5"}]}"##),
    ]

    /// The straight sides are found where they are: most of a pill's top and bottom rows, a tall
    /// box's left and right columns, and no pixel near a corner or the middle.
    @Test func straightSidesLieAlongTheSides() throws {
        let (config, plan) = try scene(Self.boxes[0].1)
        let model = WaveModel(config: config, plan: plan)
        let sides = try #require(StraightSides(model.waveOutline))
        #expect(sides.side(120, 2) == .row && sides.side(120, 29) == .row && sides.side(40, 1) == .row)
        #expect(sides.side(3, 2) == .none && sides.side(236, 29) == .none && sides.side(120, 15) == .none)
        let rows = (0..<32).flatMap { y in (0..<240).map { sides.side($0, y) } }.filter { $0 == .row }.count
        #expect(rows > 24 * 180, "\(rows) pixels along the top and bottom")
        let (tall, tallPlan) = try scene(Self.boxes[2].1)
        let tallSides = try #require(StraightSides(WaveModel(config: tall, plan: tallPlan).waveOutline))
        #expect(tallSides.side(1, 60) == .column && tallSides.side(35, 60) == .column)
        #expect(tallSides.side(1, 2) == .none && tallSides.side(18, 60) == .none)
        // A triangle's level base, not its slanted sides; turned sideways, an upright base.
        let (triangle, trianglePlan) = try scene(Self.boxes[5].1)
        let triangleSides = try #require(StraightSides(WaveModel(config: triangle, plan: trianglePlan).waveOutline))
        #expect(triangleSides.side(37, 62) == .row && triangleSides.side(37, 58) == .row)
        #expect(triangleSides.side(37, 2) == .none && triangleSides.side(20, 30) == .none && triangleSides.side(2, 62) == .none)
        let (left, leftPlan) = try scene(Self.boxes[6].1)
        let leftModel = WaveModel(config: left, plan: leftPlan)
        let leftSides = try #require(StraightSides(leftModel.waveOutline))
        let (w, h) = (leftModel.orientation.width, leftModel.orientation.height)
        let leftKinds = (0..<h).flatMap { y in (0..<w).map { leftSides.side($0, y) } }
        #expect(leftKinds.contains(.column) && !leftKinds.contains(.row))
        let (circle, circlePlan) = try scene(Self.shapes[0].1)
        #expect(StraightSides(WaveModel(config: circle, plan: circlePlan).waveOutline) == nil)
    }

    @Test(arguments: ["drop", "heart", "gradient-drop", "classic", "orb", "dark", "spinner", "progress-bar"])
    func bundledPresetsMatchTheReference(name: String) throws {
        let config = try PresetLoader().load(name)
        try Self.expectSameCoverage(WaveModel(config: config, plan: try LoopPlanner.plan(config)), name)
    }

    static func expectSameCoverage(_ model: WaveModel, _ name: String) throws {
        let fast = StaticCoverage(model: model), slow = StaticCoverage(reference: model)
        #expect(fast.width == slow.width && fast.height == slow.height)
        #expect(fast.water.map(\.bitPattern) == slow.water.map(\.bitPattern), "\(name): water differs")
        #expect(fast.border.map(\.bitPattern) == slow.border.map(\.bitPattern), "\(name): border differs")
        #expect(fast.waterSpans == slow.waterSpans, "\(name): spans differ")
        #expect(fast.waterColumns == slow.waterColumns)
        #expect(fast.water.contains { $0 > 0 })
    }

    /// A box's distance takes the other side's length where one is 0 instead of calling `hypot`:
    /// the same bits, zeros, tiny, huge and ordinary lengths.
    @Test func lengthWithAZeroSideIsHypot() {
        let values: [Double] = [0, -0.0, 1e-300, 5e-324, 0.1, 0.5, 1, 2.5, 3.75, 17.3, 1e10, 1e300] + (0..<200).map { Double($0) * 0.173 }
        for a in values {
            for b in values {
                let (x, y) = (abs(a), abs(b))
                #expect(OutlineGeometry.length(x, y).bitPattern == hypot(x, y).bitPattern, "\(x), \(y)")
            }
        }
    }

    @Test func halfPlaneAreaMatchesItsCases() {
        // Axis-aligned: a band; diagonal: two triangles; any direction: symmetric about u = 0.
        #expect(abs(StaticCoverage.halfPlaneArea(1, 0, 0.25) - 0.75) < 1e-12)
        #expect(abs(StaticCoverage.halfPlaneArea(0, -1, 0.25) - 0.75) < 1e-12)
        let r = 0.5.squareRoot()
        #expect(abs(StaticCoverage.halfPlaneArea(r, r, 0) - 0.5) < 1e-12)
        #expect(abs(StaticCoverage.halfPlaneArea(r, r, -r / 2) - 0.125) < 1e-12)
        #expect(StaticCoverage.halfPlaneArea(r, r, -r) == 0)
        #expect(StaticCoverage.halfPlaneArea(r, r, r) == 1)
        for u in stride(from: -0.8, through: 0.8, by: 0.1) {
            let (nx, ny) = (cos(0.3), sin(0.3))
            #expect(abs(StaticCoverage.halfPlaneArea(nx, ny, u) + StaticCoverage.halfPlaneArea(nx, ny, -u) - 1) < 1e-12)
        }
    }
}
