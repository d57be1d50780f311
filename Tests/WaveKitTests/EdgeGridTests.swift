import Foundation
import Testing
@testable import WaveKit

/// The signed distance through the edge grid against the plain loop over every edge, bit for bit.
@Suite struct EdgeGridTests {
    static func same(_ edges: PolygonEdges, _ x: Double, _ y: Double) -> Bool {
        edges.signedDistance(x, y).bitPattern == edges.referenceSignedDistance(x, y).bitPattern
    }

    /// Every bundled preset with a path shape, on a lattice over its canvas and beyond (points on
    /// pixel corners and centers, where the coverage asks, and in between).
    @Test(arguments: ["drop", "heart"])
    func bundledOutlinesMatchTheReference(name: String) throws {
        let config = try PresetLoader().load(name)
        let edges = WaveModel(config: config, plan: try LoopPlanner.plan(config)).outline.edges
        #expect(edges.ax.count > 50)
        var mismatches = 0, inside = 0, total = 0
        let w = Double(config.width), h = Double(config.height)
        for y in stride(from: -8.0, through: h + 8, by: 0.25) {
            for x in stride(from: -8.0, through: w + 8, by: 0.375) {
                if !EdgeGridTests.same(edges, x, y) { mismatches += 1 }
                if edges.signedDistance(x, y) < 0 { inside += 1 }
                total += 1
            }
        }
        #expect(mismatches == 0, "\(name): \(mismatches) of \(total) points differ")
        #expect(inside > total / 10)
        // Far away and on the edges' own ends.
        for (x, y) in [(-1e4, 3.0), (1e5, -1e5), (w / 2, 1e6)] { #expect(EdgeGridTests.same(edges, x, y)) }
        for k in stride(from: 0, to: edges.ax.count, by: 7) {
            #expect(EdgeGridTests.same(edges, edges.ax[k], edges.ay[k]))
            #expect(EdgeGridTests.same(edges, (edges.ax[k] + edges.bx[k]) / 2, edges.ay[k] + 1e-9))
        }
    }

    /// Random polygons (stars, self-crossing, several of them, both fill rules) at random points.
    @Test(arguments: 0..<6)
    func randomPolygonsMatchTheReference(seed: Int) {
        var state = UInt64(seed * 2_654_435_761 + 17)
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var polygons: [[PathPoint]] = []
        for _ in 0..<(1 + seed % 3) {
            let n = 3 + Int(random() * 300)
            let cx = random() * 100, cy = random() * 60, r = 5 + random() * 50
            polygons.append((0..<n).map { i in
                let a = Double(i) / Double(n) * 2 * .pi * (seed % 2 == 0 ? 1 : 3)
                let rr = r * (0.5 + random())
                return PathPoint(cx + rr * cos(a), cy + rr * sin(a))
            })
        }
        let edges = PolygonEdges(polygons, evenOdd: seed % 2 == 1)
        for _ in 0..<4000 {
            let x = random() * 220 - 60, y = random() * 180 - 60
            #expect(EdgeGridTests.same(edges, x, y), "(\(x), \(y))")
        }
    }

    /// The row's inside test against the reference distance's sign at every pixel center, and the
    /// pixels near the outline against the reference distance: every pixel within the margin is in
    /// the set.
    @Test(arguments: 0..<6)
    func insideRowsAndNearPixelsMatchTheReference(seed: Int) {
        var state = UInt64(seed * 40_503 + 5)
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var polygons: [[PathPoint]] = []
        for _ in 0..<(1 + seed % 3) {
            let n = 3 + Int(random() * 200)
            let cx = random() * 80, cy = random() * 60, r = 5 + random() * 40
            polygons.append((0..<n).map { i in
                let a = Double(i) / Double(n) * 2 * .pi * (seed % 2 == 0 ? 1 : 3)
                let rr = r * (0.5 + random())
                return PathPoint(cx + rr * cos(a), cy + rr * sin(a))
            })
        }
        // Integer vertices too: edges through pixel centers' rows and columns.
        if seed == 5 { polygons.append([PathPoint(10, 10.5), PathPoint(40, 10.5), PathPoint(40.5, 30), PathPoint(10.5, 31)]) }
        let edges = PolygonEdges(polygons, evenOdd: seed % 2 == 1)
        let width = 100, height = 80
        let margin = StaticCoverage.halfDiagonal + Double(seed % 4) + 1
        let near = edges.near(margin: margin, width: width, height: height)
        var inside = 0, nearCount = 0
        for y in 0..<height {
            let row = edges.insideRow(y: Double(y) + 0.5, width: width)
            for x in 0..<width {
                let d = edges.referenceSignedDistance(Double(x) + 0.5, Double(y) + 0.5)
                // On an edge the distance is ±0: inside gives −0.
                #expect(row[x] == (d.sign == .minus), "(\(x), \(y))")
                if abs(d) <= margin { #expect(near.contains(x, y), "(\(x), \(y)) at \(d)") }
                if row[x] { inside += 1 }
                if near.contains(x, y) { nearCount += 1 }
            }
        }
        #expect(inside > 0)
        #expect(nearCount < width * height)
    }

    /// The few edges around a pixel give the reference's signed distance bit for bit at points
    /// around its center, inside the square they answer for and beyond it (where they pass the
    /// query on), for pixels near the outline of random polygons and of the bundled path shapes.
    @Test(arguments: 0..<4)
    func localEdgesMatchTheReference(seed: Int) throws {
        var state = UInt64(seed * 7 + 3)
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var outlines: [PolygonEdges] = []
        for name in ["drop", "heart"] where seed < 2 {
            let config = try PresetLoader().load(name)
            outlines.append(WaveModel(config: config, plan: try LoopPlanner.plan(config)).outline.edges)
        }
        var polygons: [[PathPoint]] = []
        for _ in 0..<(1 + seed % 3) {
            let n = 3 + Int(random() * 150)
            let cx = random() * 80, cy = random() * 60, r = 5 + random() * 40
            polygons.append((0..<n).map { i in
                let a = Double(i) / Double(n) * 2 * .pi * (seed % 2 == 0 ? 1 : 3)
                return PathPoint(cx + r * (0.5 + random()) * cos(a), cy + r * (0.5 + random()) * sin(a))
            })
        }
        outlines.append(PolygonEdges(polygons, evenOdd: seed % 2 == 1))
        var differing = 0, pixels = 0
        for edges in outlines {
            let b = edges.bounds
            for y in Int(b.y) - 2...Int(b.y + b.height) + 2 {
                let rowReach = StaticCoverage.halfDiagonal + 3 + 2 * LocalEdges.reach * 2.0.squareRoot() + 1
                let candidates = edges.edges(meetingRows: Double(y) + 0.5 - rowReach, Double(y) + 0.5 + rowReach)
                for x in Int(b.x) - 2...Int(b.x + b.width) + 2 {
                    let (cx, cy) = (Double(x) + 0.5, Double(y) + 0.5)
                    let d = edges.referenceSignedDistance(cx, cy)
                    guard abs(d) < StaticCoverage.halfDiagonal + 3 else { continue }
                    pixels += 1
                    let local = LocalEdges(edges, x: cx, y: cy, distance: d, candidates: candidates)
                    for _ in 0..<12 {
                        let (qx, qy) = (cx + (random() * 2 - 1) * 1.3, cy + (random() * 2 - 1) * 1.3)
                        if local.signedDistance(qx, qy).bitPattern != edges.referenceSignedDistance(qx, qy).bitPattern { differing += 1 }
                    }
                    for (qx, qy) in [(cx, cy), (cx - 0.5, cy - 0.5), (cx + 1, cy + 1), (cx - 1, cy + 0.25), (cx + 0.5, cy)] {
                        if local.signedDistance(qx, qy).bitPattern != edges.referenceSignedDistance(qx, qy).bitPattern { differing += 1 }
                    }
                }
            }
        }
        #expect(pixels > 100)
        #expect(differing == 0, "\(differing) points differ")
    }
}
