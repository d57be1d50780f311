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
}
