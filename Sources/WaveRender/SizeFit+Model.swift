import WaveKit

extension SizeFit.Search {
    /// How many predicted combinations one batch of the modelled search measures.
    static let modelBatch = 8
    /// How many such batches at most (the second only where the first's measures leave a
    /// combination predicted to fit and look better than the best that fits).
    static let modelBatches = 2
    /// How many rounds the modelled search's polish runs at most.
    static let modelPolishRounds = 3
    /// How many neighbours one polish round measures at most.
    static let modelPolishWidth = 6
    /// A neighbour predicted within this fraction over the budget is still measured in the polish
    /// (the prediction is a guide; a measure settles it).
    static let modelReach = 1.03

    /// The modelled search, on a sample (`sample` set): far fewer candidates than `run()`.
    ///
    /// 1. Each knob alone, every notch (the probes): its ratio of bytes to the preset's and the
    ///    error it adds.
    /// 2. Any combination of notches predicted from the probes (`Model`): bytes the product of
    ///    the knobs' ratios, error the sum of the errors they add, each prediction corrected by
    ///    the miss of the nearest combination measured so far (the knobs interact: a coarser edge
    ///    ramp leaves the lossy coder less to save). With a lossy knob (`gif.lossy`, lossy WebP
    ///    quality), at each frame rate whose notch alone still looks better than the best so far,
    ///    the columns (`modelColumns`): per `edgeStep` or `gif.colors` notch the mildest lossy
    ///    notch that fits, measured, the model only guessing where to look. Without one (APNG),
    ///    the `modelBatch` combinations best predicted to fit are measured (`modelRanked`), a
    ///    second batch only where one is still predicted to fit and look better than the best
    ///    that fits.
    /// 3. A polish around the best that fits: its neighbours (a knob a notch back or on, one back
    ///    and another on, two back) predicted to fit (within `modelReach`) and to look better,
    ///    the `modelPolishWidth` best predicted measured, while one fits and looks better.
    ///
    /// Returns the best measured candidate that fits the budget, or nil when none does. The
    /// all-knobs-max corner is measured only when nothing else fits.
    mutating func modelled() throws(WaveError) -> SizeFit.Candidate? {
        let dials = fit.dials
        let zero = Array(repeating: 0, count: dials.count)
        let base = try evaluate(zero)
        if fits(base) { return base }
        guard !dials.isEmpty else { return nil }
        _ = try evaluate(probes)
        var model = Model(search: self, base: base)

        var best: SizeFit.Candidate? = known.values.filter { fits($0) }.min(by: SizeFit.Search.better)
        let step = dials.firstIndex { $0.knob == .edgeStep || $0.knob == .gifColors }
        let lossy = dials.firstIndex { $0.knob == .gifLossy || $0.knob == .webpQuality }
        if let step, let lossy {
            // The plane of the two fine knobs at each frame rate that could still beat the best
            // so far (the rate alone looks better than it), mildest first.
            let rate = dials.firstIndex { $0.knob == .frameRate }
            for r in 0...(rate.map { dials[$0].values.count - 1 } ?? 0) {
                var origin = zero
                if let rate {
                    origin[rate] = r
                    if let b = best, let alone = known[origin], alone.meanSquaredError >= b.meanSquaredError { continue }
                }
                if let c = try modelColumns(from: origin, toBeat: best, step: step, lossy: lossy, base: base),
                   best.map({ SizeFit.Search.better(c, $0) }) ?? true { best = c }
            }
            model = Model(search: self, base: base)
        } else {
            try modelRanked(&best, model: &model, base: base)
        }
        if best == nil {
            let corner = try evaluate(dials.map { $0.values.count - 1 })
            guard fits(corner) else { return nil }
            best = corner
        }
        return try modelPolish(best!, model: &model, base: base)
    }

    /// Each knob alone, every notch but the preset's: what the model is built on.
    var probes: [[Int]] {
        let zero = Array(repeating: 0, count: fit.dials.count)
        var probes: [[Int]] = []
        for k in fit.dials.indices {
            for n in 1..<fit.dials[k].values.count {
                var p = zero
                p[k] = n
                probes.append(p)
            }
        }
        return probes
    }

    /// Without a pair of fine knobs (an APNG: `edgeStep` and the frame rate): every combination
    /// predicted, the `modelBatch` best predicted to fit measured, a second batch only where one
    /// is still predicted to fit and look better than the best that fits.
    mutating func modelRanked(_ best: inout SizeFit.Candidate?, model: inout Model, base: SizeFit.Candidate) throws(WaveError) {
        let grid = SizeFit.Search.grid(fit.dials.map { $0.values.count })
        for _ in 0..<SizeFit.Search.modelBatches {
            var ranked: [(n: [Int], size: Double, error: Double)] = []
            for n in grid where known[n] == nil {
                let p = model.predict(n)
                if p.size <= Double(budget), best.map({ p.error < $0.meanSquaredError }) ?? true { ranked.append((n, p.size, p.error)) }
            }
            ranked.sort { a, b in
                a.error != b.error ? a.error < b.error : a.size != b.size ? a.size < b.size : a.n.lexicographicallyPrecedes(b.n)
            }
            guard !ranked.isEmpty else { break }
            for c in try evaluate(ranked.prefix(SizeFit.Search.modelBatch).map { $0.n }) where fits(c) {
                if best.map({ SizeFit.Search.better(c, $0) }) ?? true { best = c }
            }
            model = Model(search: self, base: base)
        }
    }

    /// `columns(from:toBeat:)` guided by the model: at the frame rate of `base`, for every notch
    /// of the `step` knob (`edgeStep`, `gif.colors`), the mildest notch of the `lossy` knob that
    /// fits, each round measuring per open column the mildest notch the model predicts to fit
    /// (corrected by what that column measured), each answer bounding its neighbours' as there.
    /// The model's sizes miss most where the knobs overlap (on dark's GIF at ½ the product of
    /// `edgeStep` 24's and `gif.lossy` 32's ratios predicts 29 513 bytes, the sample measures
    /// 36 953), so the answer is measured, the model only saves the bisection's steps.
    mutating func modelColumns(from origin: [Int], toBeat: SizeFit.Candidate?, step: Int, lossy: Int,
                               base: SizeFit.Candidate) throws(WaveError) -> SizeFit.Candidate? {
        let columns = fit.dials[step].values.count, end = fit.dials[lossy].values.count
        var bounds = Array(repeating: (low: 0, high: end), count: columns)
        func notches(_ column: Int, _ n: Int) -> [Int] {
            var notches = origin
            notches[step] = column
            notches[lossy] = n
            return notches
        }
        func learn(_ column: Int, _ n: Int, fits: Bool) {
            if fits {
                for j in column..<columns { bounds[j].high = min(bounds[j].high, n) }
            } else {
                for j in 0...column { bounds[j].low = max(bounds[j].low, n + 1) }
            }
        }
        func inPlane(_ c: SizeFit.Candidate) -> Bool {
            c.notches.indices.allSatisfy { $0 == step || $0 == lossy || c.notches[$0] == origin[$0] }
        }
        for c in known.values where inPlane(c) { learn(c.notches[step], c.notches[lossy], fits: fits(c)) }
        // The plane's smallest corner first: where it does not fit, no column fits at any notch
        // (one measure, not one a column; the model cannot tell, its products underestimate where
        // the knobs overlap); where it fits, its column's bound is known.
        let corner = notches(columns - 1, end - 1)
        if known[corner] == nil, bounds.contains(where: { $0.low < $0.high }) {
            learn(columns - 1, end - 1, fits: fits(try evaluate(corner)))
        }
        var closed = Set<Int>()
        // Columns where a guess of the model missed (measured over the budget): the model
        // underestimates them, so their next guesses bisect what is left (at least as far on as
        // the model's), and a column costs at most a few measures more than its bisection.
        var missed = Set<Int>()
        while true {
            if let toBeat {
                for c in known.values where inPlane(c) && !fits(c) && c.meanSquaredError >= toBeat.meanSquaredError {
                    closed.insert(c.notches[step])
                }
            }
            for j in bounds.indices where bounds[j].low > bounds[j].high || closed.contains(j) { bounds[j].low = bounds[j].high }
            let open = bounds.indices.filter { bounds[$0].low < bounds[$0].high }
            guard !open.isEmpty else { break }
            let model = Model(search: self, base: base)
            let guesses = open.map { j -> (Int, Int) in
                var n = bounds[j].low
                while n < bounds[j].high - 1 && model.predict(notches(j, n)).size > Double(budget) { n += 1 }
                if missed.contains(j) { n = max(n, (bounds[j].low + bounds[j].high - 1) / 2) }
                return (j, n)
            }
            let measured = try evaluate(guesses.map { notches($0.0, $0.1) })
            for ((column, n), c) in zip(guesses, measured) {
                learn(column, n, fits: fits(c))
                if !fits(c) { missed.insert(column) }
            }
        }
        var best: SizeFit.Candidate?
        for (column, b) in bounds.enumerated() where b.high < end && !closed.contains(column) {
            let c = try evaluate(notches(column, b.high))
            if fits(c), best.map({ SizeFit.Search.better(c, $0) }) ?? true { best = c }
        }
        return best
    }

    /// The polish of `modelled()`: neighbours of `chosen` predicted to fit and to look better,
    /// the best predicted measured first, at most `modelPolishRounds` rounds.
    mutating func modelPolish(_ chosen: SizeFit.Candidate, model: inout Model, base: SizeFit.Candidate) throws(WaveError) -> SizeFit.Candidate {
        var best = chosen
        for _ in 0..<SizeFit.Search.modelPolishRounds {
            let moves = polishMoves(around: best.notches)
            let reach = Double(budget) * SizeFit.Search.modelReach
            var ranked: [(n: [Int], error: Double)] = []
            for n in moves where known[n] == nil {
                let p = model.predict(n)
                if p.size <= reach && p.error < best.meanSquaredError { ranked.append((n, p.error)) }
            }
            ranked.sort { a, b in a.error != b.error ? a.error < b.error : a.n.lexicographicallyPrecedes(b.n) }
            // What is already measured among the moves counts too.
            var improved = false
            for n in moves {
                if let c = known[n], fits(c), SizeFit.Search.better(c, best) { best = c; improved = true }
            }
            if !ranked.isEmpty {
                for c in try evaluate(ranked.prefix(SizeFit.Search.modelPolishWidth).map { $0.n }) where fits(c) && SizeFit.Search.better(c, best) {
                    best = c
                    improved = true
                }
                model = Model(search: self, base: base)
            }
            if !improved { break }
        }
        return best
    }

    /// Every combination of notches, for dials of `counts` notches each.
    static func grid(_ counts: [Int]) -> [[Int]] {
        var all: [[Int]] = [[]]
        for count in counts {
            all = all.flatMap { prefix in (0..<count).map { prefix + [$0] } }
        }
        return all
    }

    /// The model behind `modelled()`: per-knob ratios of bytes and added errors from the probes
    /// (each knob alone), corrected by the nearest measured combination's miss.
    struct Model {
        /// Per knob and notch: the probe's bytes over the preset's, and the error it adds.
        var ratio: [[Double]]
        var added: [[Double]]
        let baseSize: Double
        let baseError: Double
        /// Combinations of two or more knobs measured: notches, the bytes' factor over the
        /// prediction, the error's difference from it.
        var misses: [(notches: [Int], factor: Double, offset: Double)] = []

        init(search: SizeFit.Search, base: SizeFit.Candidate) {
            baseSize = Double(max(1, base.size))
            baseError = base.meanSquaredError
            ratio = search.fit.dials.map { Array(repeating: 1.0, count: $0.values.count) }
            added = search.fit.dials.map { Array(repeating: 0.0, count: $0.values.count) }
            let zero = Array(repeating: 0, count: search.fit.dials.count)
            for k in search.fit.dials.indices {
                for n in 1..<search.fit.dials[k].values.count {
                    var p = zero
                    p[k] = n
                    guard let c = search.known[p] else { continue }
                    ratio[k][n] = Double(c.size) / baseSize
                    added[k][n] = c.meanSquaredError - baseError
                }
            }
            for c in search.known.values where c.notches.filter({ $0 > 0 }).count >= 2 {
                let p = raw(c.notches)
                misses.append((c.notches, Double(c.size) / max(1, p.size), c.meanSquaredError - p.error))
            }
            misses.sort { $0.notches.lexicographicallyPrecedes($1.notches) }
        }

        /// The prediction from the probes alone.
        func raw(_ n: [Int]) -> (size: Double, error: Double) {
            var size = baseSize, error = baseError
            for k in n.indices where n[k] > 0 {
                size *= ratio[k][n[k]]
                error += added[k][n[k]]
            }
            return (size, max(0, error))
        }

        /// The prediction corrected by the miss of the nearest measured combination of two or
        /// more knobs (by notches apart; ties to the first in order), weighed down with distance.
        func predict(_ n: [Int]) -> (size: Double, error: Double) {
            let p = raw(n)
            guard n.filter({ $0 > 0 }).count >= 2 else { return p }
            var nearest: (distance: Int, factor: Double, offset: Double)?
            for m in misses {
                let d = zip(n, m.notches).reduce(0) { $0 + abs($1.0 - $1.1) }
                if nearest.map({ d < $0.distance }) ?? true { nearest = (d, m.factor, m.offset) }
            }
            guard let near = nearest else { return p }
            let w = 1.0 / Double(1 + near.distance)
            return (p.size * (1 + (near.factor - 1) * w), max(0, p.error + near.offset * w))
        }
    }
}
