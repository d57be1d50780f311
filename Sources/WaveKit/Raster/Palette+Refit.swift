/// An edge shade of a built palette: the edge it lies on (its position among the builder's
/// edges), where along it (0 at the edge's first flat color, 1 at its second) and its entry.
struct EdgeShade: Equatable {
    var edge: Int
    var t: Double
    var index: Int
}

/// The edge shades of a built palette, where a rider's and a label's colors start, and the notes
/// the builder wrote about the shades.
struct ShadeLayout {
    var shades: [EdgeShade]
    /// The first entry of the rider's and label's colors (they run up to the first shade).
    var reservedStart: Int
    /// Notes about the edge ramps (capped to fit), which no longer hold once the shades are chosen again.
    var notes: [String]
}

extension PaletteBuilder {
    /// `palette` with its rider's and label's colors and its edge shades chosen again so that it
    /// holds at most `budget` entries.
    ///
    /// The transparent and flat entries stay where they are. Each edge's pixels (`usage[i]`: how
    /// many pixels of the loop drew entry `i`) get the levels that show them with the least squared
    /// error, the levels shared among the edges by the least total error (each edge weighted by its
    /// contrast squared). The overlay's colors (`overlay`, each sample standing for
    /// `overlayWeight` pixels) take as many entries as lower the total error most, by median cut,
    /// then moved to where their pixels are. Edges that leave one flat color run close together
    /// near it, so a shade serves its neighbours' pixels too: Lloyd's iterations then move each
    /// shade to the mean of the pixels nearest to it. Returns `palette` itself when it already fits.
    func refit(_ palette: Palette, layout: ShadeLayout, usage: [Int], budget: Int, target: RenderTarget,
               overlay: [PremultipliedColor] = [], overlayWeight: Double = 1) -> Palette {
        guard palette.colors.count > budget else { return palette }
        let first = layout.shades.map(\.index).min() ?? palette.colors.count
        var colors = Array(palette.colors.prefix(layout.reservedStart))
        let room = max(0, budget - colors.count)
        let pairs = edges
        var bins = [[EdgeShade]](repeating: [], count: pairs.count)
        for s in layout.shades { bins[s.edge].append(s) }
        bins = bins.map { $0.sorted { $0.t < $1.t } }
        let quantizers = bins.map { list in RampQuantizer(t: list.map(\.t), weight: list.map { Double(usage[$0.index]) }) }
        let solved = pairs.indices.map { e -> [(error: Double, groups: [Range<Int>])] in
            let p = color(pairs[e].0), q = color(pairs[e].1)
            let contrast = (p.r - q.r) * (p.r - q.r) + (p.g - q.g) * (p.g - q.g) + (p.b - q.b) * (p.b - q.b) + (p.a - q.a) * (p.a - q.a)
            return quantizers[e].solve(upTo: min(room, bins[e].count)).map { ($0.error * contrast, $0.groups) }
        }
        let shadeErrors = solved.map { $0.map(\.error) }
        // The overlay's share: the count whose median-cut error plus the shades' error in the
        // rest is least (at least one entry when there is an overlay and room).
        var overlayCount = 0
        if !overlay.isEmpty && room > 0 {
            let cut = medianCutWithErrors(overlay, count: min(FrameRenderer.overlayColors, room), byError: true).errors
            let shades = PaletteBuilder.share(room, among: shadeErrors).total
            overlayCount = (1..<cut.count).min { a, b in
                cut[a] * overlayWeight + shades[room - a] < cut[b] * overlayWeight + shades[room - b]
            } ?? 0
        }
        var seen = Set(colors)
        for c in refined(medianCut(overlay, count: overlayCount, byError: true), over: overlay) {
            if let stored = target.store(c, x: 0, y: 0), seen.insert(stored).inserted { colors.append(stored) }
        }
        let movable = colors.count
        let levels = PaletteBuilder.share(max(0, budget - colors.count), among: shadeErrors).levels
        for (e, (a, b)) in pairs.enumerated() where levels[e] > 0 {
            for group in solved[e][levels[e]].groups {
                let mixed = color(a).mixed(with: color(b), quantizers[e].mean(group))
                if let c = target.store(mixed, x: 0, y: 0), seen.insert(c).inserted { colors.append(c) }
            }
        }
        let points = (first..<palette.colors.count).filter { usage[$0] > 0 && palette.colors[$0].a == 255 }
            .map { (palette.colors[$0], usage[$0]) }
        colors = PaletteBuilder.lloyd(colors, fixed: movable, points: points)
        var notes = palette.notes.filter { !layout.notes.contains($0) }
        var placed = "\(NumberText.count(colors.count - movable, "edge shade")) where the loop's pixels fall, in place of \(palette.colors.count - first)"
        if !overlay.isEmpty { placed += ", and \(movable - layout.reservedStart) for the rider and label in place of \(first - layout.reservedStart)" }
        notes.append("palette: " + placed + ", to fit gif.colors")
        return Palette(colors: colors, transparentIndex: palette.transparentIndex, flatCount: palette.flatCount,
                       rampSteps: 0, rampCount: 0, notes: notes)
    }

    /// How many levels each edge gets of `room`, given each edge's error with 0, 1, 2, … levels:
    /// the least total error (exact, by dynamic programming; ties go to the earlier edges' fewer
    /// levels), and that least total error for every room from 0 to `room`.
    static func share(_ room: Int, among errors: [[Double]]) -> (levels: [Int], total: [Double]) {
        var total = [Double](repeating: 0, count: room + 1)
        var choice: [[Int]] = []
        for options in errors {
            var next = [Double](repeating: .infinity, count: room + 1)
            var picked = [Int](repeating: 0, count: room + 1)
            for r in 0...room {
                for k in 0..<min(options.count, r + 1) {
                    let c = total[r - k] + options[k]
                    if c < next[r] { (next[r], picked[r]) = (c, k) }
                }
            }
            total = next
            choice.append(picked)
        }
        var left = room
        var levels = [Int](repeating: 0, count: errors.count)
        for e in stride(from: errors.count - 1, through: 0, by: -1) {
            levels[e] = choice[e][left]
            left -= levels[e]
        }
        return (levels, total)
    }

    /// `colors` with the entries from `fixed` on moved by Lloyd's iterations (`lloydIterations`)
    /// over the weighted opaque `points`, distances between premultiplied 8-bit colors (as
    /// `Palette.nearestIndex` measures them), each moved entry rounded to 8-bit levels and kept
    /// apart from the others. Entries no point goes to stay.
    static func lloyd(_ colors: [RGBA], fixed: Int, points: [(RGBA, Int)]) -> [RGBA] {
        func vector(_ c: RGBA) -> SIMD4<Double> {
            let (r, g, b, a) = Palette.premultiplied(c)
            return SIMD4(Double(r), Double(g), Double(b), Double(a))
        }
        func color(_ v: SIMD4<Double>) -> RGBA {
            func level(_ x: Double) -> UInt8 { UInt8(max(0, min(255, x.rounded()))) }
            return RGBA(level(v[0]), level(v[1]), level(v[2]))
        }
        var centers = colors.map(vector)
        lloydIterations(&centers, fixed: fixed, points: points.map { (vector($0.0), Double($0.1)) }) { i, mean, centers in
            let c = vector(color(mean))
            return c != centers[i] && centers.contains(c) ? nil : c
        }
        return zip(colors, centers).enumerated().map { i, pair in i < fixed || pair.1 == vector(pair.0) ? pair.0 : color(pair.1) }
    }
}
