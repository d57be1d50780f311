import Foundation
import Testing
@testable import WaveKit
import WaveTestSupport

/// The fast paths against their plain forms on random scenes (`randomPreset`: rectangles,
/// rounded boxes, circles and triangles of random size, inset and border, one to five layers,
/// every fill direction): the static coverage (a box's or triangle's straight sides taken from a
/// neighbour) against every pixel measured, the surface samples on SIMD lanes against one column
/// at a time, and, with a rider and a label (a fixed text, or a percentage whose mask changes
/// along the loop), frames drawn with one color cache kept across them (a label's pixels drawn
/// once) against each frame with a fresh cache: bit for bit.
@Suite struct RandomSceneFastPathTests {
    @Test func randomScenesDrawAsThePlainForms() throws {
        var g = SeededGenerator(state: 2026)
        var checked = 0, labelled = 0, straight = 0
        for n in 0..<160 {
            let direction = ["up", "down", "left", "right"][n % 4]
            let json = "{\"direction\": \"\(direction)\", " + randomPreset(&g).dropFirst()
            var (config, plan) = try scene(json)
            let model = WaveModel(config: config, plan: plan)
            if StraightSides(model.waveOutline) != nil { straight += 1 }
            let fast = StaticCoverage(model: model), slow = StaticCoverage(reference: model)
            #expect(fast.water.map(\.bitPattern) == slow.water.map(\.bitPattern)
                    && fast.border.map(\.bitPattern) == slow.border.map(\.bitPattern) && fast.waterSpans == slow.waterSpans,
                    "scene \(n): coverage differs: \(json)")
            for frame in [0, plan.frameCount / 3] {
                let surfaces = model.surfaces(frame: frame, of: plan.frameCount)
                let columns = 0..<model.orientation.width
                let lanes = surfaces.sampleSubcolumns(columns: columns, subsamples: 16)
                let plain = surfaces.referenceSampleSubcolumns(columns: columns, subsamples: 16)
                #expect(lanes.heights.map(\.bitPattern) == plain.heights.map(\.bitPattern) && lanes.minY == plain.minY
                        && lanes.maxY == plain.maxY, "scene \(n) frame \(frame): samples differ")
            }
            checked += 1
            // The test rider rides layer 1.
            guard n % 3 == 0, config.layers.count >= 2 else { continue }
            let (texts, _) = try addTestRiderAndLabel(to: &config, plan: &plan, template: n % 2 == 0 ? "AB" : "{percent}%")
            let label = n % 2 == 1 ? try labelWithAMaskPerText(texts, config, plan, shift: 1).0 : texts
            if n % 6 == 3 { config.gif.lossy = 20 }
            for format in [OutputFormat.gif, .webp] {
                let renderer = FrameRenderer(config: config, plan: plan, format: format, label: label)
                _ = expectKeptCacheDrawsAsFresh(renderer, frames: 10, "scene \(n) \(format): \(json)")
            }
            labelled += 1
        }
        #expect(checked == 160 && labelled > 30 && straight > 100, "\(checked) scenes, \(labelled) labelled, \(straight) with straight sides")
    }
}
