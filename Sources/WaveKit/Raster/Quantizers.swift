import WavePlatform

/// The quantizers palettes are chosen with: median cut and Lloyd's iterations over counted colors
/// (overlay colors, gradient tables), and the optimal split of an edge's shades into fewer steps
/// (`RampQuantizer`, used when `gif.colors` leaves fewer entries than the shades need).

/// A distinct color among many, counted at 8 bits per premultiplied channel.
struct CountedColor {
    /// The 8-bit channels packed (r, g, b, a from the top byte down): the order colors are listed in.
    var key: UInt32
    /// The premultiplied channels, 0…1.
    var channels: SIMD4<Double>
    /// How many of the colors it stands for.
    var weight: Double

    /// The distinct colors of `colors`, in key order.
    static func counting(_ colors: [PremultipliedColor]) -> [CountedColor] {
        var histogram: [UInt32: Int] = [:]
        for c in colors {
            func q(_ v: Double) -> UInt32 { UInt32(max(0, min(255, (v * 255).rounded()))) }
            histogram[q(c.r) << 24 | q(c.g) << 16 | q(c.b) << 8 | q(c.a), default: 0] += 1
        }
        return histogram.keys.sorted().map { key in
            let v = SIMD4<Double>(Double(key >> 24), Double(key >> 16 & 255), Double(key >> 8 & 255), Double(key & 255)) / 255
            return CountedColor(key: key, channels: v, weight: Double(histogram[key]!))
        }
    }
}

/// `centers` moved by Lloyd's iterations over `colors` (counted at 8 bits per premultiplied
/// channel, each distinct color weighted by how often it occurs). A median cut's boxes split the
/// widest range; this moves its colors to where the pixels are, so that the frequent colors are
/// shown closely.
func refined(_ centers: [PremultipliedColor], over colors: [PremultipliedColor]) -> [PremultipliedColor] {
    guard !centers.isEmpty, !colors.isEmpty else { return centers }
    var means = centers.map { SIMD4<Double>($0.r, $0.g, $0.b, $0.a) }
    lloydIterations(&means, fixed: 0, points: CountedColor.counting(colors).map { ($0.channels, $0.weight) }) { _, mean, _ in mean }
    return means.map { PremultipliedColor(r: $0[0], g: $0[1], b: $0[2], a: $0[3]) }
}

/// Lloyd's iterations: each weighted point goes to its nearest center (squared distance, the first
/// of equals), and each center from `fixed` on that points go to becomes `settle(i, mean, centers)`,
/// the weighted mean of its points as the caller stores it (nil: it stays), until no center moves
/// (at most `rounds` rounds). Centers before `fixed` stay and still take their points.
///
/// Over many more points than centers, a point whose last center is still near it looks only at
/// that center's nearest others (`CenterNeighbours`): the same center as a scan of all of them. In
/// the first round a point starts from the center of the point before it (the points come in key
/// order, so mostly a like color). Over many points, the nearest centers are found on the cores,
/// a run of points each; the sums are then taken in the points' order, so the means are the same.
func lloydIterations(_ centers: inout [SIMD4<Double>], fixed: Int, points: [(SIMD4<Double>, Double)], rounds: Int = 50,
                     settle: (Int, SIMD4<Double>, [SIMD4<Double>]) -> SIMD4<Double>?) {
    guard fixed < centers.count, !points.isEmpty else { return }
    // The neighbours cost about n² a round: worth it only over many more points.
    let guided = points.count >= 8 * centers.count && centers.count > CenterNeighbours.count
    let runs = points.count * centers.count >= lloydCoresWork ? max(1, ProcessEnvironment.activeProcessorCount) : 1
    var assigned: [Int] = []
    for _ in 0..<rounds {
        let now = centers, last = assigned
        let neighbours = guided ? CenterNeighbours(now) : nil
        let parts = Concurrently.map(runs) { run -> [Int] in
            let range = (points.count * run / runs)..<(points.count * (run + 1) / runs)
            var found = [Int](repeating: 0, count: range.count)
            now.withUnsafeBufferPointer { c in
                var previous = 0
                for (j, k) in range.enumerated() {
                    let v = points[k].0
                    let best = neighbours.map { $0.nearest(v, c, from: last.isEmpty ? previous : last[k]) } ?? nearestCenterScanningAll(v, c)
                    found[j] = best
                    previous = best
                }
            }
            return found
        }
        let next = runs == 1 ? parts[0] : Array(parts.joined())
        var sums = [SIMD4<Double>](repeating: .zero, count: centers.count), weights = [Double](repeating: 0, count: centers.count)
        for (k, (v, w)) in points.enumerated() {
            sums[next[k]] += v * w
            weights[next[k]] += w
        }
        if guided { assigned = next }
        var moved = false
        for i in fixed..<centers.count where weights[i] > 0 {
            guard let m = settle(i, sums[i] / weights[i], centers) else { continue }
            if ((m - centers[i]) * (m - centers[i])).sum() > 1e-12 { moved = true }
            centers[i] = m
        }
        if !moved { break }
    }
}

/// Points × centers from which Lloyd's rounds find the nearest centers on the cores.
let lloydCoresWork = 1 << 17

/// The center nearest `v` (squared distance; the first of equals), every center looked at.
@inline(__always)
func nearestCenterScanningAll(_ v: SIMD4<Double>, _ centers: UnsafeBufferPointer<SIMD4<Double>>) -> Int {
    var best = 0, bestDistance = Double.infinity
    for i in 0..<centers.count {
        let m = centers[i]
        let d = ((m - v) * (m - v)).sum()
        if d < bestDistance { (best, bestDistance) = (i, d) }
    }
    return best
}

/// Each center's `count` nearest other centers, for finding a point's nearest center from a guess.
///
/// A point at distance D from its guess g can only be nearer to, or as near as, a center c with
/// |g − c| ≤ 2D (the triangle inequality). When 2D, with room for rounding, is below `radius[g]`
/// (the distance to g's farthest listed neighbour, no unlisted center nearer), every such c is
/// listed: the nearest among g and those is the nearest of all, ties to the smaller index, as a
/// scan of all finds it. Otherwise the point scans them all.
struct CenterNeighbours {
    static let count = 16
    /// Center g's neighbours: list[g * count ..< (g + 1) * count], their distances alongside.
    let list: [Int], distance: [Double]
    let radius: [Double]

    /// The lists of every center, a run of centers on each core when there are many.
    init(_ centers: [SIMD4<Double>]) {
        let n = centers.count, k = CenterNeighbours.count
        let runs = n * n >= lloydCoresWork / 8 ? max(1, ProcessEnvironment.activeProcessorCount) : 1
        let parts = Concurrently.map(runs) { run in
            CenterNeighbours.lists(centers, (n * run / runs)..<(n * (run + 1) / runs))
        }
        if runs == 1 {
            (list, distance, radius) = parts[0]
        } else {
            list = Array(parts.map(\.list).joined())
            distance = Array(parts.map(\.distance).joined())
            radius = Array(parts.map(\.radius).joined())
        }
        precondition(list.count == n * k && radius.count == n, "every center listed")
    }

    /// The lists of centers `range`: for each, its `count` nearest others ascending (the first of
    /// equals first), their distances, and the radius.
    static func lists(_ centers: [SIMD4<Double>], _ range: Range<Int>) -> (list: [Int], distance: [Double], radius: [Double]) {
        let n = centers.count, k = CenterNeighbours.count
        var list = [Int](repeating: 0, count: range.count * k), distance = [Double](repeating: .infinity, count: range.count * k)
        var radius = [Double](repeating: .infinity, count: range.count)
        centers.withUnsafeBufferPointer { centers in
            list.withUnsafeMutableBufferPointer { list in
                distance.withUnsafeMutableBufferPointer { distance in
                    for (r, g) in range.enumerated() {
                        // The k nearest so far, ascending by distance and then index, by insertion.
                        // The others are looked at outward from g (g − 1, g + 1, g − 2, …): centers
                        // come from boxes cut in order, so near indices are mostly near colors and
                        // the list fills with near ones early. A center farther, squared, than the
                        // farthest listed one is farther (the square root is monotonic), and its root
                        // is not taken; one as far or a hair farther may have the same root, so
                        // the bound leaves room.
                        var found = 0, farthest = Double.infinity
                        let base = r * k, center = centers[g]
                        for step in 1..<(2 * n) {
                            let c = step & 1 == 1 ? g - (step + 1) / 2 : g + step / 2
                            guard c >= 0 && c < n else {
                                if g - (step + 1) / 2 < 0 && g + step / 2 >= n { break }
                                continue
                            }
                            let e = center - centers[c]
                            let squared = (e * e).sum()
                            guard found < k || squared <= farthest else { continue }
                            let d = squared.squareRoot()
                            @inline(__always) func before(_ at: Int) -> Bool {
                                distance[base + at] > d || (distance[base + at] == d && list[base + at] > c)
                            }
                            guard found < k || before(k - 1) else { continue }
                            var at = min(found, k - 1)
                            while at > 0 && before(at - 1) {
                                distance[base + at] = distance[base + at - 1]
                                list[base + at] = list[base + at - 1]
                                at -= 1
                            }
                            distance[base + at] = d
                            list[base + at] = c
                            found = min(found + 1, k)
                            if found == k {
                                let e = center - centers[list[base + k - 1]]
                                farthest = (e * e).sum() * (1 + 1e-12)
                            }
                        }
                        // Every unlisted center is at least as far as the farthest listed one.
                        radius[r] = found == k ? distance[base + k - 1] : .infinity
                    }
                }
            }
        }
        return (list, distance, radius)
    }

    /// The center nearest `v`, as `nearestCenterScanningAll` finds it, starting from `guess`.
    @inline(__always)
    func nearest(_ v: SIMD4<Double>, _ centers: UnsafeBufferPointer<SIMD4<Double>>, from guess: Int) -> Int {
        let g = centers[guess]
        var best = guess, bestDistance = ((g - v) * (g - v)).sum()
        let reach = 2 * bestDistance.squareRoot() * (1 + 1e-9) + 1e-9
        // Listed neighbours reach every center within `reach` only when the list goes beyond it.
        guard reach < radius[guess] * (1 - 1e-9) else { return nearestCenterScanningAll(v, centers) }
        let base = guess * CenterNeighbours.count
        for j in 0..<CenterNeighbours.count {
            guard distance[base + j] <= reach else { break }
            let i = list[base + j], m = centers[i]
            let d = ((m - v) * (m - v)).sum()
            if d < bestDistance || (d == bestDistance && i < best) { (best, bestDistance) = (i, d) }
        }
        return best
    }
}

/// Median cut: up to `count` colors standing for `colors`, deterministic for the same input.
/// Colors are first counted at 8 bits per premultiplied channel, so the cut works on the distinct
/// colors, each weighted by how often it occurs.
func medianCut(_ colors: [PremultipliedColor], count: Int, byError: Bool = false) -> [PremultipliedColor] {
    medianCutWithErrors(colors, count: count, byError: byError).colors
}

/// `medianCut` (with `byError`, cutting the box whose colors are furthest from its mean in
/// squared error instead of the widest, so that the boxes go where the pixels are rather than to
/// rare outliers), and the squared error (summed over the premultiplied channels, 0…1, and over
/// `colors`) of showing every color at its box's mean after each cut: `errors[c]` with `c` boxes
/// (`errors[0]` is unused, infinite).
func medianCutWithErrors(_ colors: [PremultipliedColor], count: Int, byError: Bool = false) -> (colors: [PremultipliedColor], errors: [Double]) {
    medianCutWithErrors(counted: CountedColor.counting(colors), count: count, byError: byError)
}

/// `medianCutWithErrors` over colors already counted (distinct, in key order, weighted).
func medianCutWithErrors(counted: [CountedColor], count: Int, byError: Bool = false) -> (colors: [PremultipliedColor], errors: [Double]) {
    guard !counted.isEmpty, count > 0 else { return ([], [.infinity]) }
    var points = counted
    func widest(_ r: Range<Int>) -> (width: Double, axis: Int) {
        var lo = SIMD4<Double>(repeating: .infinity), hi = SIMD4<Double>(repeating: -.infinity)
        for p in points[r] {
            lo.lower(to: p.channels)
            hi.raise(to: p.channels)
        }
        let w = hi - lo
        var axis = 0
        for k in 1..<4 where w[k] > w[axis] { axis = k }
        return (w[axis], axis)
    }
    var boxes: [(range: Range<Int>, width: Double, axis: Int, error: Double)] = []
    func add(_ r: Range<Int>) {
        let (w, axis) = widest(r)
        var sum = SIMD4<Double>(repeating: 0), squares = 0.0, weight = 0.0
        for p in points[r] {
            sum += p.channels * p.weight
            squares += (p.channels * p.channels).sum() * p.weight
            weight += p.weight
        }
        boxes.append((r, w, axis, max(0, squares - (sum * sum).sum() / weight)))
    }
    add(0..<points.count)
    var errors: [Double] = [.infinity, boxes[0].error]
    while boxes.count < count {
        var best = -1
        for (i, b) in boxes.enumerated() where b.range.count > 1 && b.width > 0.5 / 255 {
            if best < 0 || (byError ? b.error > boxes[best].error : b.width > boxes[best].width) { best = i }
        }
        guard best >= 0, boxes[best].width > 0.5 / 255 else { break }
        let (r, _, axis, _) = boxes[best]
        sortByChannel(&points, r, axis: axis)
        // Split where half the box's weight lies on each side (never leaving a side empty).
        let total = points[r].reduce(0) { $0 + $1.weight }
        var acc = 0.0, mid = r.lowerBound + 1
        for i in r {
            acc += points[i].weight
            if acc >= total / 2 { mid = min(max(i + 1, r.lowerBound + 1), r.upperBound - 1); break }
        }
        boxes.remove(at: best)
        add(r.lowerBound..<mid)
        add(mid..<r.upperBound)
        errors.append(boxes.reduce(0) { $0 + $1.error })
    }
    let means = boxes.sorted { $0.range.lowerBound < $1.range.lowerBound }.map { b in
        var sum = SIMD4<Double>(repeating: 0), weight = 0.0
        for p in points[b.range] {
            sum += p.channels * p.weight
            weight += p.weight
        }
        let m = sum / weight
        return PremultipliedColor(r: m[0], g: m[1], b: m[2], a: m[3])
    }
    return (means, errors)
}

/// Sorts `points[range]` by channel `axis`, equal channels by key: the order of
/// `plainSortByChannel`, found by sorting small (channel, key, position) records rather than the
/// colors themselves. The channel's bits are mapped so that they compare as the numbers do (−0 as 0).
func sortByChannel(_ points: inout [CountedColor], _ range: Range<Int>, axis: Int) {
    @inline(__always) func ordered(_ v: Double) -> UInt64 {
        let bits = (v == 0 ? 0 : v).bitPattern
        return bits >> 63 == 0 ? bits | 1 << 63 : ~bits
    }
    // A box cut from a box sorted along the same channel is sorted already.
    if !range.dropFirst().contains(where: { inChannelOrder(points[$0], points[$0 - 1], axis: axis) }) { return }
    var records = [(channel: UInt64, key: UInt32, at: UInt32)]()
    records.reserveCapacity(range.count)
    for i in range { records.append((ordered(points[i].channels[axis]), points[i].key, UInt32(i - range.lowerBound))) }
    records.sort { $0.channel < $1.channel || ($0.channel == $1.channel && $0.key < $1.key) }
    let box = Array(points[range])
    for (j, record) in records.enumerated() { points[range.lowerBound + j] = box[Int(record.at)] }
}

/// `sortByChannel` as the colors' own sort: the plain form it is tested against.
func plainSortByChannel(_ points: inout [CountedColor], _ range: Range<Int>, axis: Int) {
    points[range].sort { inChannelOrder($0, $1, axis: axis) }
}

/// Whether `a` comes before `b` along channel `axis`: the smaller channel, equal channels by key.
@inline(__always)
func inChannelOrder(_ a: CountedColor, _ b: CountedColor, axis: Int) -> Bool {
    a.channels[axis] < b.channels[axis] || (a.channels[axis] == b.channels[axis] && a.key < b.key)
}

/// Optimal placement of a few levels on one edge ramp: the pixels of an edge, binned at positions
/// `t` (0…1, ascending) with counts `weight`, each shown as the nearest of the levels, where the
/// two ends (the edge's flat colors) are levels that cost nothing.
struct RampQuantizer {
    let t: [Double]
    let weight: [Double]
    private let s0: [Double], s1: [Double], s2: [Double]

    init(t: [Double], weight: [Double]) {
        self.t = t
        self.weight = weight
        var s0 = [0.0], s1 = [0.0], s2 = [0.0]
        for (x, w) in zip(t, weight) {
            s0.append(s0.last! + w)
            s1.append(s1.last! + w * x)
            s2.append(s2.last! + w * x * x)
        }
        (self.s0, self.s1, self.s2) = (s0, s1, s2)
    }

    /// Squared error of bins `i..<j` shown at `level`, or at their weighted mean when nil.
    func cost(_ i: Int, _ j: Int, at level: Double? = nil) -> Double {
        let w = s0[j] - s0[i], m = s1[j] - s1[i], q = s2[j] - s2[i]
        guard w > 0 else { return 0 }
        guard let level else { return max(0, q - m * m / w) }
        return max(0, q - 2 * level * m + level * level * w)
    }

    /// The least squared error with `k` free levels, for every `k` from 0 to `limit`, and the bins
    /// each level takes (for the levels that take any weight). Bins form contiguous groups: the
    /// first shown at 0, then one group per free level at its mean, the last shown at 1.
    func solve(upTo limit: Int) -> [(error: Double, groups: [Range<Int>])] {
        let m = t.count
        // best[k][j]: bins 0..<j with k free levels (the first group at 0); from[k][j]: where the
        // last free level's group starts.
        var best = [[Double]](repeating: [Double](repeating: .infinity, count: m + 1), count: limit + 1)
        var from = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: limit + 1)
        for j in 0...m { best[0][j] = cost(0, j, at: 0) }
        if limit > 0 {
            for k in 1...limit {
                for j in 0...m {
                    var b = best[k - 1][j], f = j
                    for i in 0..<j {
                        let c = best[k - 1][i] + cost(i, j)
                        if c < b { (b, f) = (c, i) }
                    }
                    best[k][j] = b
                    from[k][j] = f
                }
            }
        }
        return (0...limit).map { k in
            var e = Double.infinity, split = m
            for i in 0...m {
                let c = best[k][i] + cost(i, m, at: 1)
                if c < e { (e, split) = (c, i) }
            }
            var groups: [Range<Int>] = []
            var j = split
            for level in stride(from: k, through: 1, by: -1) {
                let i = from[level][j]
                if i < j && s0[j] - s0[i] > 0 { groups.append(i..<j) }
                j = i
            }
            return (e, groups.reversed())
        }
    }

    /// The weighted mean position of bins `r`.
    func mean(_ r: Range<Int>) -> Double {
        (s1[r.upperBound] - s1[r.lowerBound]) / (s0[r.upperBound] - s0[r.lowerBound])
    }
}
