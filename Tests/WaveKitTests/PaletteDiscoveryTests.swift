import Testing
import WaveTestSupport
@testable import WaveKit

/// A discovery retargeted to another format (`PaletteDiscovery.retargeted(to:)`: the regions,
/// edges and overlay colors reused, the palette built again) against a fresh discovery of that
/// format: the same palette, lookups and timing, and the same frames drawn into it.
@Suite struct PaletteDiscoveryTests {
    static func scenes() throws -> [(String, WaveConfig, LoopPlan, LabelTexts?)] {
        let loader = PresetLoader(imageDecoder: { _ throws(ImageProblem) in testRiderImage() })
        var out: [(String, WaveConfig, LoopPlan, LabelTexts?)] = []
        for name in BundledPresets.sources.keys.sorted() {
            var config = try loader.load(name)
            config.label = nil
            out.append((name, config, try LoopPlanner.plan(config), nil))
            // A table smaller than the shades: the GIF's palette is refitted from the loop's usage.
            guard ["classic", "heart"].contains(name) else { continue }
            config.gif.colors = 24
            out.append((name + " at 24 colors", config, try LoopPlanner.plan(config), nil))
        }
        for (name, json) in directionScenes {
            let (config, plan, label) = try directionScene(name, json)
            out.append((name, config, plan, label))
        }
        return out
    }

    /// The palette's walk in runs (`PaletteDiscovery.walk` over parts of the loop, taken in
    /// order with what was met before dropped) meets the same layer sets and pairs in the same
    /// order as one walk over the whole loop, wherever the loop is cut; and the walk finds at least
    /// the background's set on every scene.
    @Test func walkInRunsMeetsWhatOneWalkMeets() throws {
        for (name, config, plan, label) in try PaletteDiscoveryTests.scenes() {
            let scene = SceneRaster(config: config, plan: plan, label: label)
            let count = plan.timing(for: .gif).frameCount
            let whole = PaletteDiscovery.walk(scene, frames: 0..<count, of: count)
            #expect(!whole.isEmpty, "\(name)")
            for cuts in [[count / 2], [1, count / 3, count - 1], Array(stride(from: 7, to: count, by: 7))] {
                let bounds = [0] + cuts.filter { $0 > 0 && $0 < count } + [count]
                var seen = Set<Int>(), joined: [Int] = []
                for r in 0..<(bounds.count - 1) {
                    for e in PaletteDiscovery.walk(scene, frames: bounds[r]..<bounds[r + 1], of: count) where seen.insert(e).inserted {
                        joined.append(e)
                    }
                }
                #expect(joined == whole, "\(name), cut at \(cuts)")
            }
        }
    }

    @Test func retargetedEqualsAFreshDiscovery() throws {
        let formats: [OutputFormat] = [.gif, .webp, .apng]
        for (name, config, plan, label) in try PaletteDiscoveryTests.scenes() {
            let fresh = formats.map { PaletteDiscovery(config: config, plan: plan, format: $0, label: label) }
            // A refitted GIF table's pixel counts, counted once (equal palettes count alike).
            let usage = fresh[0].needsUsage(colors: config.gif.colors) ? fresh[0].usage() : nil
            for (s, source) in formats.enumerated() {
                for (f, format) in formats.enumerated() where format != source {
                    let moved = fresh[s].retargeted(to: format), fresh = fresh[f]
                    let what = "\(name): \(source) → \(format)"
                    #expect(moved.format == format && moved.timing == fresh.timing, "\(what)")
                    #expect(moved.palette == fresh.palette && moved.flatLookup == fresh.flatLookup, "\(what)")
                    #expect(moved.backgroundIndex == fresh.backgroundIndex && (moved.gradient == nil) == (fresh.gradient == nil), "\(what)")
                    // A GIF with gradients counts the whole loop's colors for its table: not drawn here
                    // (its discovery, compared above, is all the table is made from).
                    if config.hasGradient && format == .gif { continue }
                    let a = FrameRenderer(palette: PalettePlan(moved, config: config, usage: usage))
                    let b = FrameRenderer(palette: PalettePlan(fresh, config: config, usage: usage))
                    #expect(a.palette == b.palette, "\(what)")
                    var cache = ColorCache(), matte: [UInt8] = []
                    for k in [a.timing.frameCount / 2] {
                        var x: [UInt8] = [], y: [UInt8] = []
                        a.render(frame: k, into: &x, matte: &matte, cache: &cache)
                        b.render(frame: k, into: &y, matte: &matte, cache: &cache)
                        #expect(x == y, "\(what): frame \(k)")
                    }
                }
            }
        }
    }

    /// `restepped(to:)` (the regions, edges, overlay colors and a gradient scene's true-color
    /// raster reused, the ramps built again) against a fresh discovery with that `edgeStep`: the
    /// same palette, lookups and layout, the same table counted, and the same frames drawn.
    @Test func resteppedEqualsAFreshDiscovery() throws {
        for (name, config, plan, label) in try PaletteDiscoveryTests.scenes() {
            for format in [OutputFormat.gif, .webp] {
                let from = PaletteDiscovery(config: config, plan: plan, format: format, label: label)
                for step in [4.0, 16, 128] where step != config.edgeStep {
                    var stepped = config
                    stepped.edgeStep = step
                    let moved = from.restepped(to: step)
                    let fresh = PaletteDiscovery(config: stepped, plan: plan, format: format, label: label)
                    let what = "\(name) \(format): edgeStep \(config.edgeStep) → \(step)"
                    #expect(moved.config == fresh.config && moved.timing == fresh.timing, "\(what)")
                    #expect(moved.palette == fresh.palette && moved.flatLookup == fresh.flatLookup, "\(what)")
                    #expect(moved.backgroundIndex == fresh.backgroundIndex && (moved.gradient == nil) == (fresh.gradient == nil), "\(what)")
                    let usage = fresh.needsUsage(colors: stepped.gif.colors) ? fresh.usage() : nil
                    #expect(usage == nil || moved.usage() == usage, "\(what)")
                    // A GIF with gradients counts its loop's colors (the moved one on the raster it shares).
                    let a = FrameRenderer(palette: PalettePlan(moved, config: stepped, usage: usage, keepingFrames: false))
                    let b = FrameRenderer(palette: PalettePlan(fresh, config: stepped, usage: usage, keepingFrames: false))
                    #expect(a.palette == b.palette, "\(what)")
                    var cache = ColorCache(), matte: [UInt8] = []
                    for k in [0, a.timing.frameCount / 2] {
                        var x: [UInt8] = [], y: [UInt8] = []
                        a.render(frame: k, into: &x, matte: &matte, cache: &cache)
                        b.render(frame: k, into: &y, matte: &matte, cache: &cache)
                        #expect(x == y, "\(what): frame \(k)")
                    }
                }
            }
        }
    }
}

/// The nearest-entry searches over premultiplied entries taken once (the scan, and the search
/// outward by channel sum that `ColorCache` runs on a miss) against `Palette.nearestIndex(to:)`,
/// which premultiplies every entry on each call.
@Suite struct NearestEntryTests {
    @Test func theSearchOverTakenEntriesFindsTheSameEntry() throws {
        var compared = 0, exact = 0
        for (name, config, plan, _) in try PaletteDiscoveryTests.scenes() where !name.contains("colors") {
            for format in [OutputFormat.gif, .webp] {
                let palette = PaletteDiscovery(config: config, plan: plan, format: format).palette
                let entries = palette.premultipliedEntries, sorted = Palette.SortedEntries(entries)
                var state: UInt64 = 0x9E37_79B9_7F4A_7C15
                func next() -> UInt8 {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return UInt8(truncatingIfNeeded: state >> 56)
                }
                // Random colors, and the entries themselves (an exact match; ties go to the first).
                // Midpoints of entries, where two entries are often equally near.
                let pc = palette.colors
                let midpoints = pc.indices.dropFirst().flatMap { i -> [RGBA] in
                    let a = pc[i - 1], b = pc[(i * 7) % pc.count]
                    func mid(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8((Int(x) + Int(y)) / 2) }
                    return [RGBA(mid(a.r, pc[i].r), mid(a.g, pc[i].g), mid(a.b, pc[i].b), mid(a.a, pc[i].a)),
                            RGBA(mid(a.r, b.r), mid(a.g, b.g), mid(a.b, b.b), mid(a.a, b.a))]
                }
                let colors = (0..<600).map { _ in RGBA(next(), next(), next(), [0, 255, next()][Int(next() % 3)]) } + palette.colors + midpoints
                for c in colors {
                    let fast = Palette.nearestIndex(to: c, entries: entries), slow = palette.nearestIndex(to: c)
                    let pruned = Palette.nearestIndex(to: c, in: sorted)
                    #expect(fast == slow, "\(name) \(format): \(c) → \(fast) vs \(slow)")
                    #expect(pruned == slow, "\(name) \(format): \(c) → \(pruned) (by channel sum) vs \(slow)")
                    compared += 1
                    if palette.colors[slow] == c { exact += 1 }
                }
            }
        }
        #expect(compared > 10_000 && exact > 100)
    }

    /// An entry exactly on the search's bound (its channel sum 4k from the query's, each channel k
    /// off, as near as the best found) is still looked at, and wins the tie by its lower index.
    @Test func anEntryOnTheBoundStillWinsItsTie() {
        let query = RGBA(0, 0, 0, 254)  // premultiplied (0, 0, 0, 254)
        let entries: [SIMD4<Int32>] = [SIMD4(1, 1, 1, 255), SIMD4(2, 0, 0, 254), SIMD4(9, 9, 9, 200)]
        #expect(Palette.nearestIndex(to: query, entries: entries) == 0)
        #expect(Palette.nearestIndex(to: query, in: Palette.SortedEntries(entries)) == 0)
    }
}
