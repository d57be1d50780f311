import Testing
@testable import WaveKit
import WaveTestSupport

/// `lloydIterations` looks at a point's last center's neighbours (`CenterNeighbours`) instead of
/// every center: the centers it settles on must be those of the plain iterations, bit for bit.
@Suite struct LloydTests {
    /// The plain iterations: every point against every center, every round.
    static func plain(_ centers: inout [SIMD4<Double>], points: [(SIMD4<Double>, Double)], rounds: Int) {
        for _ in 0..<rounds {
            var sums = [SIMD4<Double>](repeating: .zero, count: centers.count), weights = [Double](repeating: 0, count: centers.count)
            for (v, w) in points {
                var best = 0, bestDistance = Double.infinity
                for (i, m) in centers.enumerated() {
                    let d = ((m - v) * (m - v)).sum()
                    if d < bestDistance { (best, bestDistance) = (i, d) }
                }
                sums[best] += v * w
                weights[best] += w
            }
            var moved = false
            for i in centers.indices where weights[i] > 0 {
                let m = sums[i] / weights[i]
                if ((m - centers[i]) * (m - centers[i])).sum() > 1e-12 { moved = true }
                centers[i] = m
            }
            if !moved { break }
        }
    }

    @Test(arguments: [20, 64, 255])
    func neighboursSettleWhereEveryCenterDoes(centerCount: Int) {
        var random = SeededGenerator(state: UInt64(centerCount))
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        // Points along a few ramps (as a gradient's colors lie), some repeated, some far off.
        var points: [(SIMD4<Double>, Double)] = []
        let ramps = (0..<5).map { _ in (SIMD4(unit(), unit(), unit(), 1.0), SIMD4(unit(), unit(), unit(), unit())) }
        for k in 0..<(centerCount * 12) {
            let (a, b) = ramps[k % ramps.count]
            let t = Double(Int(random.next() % 400)) / 400
            points.append((a + (b - a) * t, Double(1 + random.next() % 50)))
            if k % 17 == 0 { points.append((SIMD4(unit(), unit(), unit(), unit()), 1)) }
        }
        var start = (0..<centerCount).map { _ in points[Int(random.next() % UInt64(points.count))].0 }
        // Two centers the same, so ties between them happen.
        start[centerCount - 1] = start[0]
        for rounds in [1, 2, 4, 12] {
            var fast = start, slow = start
            lloydIterations(&fast, fixed: 0, points: points, rounds: rounds) { _, mean, _ in mean }
            Self.plain(&slow, points: points, rounds: rounds)
            #expect(fast.map { $0.x.bitPattern } == slow.map { $0.x.bitPattern } && fast == slow, "\(centerCount) centers, \(rounds) rounds")
        }
    }

    /// Each center's list is the plain one: every other center sorted by distance (the first of
    /// equals first), its first `CenterNeighbours.count`, with their distances and the last as the
    /// radius, bit for bit; centers repeated and at equal distances included.
    @Test func neighbourListsAreTheNearestBySorting() {
        var random = SeededGenerator(state: 5)
        for n in [10, 17, 40, 254] {
            var centers: [SIMD4<Double>] = []
            for k in 0..<n {
                if k > 0, random.next() % 5 == 0 { centers.append(centers[Int(random.next() % UInt64(k))]); continue }
                // A coarse grid, so many distances are equal.
                centers.append(SIMD4(Double(random.next() % 6), Double(random.next() % 6), Double(random.next() % 6), Double(random.next() % 3)) / 5)
            }
            let neighbours = CenterNeighbours(centers), k = CenterNeighbours.count
            for g in 0..<n {
                let sorted = (0..<n).filter { $0 != g }.map { c -> (Int, Double) in
                    let e = centers[g] - centers[c]
                    return (c, (e * e).sum().squareRoot())
                }.enumerated().sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }.map(\.element)
                let listed = min(k, n - 1)
                #expect(Array(neighbours.list[(g * k)..<(g * k + listed)]) == sorted.prefix(listed).map(\.0), "\(n) centers, center \(g)")
                #expect(Array(neighbours.distance[(g * k)..<(g * k + listed)]).map(\.bitPattern) == sorted.prefix(listed).map(\.1.bitPattern))
                #expect(neighbours.radius[g].bitPattern == (n - 1 >= k ? sorted[k - 1].1 : .infinity).bitPattern)
            }
        }
    }

    /// From any guess, with centers repeated (ties between a guess and a smaller index) and points
    /// on, between and away from them.
    @Test func neighboursFindTheCenterAScanFinds() {
        var random = SeededGenerator(state: 31)
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        var centers: [SIMD4<Double>] = []
        for k in 0..<120 {
            if k > 0, random.next() % 4 == 0 { centers.append(centers[Int(random.next() % UInt64(k))]); continue }
            centers.append(SIMD4(unit(), unit(), unit(), unit()) * (random.next() % 3 == 0 ? 0.05 : 1))
        }
        let neighbours = CenterNeighbours(centers)
        var mismatches = 0
        centers.withUnsafeBufferPointer { c in
            for _ in 0..<4000 {
                let a = centers[Int(random.next() % 120)], b = centers[Int(random.next() % 120)]
                let v = random.next() % 3 == 0 ? a : a + (b - a) * (Double(random.next() % 5) / 8)
                let truth = nearestCenterScanningAll(v, c)
                for guess in [truth, Int(random.next() % 120), centers.lastIndex(of: c[truth])!]
                where neighbours.nearest(v, c, from: guess) != truth {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
    }
}

/// The median cut sorts a box's colors along one channel by sorting small records
/// (`sortByChannel`): the order must be the colors' own sort (`plainSortByChannel`), equal
/// channels by key, −0 as 0, on boxes anywhere in the list.
@Suite struct ChannelSortTests {
    @Test func recordsSortAsTheColorsDo() {
        var random = SeededGenerator(state: 11)
        for size in [1, 2, 17, 300, 2000] {
            var points: [CountedColor] = []
            for i in 0..<size {
                // Few channel values, so equal channels (ordered by key) are common.
                var v = SIMD4<Double>(Double(random.next() % 9), Double(random.next() % 9), Double(random.next() % 300), Double(random.next() % 3)) / 8
                if i % 13 == 0 { v[0] = -0.0 }
                if i % 29 == 0 { v[3] = -Double(random.next() % 4) / 8 }
                points.append(CountedColor(key: UInt32(truncatingIfNeeded: random.next()), channels: v, weight: Double(1 + i % 5)))
            }
            for axis in 0..<4 {
                for range in [0..<size, (size / 3)..<size, 0..<(size / 2)] {
                    var fast = points, plain = points
                    sortByChannel(&fast, range, axis: axis)
                    plainSortByChannel(&plain, range, axis: axis)
                    #expect(fast.map(\.key) == plain.map(\.key), "\(size) colors, axis \(axis), \(range)")
                }
            }
        }
    }
}
