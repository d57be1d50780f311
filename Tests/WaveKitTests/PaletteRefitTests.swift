import Foundation
import Testing
@testable import WaveKit
import WaveTestSupport

/// The smaller palettes `gif.colors` asks for: edge shades placed where the loop's pixels fall.
@Suite struct PaletteRefitTests {
    /// Every way to cut `m` bins into contiguous groups, the first shown at 0, then `k` groups at
    /// their means, the last at 1 (empty groups allowed): the slow, plain search `solve` must match.
    private func bruteForce(_ q: RampQuantizer, levels k: Int) -> Double {
        let m = q.t.count
        var best = Double.infinity
        // Cuts c0 ≤ c1 ≤ … ≤ c(k) in 0...m: bins ..<c0 at 0, c(i-1)..<c(i) at a mean, c(k)... at 1.
        func walk(_ cuts: [Int]) {
            if cuts.count == k + 1 {
                var e = q.cost(0, cuts[0], at: 0) + q.cost(cuts[k], m, at: 1)
                for i in 0..<k { e += q.cost(cuts[i], cuts[i + 1]) }
                best = min(best, e)
                return
            }
            for c in (cuts.last ?? 0)...m { walk(cuts + [c]) }
        }
        walk([])
        return best
    }

    /// The error of showing every bin at the nearest of `levels` (and the ends 0 and 1), added up
    /// pixel by pixel.
    private func shownError(_ q: RampQuantizer, _ levels: [Double]) -> Double {
        zip(q.t, q.weight).reduce(0) { sum, bin in
            let nearest = ([0, 1] + levels).map { ($0 - bin.0) * ($0 - bin.0) }.min()!
            return sum + bin.1 * nearest
        }
    }

    @Test func rampLevelsAreTheBestContiguousCut() {
        var rng = SeededGenerator(state: 21)
        for trial in 0..<40 {
            let m = Int.random(in: 1...7, using: &rng)
            let t = (0..<m).map { Double($0 + 1) / Double(m + 1) }
            let weight = (0..<m).map { _ in Double(Int.random(in: 0...20, using: &rng)) }
            let q = RampQuantizer(t: t, weight: weight)
            let solved = q.solve(upTo: min(3, m))
            for (k, s) in solved.enumerated() {
                #expect(abs(s.error - bruteForce(q, levels: k)) < 1e-9, "trial \(trial), \(k) levels")
                // The groups it returns, shown at their means, give the error it claims.
                #expect(s.groups.count <= k)
                #expect(abs(shownError(q, s.groups.map(q.mean)) - s.error) < 1e-9, "trial \(trial), \(k) levels: \(s.groups)")
                if k > 0 { #expect(s.error <= solved[k - 1].error + 1e-12) }
            }
        }
    }

    @Test func levelsAreSharedForTheLeastTotalError() {
        var rng = SeededGenerator(state: 7)
        for _ in 0..<30 {
            let edges = Int.random(in: 1...4, using: &rng)
            let errors = (0..<edges).map { _ -> [Double] in
                var e = [Double(Int.random(in: 50...100, using: &rng))]
                for _ in 0..<Int.random(in: 0...4, using: &rng) { e.append(e.last! * Double.random(in: 0.2...1, using: &rng)) }
                return e
            }
            let room = Int.random(in: 0...6, using: &rng)
            let (levels, totals) = PaletteBuilder.share(room, among: errors)
            #expect(levels.reduce(0, +) <= room)
            #expect(zip(levels, errors).allSatisfy { $0 < $1.count })
            // Every allocation within the room, tried one by one.
            var best = Double.infinity
            func walk(_ e: Int, _ left: Int, _ sum: Double) {
                if e == edges { best = min(best, sum); return }
                for k in 0..<min(errors[e].count, left + 1) { walk(e + 1, left - k, sum + errors[e][k]) }
            }
            walk(0, room, 0)
            let total = zip(levels, errors).reduce(0) { $0 + $1.1[$1.0] }
            #expect(abs(total - best) < 1e-9)
            #expect(abs(totals[room] - best) < 1e-9)
        }
    }

    /// Lloyd's iterations never show the points worse, and never move the fixed entries.
    @Test func lloydOnlyImproves() {
        var rng = SeededGenerator(state: 3)
        func error(_ colors: [RGBA], _ points: [(RGBA, Int)]) -> Int {
            let p = Palette(colors: colors, transparentIndex: nil, flatCount: 0, rampSteps: 0, rampCount: 0, notes: [])
            return points.reduce(0) { sum, point in
                let c = colors[p.nearestIndex(to: point.0)]
                let d = [Int(c.r) - Int(point.0.r), Int(c.g) - Int(point.0.g), Int(c.b) - Int(point.0.b)]
                return sum + point.1 * d.map { $0 * $0 }.reduce(0, +)
            }
        }
        func color() -> RGBA { RGBA(UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng)) }
        for _ in 0..<20 {
            let colors = (0..<8).map { _ in color() }
            let points = (0..<60).map { _ in (color(), Int.random(in: 1...9, using: &rng)) }
            let moved = PaletteBuilder.lloyd(colors, fixed: 3, points: points)
            #expect(Array(moved.prefix(3)) == Array(colors.prefix(3)))
            #expect(Set(moved).count == moved.count)
            // Rounding to 8-bit levels can cost a little on each step; a few units per point at most.
            #expect(error(moved, points) <= error(colors, points) + 3 * points.count)
        }
    }

    /// classic asked for 30 entries: its flat colors keep their entries, the key has room, and its
    /// frames are closer to the full palette's than with evenly stepped ramps of the same size.
    @Test func fewerEntriesShowTheSceneBetterThanEvenRamps() throws {
        let config = try PresetLoader().load("classic")
        let plan = try LoopPlanner.plan(config)
        var small = config
        small.gif.colors = 30
        small.edgeStep = 1
        let full = FrameRenderer(config: config, plan: plan, format: .gif)
        let refit = FrameRenderer(config: small, plan: plan, format: .gif)
        #expect(refit.palette.colors.count <= 29, "\(refit.palette.summary)")
        #expect(refit.palette.notes.contains { $0.contains("where the loop's pixels fall") }, "\(refit.palette.notes)")
        #expect(Array(refit.palette.colors.prefix(refit.palette.flatCount)) == Array(full.palette.colors.prefix(full.palette.flatCount)))
        #expect(refit.flatLookup == full.flatLookup)
        // Evenly stepped ramps with no more entries: the smallest edgeStep that fits.
        var even = config
        even.edgeStep = 1
        var evenRenderer = FrameRenderer(config: even, plan: plan, format: .gif)
        while evenRenderer.palette.colors.count > refit.palette.colors.count {
            even.edgeStep += 1
            evenRenderer = FrameRenderer(config: even, plan: plan, format: .gif)
        }
        func squaredError(_ r: FrameRenderer) -> Double {
            var cache = ColorCache(), exactCache = ColorCache()
            var sum = 0.0
            for k in 0..<r.timing.frameCount {
                var a: [UInt8] = [], b: [UInt8] = [], ea: [UInt8] = [], eb: [UInt8] = []
                r.render(frame: k, into: &a, cache: &cache)
                full.render(frame: k, into: &b, cache: &exactCache)
                r.palette.expand(a, into: &ea)
                full.palette.expand(b, into: &eb)
                for i in ea.indices { sum += Double((Int(ea[i]) - Int(eb[i])) * (Int(ea[i]) - Int(eb[i]))) }
            }
            return sum
        }
        let refitError = squaredError(refit), evenError = squaredError(evenRenderer)
        #expect(refitError < 0.8 * evenError, "refit \(refitError), even ramps at edgeStep \(even.edgeStep) \(evenError)")
    }

    /// One discovery serves every table size (the size fit shares it): a plan made from a
    /// discovery at 256 colors equals one made from scratch, and the count does not depend on
    /// the threads that draw it.
    @Test func oneDiscoveryServesEveryTable() throws {
        let config = try PresetLoader().load("orb")
        let plan = try LoopPlanner.plan(config)
        var full = config
        full.gif.colors = 256
        full.gif.lossy = 0
        let discovery = PaletteDiscovery(config: full, plan: plan, format: .gif)
        let usage = discovery.usage(threads: 1)
        #expect(discovery.usage(threads: 2) == usage)
        #expect(usage.reduce(0, +) == config.width * config.height * discovery.timing.frameCount)
        for colors in [16, 48] {
            var small = config
            small.gif.colors = colors
            small.gif.lossy = 8
            #expect(discovery.needsUsage(colors: colors))
            let shared = PalettePlan(discovery, config: small, usage: usage)
            let alone = PalettePlan(config: small, plan: plan, format: .gif)
            #expect(shared.palette == alone.palette)
            #expect(shared.palette.colors.count <= colors)
            #expect(FrameRenderer(palette: shared).palette == FrameRenderer(config: small, plan: plan, format: .gif).palette)
        }
        #expect(!discovery.needsUsage(colors: 256))
        #expect(PalettePlan(discovery, config: full).palette == discovery.palette)
    }

    /// The default (256) keeps the palette exactly as `edgeStep` builds it.
    @Test func theDefaultKeepsEveryShade() throws {
        let config = try PresetLoader().load("dark")
        var wide = config
        wide.gif.colors = 256
        let plan = try LoopPlanner.plan(config)
        #expect(FrameRenderer(config: config, plan: plan, format: .gif).palette == FrameRenderer(config: wide, plan: plan, format: .gif).palette)
        // Other formats keep every color whatever gif.colors says.
        var small = config
        small.gif.colors = 16
        #expect(FrameRenderer(config: small, plan: plan, format: .webp).palette == FrameRenderer(config: config, plan: plan, format: .webp).palette)
    }
}
