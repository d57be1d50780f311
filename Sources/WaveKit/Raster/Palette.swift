/// One global palette for an animation: the exact colors of the scene's flat regions, blend ramps
/// for the edges between neighbouring regions, and at most one transparent entry.
public struct Palette: Equatable, Sendable {
    /// Entries in index order (straight alpha; the transparent entry, if any, is `RGBA.transparent`).
    public var colors: [RGBA]
    /// The index that stands for "transparent" in a GIF, if the scene has one.
    public var transparentIndex: Int?
    /// How many entries are exact flat-region colors other than the transparent entry (they come
    /// first, with the transparent entry among them when the background is transparent).
    public var flatCount: Int
    /// The most intermediate steps any edge ramp got.
    public var rampSteps: Int
    /// Edges (pairs of neighbouring flat regions) the ramps cover.
    public var rampCount: Int
    /// Notes for `--verbose` (ramps reduced to fit, regions merged).
    public var notes: [String]

    /// For `--verbose`: "35 colors: 4 flat, 31 edge shades on 4 edge ramps (up to 63 steps each)",
    /// the parts adding up to the whole (with ", 1 transparent" when the scene has it).
    public var summary: String {
        let transparent = transparentIndex == nil ? 0 : 1
        let shades = colors.count - flatCount - transparent
        var text = "\(NumberText.count(colors.count, "color")): \(flatCount) flat, \(NumberText.count(shades, "edge shade"))"
        if rampCount > 0 { text += " on \(NumberText.count(rampCount, "edge ramp")) (up to \(NumberText.count(rampSteps, "step")) each)" }
        if transparent > 0 { text += ", 1 transparent" }
        return text
    }

    /// The largest number of entries a palette holds.
    public static let capacity = 256
    /// The most intermediate steps a ramp gets when the palette has room.
    public static let maximumRampSteps = 63

    /// The entry nearest to `color`, by distance between premultiplied colors (so that fully
    /// transparent colors all match each other).
    public func nearestIndex(to color: RGBA) -> Int {
        let (r, g, b, a) = Palette.premultiplied(color)
        var best = 0
        var bestDistance = Int.max
        for (i, c) in colors.enumerated() {
            let (cr, cg, cb, ca) = Palette.premultiplied(c)
            let d = (cr - r) * (cr - r) + (cg - g) * (cg - g) + (cb - b) * (cb - b) + (ca - a) * (ca - a)
            if d < bestDistance {
                bestDistance = d
                best = i
                if d == 0 { break }
            }
        }
        return best
    }

    /// Every entry's premultiplied color as `nearestIndex(to:)` measures it, for
    /// `nearestIndex(to:entries:)`.
    var premultipliedEntries: [SIMD4<Int32>] {
        colors.map { let (r, g, b, a) = Palette.premultiplied($0); return SIMD4(Int32(r), Int32(g), Int32(b), Int32(a)) }
    }

    /// `nearestIndex(to:)` with the entries' premultiplied colors taken once
    /// (`premultipliedEntries`): the same entry (the first at the least distance).
    static func nearestIndex(to color: RGBA, entries: [SIMD4<Int32>]) -> Int {
        let (r, g, b, a) = Palette.premultiplied(color)
        let q = SIMD4(Int32(r), Int32(g), Int32(b), Int32(a))
        var best = 0
        var bestDistance = Int32.max
        entries.withUnsafeBufferPointer { entries in
            for i in entries.indices {
                let e = entries[i] &- q
                let d = (e &* e).wrappedSum()
                if d < bestDistance {
                    bestDistance = d
                    best = i
                    if d == 0 { break }
                }
            }
        }
        return best
    }

    /// The entries' premultiplied colors sorted by the sum of their channels, for
    /// `nearestIndex(to:in:)`.
    struct SortedEntries {
        /// Premultiplied color and palette index, by channel sum then index.
        let entries: [(color: SIMD4<Int32>, index: Int32)]
        let sums: [Int32]
        var count: Int { entries.count }

        init(_ premultiplied: [SIMD4<Int32>]) {
            let sorted = premultiplied.enumerated().map { (color: $1, index: Int32($0)) }
                .sorted { ($0.color.wrappedSum(), $0.index) < ($1.color.wrappedSum(), $1.index) }
            entries = sorted
            sums = sorted.map { $0.color.wrappedSum() }
        }
    }

    /// `nearestIndex(to:entries:)` searching outward from the query's channel sum: a color whose
    /// sum is `Δ` away from the query's is at least `Δ² ÷ 4` away (Cauchy–Schwarz over four
    /// channels), so the search stops once `Δ²` passes four times the best distance. Every entry
    /// that could be as near is looked at, and of equally near ones the lowest index is kept: the
    /// same entry as the scan.
    static func nearestIndex(to color: RGBA, in sorted: SortedEntries) -> Int {
        let (r, g, b, a) = Palette.premultiplied(color)
        let q = SIMD4(Int32(r), Int32(g), Int32(b), Int32(a))
        let qs = q.wrappedSum()
        var best = Int32.max, bestDistance = Int32.max
        sorted.entries.withUnsafeBufferPointer { entries in
            sorted.sums.withUnsafeBufferPointer { sums in
                // The first entry whose sum is at least the query's.
                var lo = 0, hi = sorted.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if sums[mid] < qs { lo = mid + 1 } else { hi = mid }
                }
                @inline(__always) func consider(_ i: Int) {
                    let e = entries[i].color &- q
                    let d = (e &* e).wrappedSum()
                    if d < bestDistance || (d == bestDistance && entries[i].index < best) {
                        bestDistance = d
                        best = entries[i].index
                    }
                }
                @inline(__always) func within(_ i: Int) -> Bool {
                    let delta = Int64(sums[i] - qs)
                    return bestDistance == Int32.max || delta * delta <= 4 * Int64(bestDistance)
                }
                var up = lo, down = lo - 1
                while up < sorted.count || down >= 0 {
                    // The nearer sum first.
                    let takeUp = down < 0 || (up < sorted.count && sums[up] - qs <= qs - sums[down])
                    if takeUp {
                        guard within(up) else { up = sorted.count; continue }
                        consider(up)
                        up += 1
                    } else {
                        guard within(down) else { down = -1; continue }
                        consider(down)
                        down -= 1
                    }
                }
            }
        }
        return Int(best)
    }

    @inline(__always)
    static func premultiplied(_ c: RGBA) -> (Int, Int, Int, Int) {
        let a = Int(c.a)
        return (Int(c.r) * a / 255, Int(c.g) * a / 255, Int(c.b) * a / 255, a)
    }

    /// The RGBA bytes of indexed pixels.
    public func expand(_ indices: [UInt8], into rgba: inout [UInt8]) {
        let table = colors.map { UInt32($0.r) | UInt32($0.g) << 8 | UInt32($0.b) << 16 | UInt32($0.a) << 24 }
            + Array(repeating: 0, count: 256 - colors.count)
        if rgba.count != indices.count * 4 { rgba = [UInt8](repeating: 0, count: indices.count * 4) }
        table.withUnsafeBufferPointer { t in
            indices.withUnsafeBufferPointer { src in
                rgba.withUnsafeMutableBytes { dst in
                    let out = dst.bindMemory(to: UInt32.self)
                    for i in 0..<src.count { out[i] = UInt32(littleEndian: t[Int(src[i])]) }
                }
            }
        }
    }
}

/// Builds the palette of a scene from the regions that occur in it.
struct PaletteBuilder {
    /// Flat regions in discovery order, each a premultiplied color with a key.
    private var flats: [PremultipliedColor] = []
    private var pairs: [(Int, Int)] = []
    private var pairSet = Set<Int>()

    /// Registers a flat region color; returns its position among the flats.
    mutating func flat(_ c: PremultipliedColor) -> Int {
        if let i = flats.firstIndex(of: c) { return i }
        flats.append(c)
        return flats.count - 1
    }

    /// Registers an edge between two flat regions.
    mutating func edge(_ a: Int, _ b: Int) {
        guard a != b else { return }
        let key = min(a, b) << 16 | max(a, b)
        if pairSet.insert(key).inserted { pairs.append((min(a, b), max(a, b))) }
    }

    /// The palette for `target`, and the index each flat region maps to. Edge ramps get steps enough
    /// that neighbouring entries differ by at most `step` 8-bit levels in any channel.
    func build(target: RenderTarget, reserved: [PremultipliedColor] = [], step: Double = WaveConfig.defaultEdgeStep) -> (Palette, [Int]) {
        let (palette, flatIndex, _) = buildWithShades(target: target, reserved: reserved, step: step)
        return (palette, flatIndex)
    }

    /// `build`, and where each edge shade lies: its edge (in registration order), its position
    /// along it from the first flat (0) to the second (1), and its palette entry.
    func buildWithShades(target: RenderTarget, reserved: [PremultipliedColor] = [],
                         step: Double = WaveConfig.defaultEdgeStep) -> (Palette, [Int], ShadeLayout) {
        var colors: [RGBA] = []
        var transparentIndex: Int?
        var notes: [String] = []
        var lookup: [RGBA: Int] = [:]
        func add(_ c: RGBA?) -> Int {
            guard let c else {
                if let t = transparentIndex { return t }
                transparentIndex = colors.count
                colors.append(.transparent)
                lookup[.transparent] = transparentIndex
                return transparentIndex!
            }
            if let i = lookup[c] { return i }
            colors.append(c)
            lookup[c] = colors.count - 1
            return colors.count - 1
        }
        // Reserved colors (a rider's) are stored after the flats and before the ramps.
        let reservedStored = reserved.compactMap { target.store($0, x: 0, y: 0) }
        let budget = Palette.capacity - Set(reservedStored).count
        var flatIndex: [Int] = []
        for c in flats {
            if colors.count >= budget - 1 && lookup[target.store(c, x: 0, y: 0) ?? .transparent] == nil {
                flatIndex.append(-1)
                continue
            }
            flatIndex.append(add(target.store(c, x: 0, y: 0)))
        }
        if flatIndex.contains(-1) {
            notes.append("the scene has \(flats.count) flat regions; \(flatIndex.filter { $0 < 0 }.count) of them map to their nearest color")
        }
        let reservedStart = colors.count
        for c in reservedStored where colors.count < Palette.capacity { _ = add(c) }
        let room = max(0, Palette.capacity - colors.count)
        // Each edge gets steps enough that neighbouring entries differ by at most `step` levels in
        // any channel; when that does not fit, every ramp is capped evenly.
        let wanted = pairs.map { a, b -> Int in
            let p = flats[a], q = flats[b]
            let contrast = max(abs(p.r - q.r), abs(p.g - q.g), abs(p.b - q.b), abs(p.a - q.a)) * 255
            return min(Palette.maximumRampSteps, max(0, Int(saturating: (contrast / step).rounded(.up)) - 1))
        }
        func rampColors(cap: Int) -> [(color: RGBA, edge: Int, t: Double)] {
            var out: [(color: RGBA, edge: Int, t: Double)] = []
            var seen = Set(lookup.keys)
            for (n, (a, b)) in pairs.enumerated() {
                let steps = min(cap, wanted[n])
                for j in 0..<steps {
                    let t = Double(j + 1) / Double(steps + 1)
                    if let c = target.store(flats[a].mixed(with: flats[b], t), x: 0, y: 0), seen.insert(c).inserted {
                        out.append((c, n, t))
                    }
                }
            }
            return out
        }
        var cap = wanted.max() ?? 0
        var ramps = rampColors(cap: cap)
        while ramps.count > room && cap > 0 {
            cap -= 1
            ramps = rampColors(cap: cap)
        }
        var rampNotes: [String] = []
        if cap < (wanted.max() ?? 0) {
            rampNotes.append("palette: \(flats.count) flat colors and \(pairs.count) edges; edge ramps capped at \(cap) steps to fit \(Palette.capacity) entries")
        }
        notes += rampNotes
        var shades: [EdgeShade] = []
        for r in ramps.prefix(room) { shades.append(EdgeShade(edge: r.edge, t: r.t, index: add(r.color))) }
        let steps = cap
        // A transparent background is the transparent entry, counted as that, not as a flat color.
        let flatCount = Set(flatIndex.filter { $0 >= 0 && $0 != transparentIndex }).count
        let palette = Palette(colors: colors, transparentIndex: transparentIndex, flatCount: flatCount,
                              rampSteps: steps, rampCount: pairs.count, notes: notes)
        let resolved = flatIndex.enumerated().map { i, index in
            index >= 0 ? index : palette.nearestIndex(to: target.store(flats[i], x: 0, y: 0) ?? .transparent)
        }
        return (palette, resolved, ShadeLayout(shades: shades, reservedStart: reservedStart, notes: rampNotes))
    }
}

extension PaletteBuilder {
    /// The premultiplied color of flat region `i`.
    func color(_ i: Int) -> PremultipliedColor { flats[i] }

    /// The edges registered, as pairs of flat regions, in registration order.
    var edges: [(Int, Int)] { pairs }
}
