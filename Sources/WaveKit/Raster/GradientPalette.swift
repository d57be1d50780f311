/// A GIF color table for a scene with gradients, where pixels of one region differ: the colors
/// the loop really produces are counted (`GradientRaster`'s stored colors over every frame), and
/// the table's entries go where they fall. When the loop has no more distinct colors than the table
/// holds, every one is exact; otherwise a median cut (splitting the box of largest squared error)
/// chooses the entries, and a few of Lloyd's iterations move each to the mean of its pixels. An
/// optional ordered dither (`gif.dither`) trades banding for a fine fixed pattern: the pattern
/// depends only on the pixel's position, so unchanged pixels stay unchanged from frame to frame.
struct GradientPalette: Sendable {
    let palette: Palette
    /// Amplitude of the ordered dither in 8-bit levels (0: none).
    let ditherLevels: Double

    /// Lloyd's iterations after the cut: each costs a pass over the distinct colors per entry.
    static let lloydRounds = 4

    /// The table for `counts` (packed straight RGBA, r in the top byte, to how many pixels of the
    /// loop show it; a transparent pixel is 0), at most `colors` entries with one left free for the
    /// GIF encoder's key, and the dither `strength` (0…1) in units of the table's typical spacing.
    init(counts: [UInt32: Int], colors: Int, dither strength: Double) {
        let transparent = counts[0] != nil
        let room = max(1, colors - 1 - (transparent ? 1 : 0))
        let points = counts.filter { $0.key & 0xFF != 0 }.keys.sorted().map { key -> CountedColor in
            let a = Double(key & 0xFF) / 255
            let v = SIMD4<Double>(Double(key >> 24) / 255 * a, Double(key >> 16 & 255) / 255 * a, Double(key >> 8 & 255) / 255 * a, a)
            return CountedColor(key: key, channels: v, weight: Double(counts[key]!))
        }
        var entries: [RGBA] = []
        var exact = true
        if points.count <= room {
            entries = points.map { RGBA(UInt8($0.key >> 24), UInt8($0.key >> 16 & 255), UInt8($0.key >> 8 & 255), UInt8($0.key & 255)) }
        } else {
            exact = false
            let cut = medianCutWithErrors(counted: points, count: room, byError: true).colors
            var centers = cut.map { SIMD4<Double>($0.r, $0.g, $0.b, $0.a) }
            lloydIterations(&centers, fixed: 0, points: points.map { ($0.channels, $0.weight) }, rounds: GradientPalette.lloydRounds) { _, mean, _ in mean }
            var seen = Set<RGBA>()
            for c in centers {
                let color = PremultipliedColor(r: c[0], g: c[1], b: c[2], a: c[3]).straight
                if color.a > 0, seen.insert(color).inserted { entries.append(color) }
            }
        }
        var colors = transparent ? [RGBA.transparent] : []
        colors += entries
        var notes = ["palette: \(NumberText.count(points.count, "distinct color")) over the loop (gradients), "
            + (exact ? "every one exact" : "\(NumberText.count(entries.count, "entry", plural: "entries")) where they fall")]
        let spacing = exact ? 0 : GradientPalette.spacing(entries)
        ditherLevels = strength * spacing
        if ditherLevels > 0 { notes.append("palette: ordered dither of ±\(NumberText.exact((ditherLevels / 2 * 10).rounded() / 10)) levels") }
        palette = Palette(colors: colors, transparentIndex: transparent ? 0 : nil, flatCount: 0, rampSteps: 0, rampCount: 0, notes: notes)
    }

    /// The median over entries of the distance (largest channel difference, 8-bit levels) to the
    /// nearest other entry: the step between neighbouring shades.
    static func spacing(_ entries: [RGBA]) -> Double {
        guard entries.count > 1 else { return 0 }
        var nearest: [Int] = []
        for (i, a) in entries.enumerated() {
            var best = Int.max
            for (j, b) in entries.enumerated() where j != i {
                let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
                best = min(best, d)
            }
            nearest.append(best)
        }
        nearest.sort()
        return Double(nearest[nearest.count / 2])
    }

    /// The entry for the stored color at (x, y) (bytes r, g, b, a), dithered when asked.
    @inline(__always)
    func index(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8, x: Int, y: Int, cache: inout ColorCache) -> UInt8 {
        if a == 0 { return UInt8(palette.transparentIndex ?? 0) }
        guard ditherLevels > 0, a == 255 else { return cache.index(of: RGBA(r, g, b, a), in: palette) }
        let d = (RenderTarget.bayer(x, y) - 0.5) * ditherLevels
        func shift(_ v: UInt8) -> UInt8 { UInt8(max(0, min(255, (Double(v) + d).rounded()))) }
        return cache.index(of: RGBA(shift(r), shift(g), shift(b), 255), in: palette)
    }
}
