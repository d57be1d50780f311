import Foundation
import Testing
import WaveKit
import WaveTestSupport
@testable import WaveRender

/// `SizeFit`: the highest-quality file that fits a budget, judged by what a viewer sees.
@Suite struct SizeFitTests {
    static let scene = fitScenePreset

    func loaded(_ scene: String = SizeFitTests.scene) throws -> (WaveConfig, LoopPlan) {
        let scratch = try TemporaryFolder()
        let folder = scratch.url
        let path = folder.appendingPathComponent("scene.json").path
        try scene.write(toFile: path, atomically: false, encoding: .utf8)
        let pipeline = RenderPipeline(threads: 1)
        let config = try pipeline.load(path)
        return (config, try pipeline.plan(config))
    }

    /// Every combination of notches, encoded: the slow, obviously complete search.
    func everyCandidate(_ fit: SizeFit) throws -> [SizeFit.Candidate] {
        var search = SizeFit.Search(fit: fit)
        _ = try search.evaluate(Array(repeating: 0, count: fit.dials.count)) // the reference first
        var all: [SizeFit.Candidate] = []
        func walk(_ prefix: [Int]) throws {
            if prefix.count == fit.dials.count { all.append(try search.evaluate(prefix)); return }
            for n in fit.dials[prefix.count].values.indices { try walk(prefix + [n]) }
        }
        try walk([])
        return all
    }

    @Test(arguments: [OutputFormat.gif, .webp])
    func theChoiceFitsAndIsCloseToTheBestOfEveryCombination(format: OutputFormat) throws {
        let (config, plan) = try loaded()
        let full = SizeFit(config: config, plan: plan, format: format, maxBytes: .max, pipeline: RenderPipeline(threads: 1))
        #expect(full.knobs.contains(.edgeStep) && full.knobs.contains(.frameRate))
        #expect(full.knobs.contains(.webpQuality) == (format == .webp))
        #expect(full.knobs.contains(.gifLossy) == (format == .gif))
        // A GIF's search also runs over gif.colors in place of edgeStep: every combination of both.
        #expect((full.alternative != nil) == (format == .gif))
        #expect(full.alternative.map { $0.knobs.contains(.gifColors) && !$0.knobs.contains(.edgeStep) } ?? true)
        let all = try everyCandidate(full) + (full.alternative.map { try everyCandidate($0).dropFirst() } ?? [])
        let sizes = all.map(\.bytes.count).sorted()
        // Budgets between the smallest and the largest file: each must be met, and by a file whose
        // quality is within 0.25 dB of the best any combination reaches under it. (Without the
        // column search the walk and polish alone ended 0.57 dB under on GIF at budget 967 and
        // 0.87 dB under on WebP at 3 034; with it every budget here gets the best file.)
        let slack = 0.25
        for q in [0.1, 0.35, 0.6, 0.85] {
            let budget = sizes[Int(Double(sizes.count - 1) * q)]
            let result = try SizeFit(config: config, plan: plan, format: format, maxBytes: budget, pipeline: RenderPipeline(threads: 1)).run()
            let chosen = try #require(result.chosen)
            #expect(chosen.bytes.count <= budget)
            let best = all.filter { $0.bytes.count <= budget }.max { $0.psnr < $1.psnr }!
            #expect(chosen.psnr >= min(best.psnr, 99) - slack,
                    "budget \(budget): chose \(chosen.summary) at \(chosen.psnrText), \(chosen.bytes.count) bytes; the best is \(best.summary) at \(best.psnrText), \(best.bytes.count) bytes; tried \(result.tried.map { "\($0.summary) \($0.bytes.count) \($0.psnrText)" })")
            // What it reports is what the file is.
            let shown = try DisplayedFrames.decode(chosen.bytes, format: format)
            let reference = try DisplayedFrames.decode(all[0].bytes, format: format)
            #expect(abs(reference.meanSquaredError(against: shown) - chosen.meanSquaredError) < 1e-9)
            // Deterministic.
            let again = try SizeFit(config: config, plan: plan, format: format, maxBytes: budget, pipeline: RenderPipeline(threads: 2)).run()
            #expect(again.chosen?.bytes == chosen.bytes)
        }
    }

    /// On a loop long enough for a sample, the sampled search against every combination of knobs
    /// and against the search over whole files: its file fits, its reported error is the file's,
    /// and it is within `slack` of the best any combination reaches (the whole-file search's own
    /// guarantee is 0.25 dB; the sample can mislead the search, and the slack says by how much).
    @Test(arguments: [OutputFormat.gif, .webp])
    func theSampledChoiceFitsAndIsCloseToTheBestOfEveryCombination(format: OutputFormat) throws {
        let (config, plan) = try loaded(fitSceneLongPreset)
        #expect(plan.frameCount == 100 && plan.fps == 50)
        let full = SizeFit(config: config, plan: plan, format: format, maxBytes: .max, pipeline: RenderPipeline(threads: 1))
        let rates = try #require(full.dials.first { $0.knob == .frameRate })
        #expect(rates.values == [1, 2, 4, 5])
        #expect(SizeFit.Sample(frameCount: 100, divisors: [1, 2, 4, 5], page: nil)?.starts == [0, 20, 40, 60])
        let all = try everyCandidate(full) + (full.alternative.map { try everyCandidate($0).dropFirst() } ?? [])
        let sizes = all.map(\.bytes.count).sorted()
        let slack = 1.0
        var sampled = 0
        for q in [0.1, 0.35, 0.6, 0.85] {
            let budget = sizes[Int(Double(sizes.count - 1) * q)]
            let fit = SizeFit(config: config, plan: plan, format: format, maxBytes: budget, pipeline: RenderPipeline(threads: 1))
            let result = try fit.run()
            let chosen = try #require(result.chosen)
            #expect(chosen.bytes.count <= budget && chosen.size == chosen.bytes.count)
            let best = all.filter { $0.bytes.count <= budget }.max { $0.psnr < $1.psnr }!
            let whole = try #require(try fit.runWholeFiles().chosen)
            #expect(chosen.psnr >= min(best.psnr, 99) - slack,
                    "budget \(budget): chose \(chosen.summary) at \(chosen.psnrText), \(chosen.bytes.count) bytes; the best is \(best.summary) at \(best.psnrText); whole files chose \(whole.summary) at \(whole.psnrText)")
            // The sample's picks encoded whole: a few files, unless no pick fitted and the search
            // fell back to whole files (then it chose what the whole-file search chooses).
            if result.tried.count < 12 {
                sampled += 1
            } else {
                #expect(chosen.bytes == whole.bytes, "budget \(budget): fell back to whole files (\(result.tried.count)) but chose another file")
            }
            let shown = try DisplayedFrames.decode(chosen.bytes, format: format)
            let reference = try DisplayedFrames.decode(all[0].bytes, format: format)
            #expect(abs(reference.meanSquaredError(against: shown) - chosen.meanSquaredError) < 1e-9)
            // Deterministic, whatever the threads.
            let again = try SizeFit(config: config, plan: plan, format: format, maxBytes: budget, pipeline: RenderPipeline(threads: 2)).run()
            #expect(again.chosen?.bytes == chosen.bytes)
        }
        // Most budgets are met through the sample (on this scene one GIF budget of four falls back).
        #expect(sampled >= 3, "only \(sampled) of 4 budgets were met through the sample")
    }

    /// Where the sample's pick does not fit whole and is picked again before any file fits, the
    /// sample's budget goes under it and the rounds go on: heart's GIF at 14 066 bytes (30 % of its
    /// size) is settled through the sample, a few whole files, with the file the whole-file search
    /// chooses (13 972 bytes, 37.9 dB; before, the search fell back to 208 whole files).
    @Test func aPickPickedAgainWithoutFittingLowersTheSamplesBudget() throws {
        let pipeline = RenderPipeline()
        let config = try pipeline.load("heart")
        let fit = SizeFit(config: config, plan: try pipeline.plan(config), format: .gif, maxBytes: 14_066, pipeline: pipeline)
        let result = try fit.run()
        let chosen = try #require(result.chosen)
        #expect(result.tried.count <= 1 + 2 * SizeFit.sampledRounds + SizeFit.lastLook, "\(result.tried.count) whole files")
        #expect(chosen.bytes.count <= 14_066 && Double(chosen.bytes.count) >= SizeFit.closeEnough * 14_066)
        #expect(chosen.psnr > 37.85, "\(chosen.summary) at \(chosen.psnrText)")
    }

    /// The modelled search (`Search.modelled()`) on a sample against the exhaustive search on the
    /// same sample (every combination of notches measured): its pick fits the sample's budget, it
    /// measures far fewer candidates, and it looks as good as the best that fits at all budgets
    /// but one, and there within `slack`. The slack is measured: at one GIF budget of four the
    /// pick is `edgeStep` 64 with `gif.lossy` 24 (37.81 dB) where `edgeStep` 48 with `gif.lossy`
    /// 32 fits at 38.08 dB. The columns take a file to shrink as either knob turns and let each
    /// column's answer bound its neighbours' (as the column search over whole files does); where
    /// that does not hold on this small scene a column can be passed over.
    @Test(arguments: [OutputFormat.gif, .webp])
    func theModelledPickFitsAndMatchesTheExhaustiveSearchOnTheSample(format: OutputFormat) throws {
        let (config, plan) = try loaded(fitSceneLongPreset)
        let full = SizeFit(config: config, plan: plan, format: format, maxBytes: .max, pipeline: RenderPipeline(threads: 1))
        var sample = try #require(SizeFit.Sample(frameCount: plan.frameCount, divisors: [1, 2, 4, 5], page: nil))
        var whole = SizeFit.Search(fit: full)
        let start = try whole.evaluate(Array(repeating: 0, count: full.dials.count))
        sample.takeReference(try #require(whole.reference))
        let anchor = try sample.measure(config, plan, divisor: 1, format: format, pipeline: full.pipeline)
        sample.anchor = Double(start.size) / Double(anchor.size)
        var every = SizeFit.Search(fit: full, sample: sample)
        let all = try every.evaluate(SizeFit.Search.grid(full.dials.map { $0.values.count }))
        let sizes = all.map(\.size).sorted()
        let slack = 0.3
        var below = 0
        for q in [0.1, 0.35, 0.6, 0.85] {
            let budget = sizes[Int(Double(sizes.count - 1) * q)]
            let best = all.filter { $0.size <= budget }.min(by: SizeFit.Search.better)!
            var search = SizeFit.Search(fit: full, sample: sample)
            search.budget = budget
            let pick = try #require(try search.modelled())
            #expect(pick.size <= budget)
            #expect(search.tried.count * 3 < all.count, "budget \(budget): measured \(search.tried.count) of \(all.count)")
            if pick.psnr < min(best.psnr, 99) { below += 1 }
            #expect(pick.psnr >= min(best.psnr, 99) - slack,
                    "budget \(budget): modelled \(pick.summary) at \(pick.psnr) dB, exhaustive \(best.summary) at \(best.psnr) dB")
        }
        #expect(below <= 1, "\(below) of 4 budgets below the exhaustive search's best")
    }

    /// The sample's model of a file's length, not yet anchored on the preset's own file: the
    /// preset's file and each knob turned all the way, against the true lengths.
    @Test(arguments: [OutputFormat.gif, .webp])
    func theSampleModelsFileLengths(format: OutputFormat) throws {
        let (config, plan) = try loaded(fitSceneLongPreset)
        let fit = SizeFit(config: config, plan: plan, format: format, maxBytes: .max, pipeline: RenderPipeline(threads: 1))
        var sample = try #require(SizeFit.Sample(frameCount: plan.frameCount, divisors: [1, 2, 4, 5], page: nil))
        try sample.measureReference(config, plan, format: format, pipeline: fit.pipeline)
        var search = SizeFit.Search(fit: fit)
        for k in fit.dials.indices {
            for n in [0, fit.dials[k].values.count - 1] {
                var notches = Array(repeating: 0, count: fit.dials.count)
                notches[k] = n
                let whole = try search.evaluate(notches)
                let m = try sample.measure(whole.config, whole.plan, divisor: plan.frameCount / whole.plan.frameCount, format: format, pipeline: fit.pipeline)
                let ratio = Double(m.size) / Double(whole.size)
                #expect(ratio > 0.7 && ratio < 1.3, "\(whole.summary): modelled \(m.size), true \(whole.size)")
            }
        }
        // The image parser accounts for every byte between the header and the trailer.
        let bytes = try RenderPipeline().write(try RenderPipeline().prepare(config, plan: plan), to: [format.writer(for: config)])[0].bytes
        let images = try #require(SizeFit.Sample.imageSizes(bytes, format: format))
        #expect(!images.isEmpty && images.allSatisfy { $0.size > 0 } && images.reduce(0) { $0 + $1.size } < bytes.count)
        #expect(zip(images, images.dropFirst()).allSatisfy { $0.start < $1.start })
    }

    /// A frame rate at which nothing fits costs the modelled search one measure, not one a
    /// column: the plane's smallest corner is measured first, and when it does not fit no column
    /// is searched there (on this small scene the model's products put that corner at 1 579 bytes,
    /// the sample measures 2 802 and more at every full-rate setting).
    @Test func aPlaneWhereNothingFitsCostsOneMeasure() throws {
        let (config, plan) = try loaded(fitSceneLongPreset)
        let full = SizeFit(config: config, plan: plan, format: .gif, maxBytes: .max, pipeline: RenderPipeline(threads: 1))
        let rate = try #require(full.dials.firstIndex { $0.knob == .frameRate })
        var sample = try #require(SizeFit.Sample(frameCount: plan.frameCount, divisors: [1, 2, 4, 5], page: nil))
        var whole = SizeFit.Search(fit: full)
        let start = try whole.evaluate(Array(repeating: 0, count: full.dials.count))
        sample.takeReference(try #require(whole.reference))
        sample.anchor = Double(start.size) / Double(try sample.measure(config, plan, divisor: 1, format: .gif, pipeline: full.pipeline).size)
        // Under every file at the full frame rate, over the smallest at half of it.
        var every = SizeFit.Search(fit: full, sample: sample)
        let all = try every.evaluate(SizeFit.Search.grid(full.dials.map { $0.values.count }))
        let budget = all.filter { $0.notches[rate] == 0 }.map(\.size).min()! - 1
        #expect(all.contains { $0.notches[rate] == 1 && $0.size <= budget })
        var search = SizeFit.Search(fit: full, sample: sample)
        search.budget = budget
        var corner = full.dials.map { $0.values.count - 1 }
        corner[rate] = 0
        let pick = try #require(try search.modelled())
        #expect(pick.size <= budget && pick.notches[rate] > 0)
        let plane = search.tried.filter { $0.notches[rate] == 0 && $0.notches.filter { $0 > 0 }.count >= 2 }
        #expect(plane.map(\.notches) == [corner], "measured at the full frame rate: \(plane.map(\.summary))")
    }

    /// A sample keeps what each setting measured and shares it with the `gif.colors` search:
    /// a measure taken again from that store, under another anchor, equals one taken afresh on a
    /// sample of its own, and the two searches' candidates with the preset's table agree.
    @Test func sharedMeasuresEqualFreshOnes() throws {
        let (config, plan) = try loaded(fitSceneLongPreset)
        let fit = SizeFit(config: config, plan: plan, format: .gif, maxBytes: .max, pipeline: RenderPipeline(threads: 1))
        let other = try #require(fit.alternative)
        func sample() throws -> SizeFit.Sample {
            var s = try #require(SizeFit.Sample(frameCount: plan.frameCount, divisors: [1, 2, 4, 5], page: nil))
            try s.measureReference(config, plan, format: .gif, pipeline: fit.pipeline)
            return s
        }
        var shared = try sample()
        let lossy = try #require(fit.dials.firstIndex { $0.knob == .gifLossy })
        let rate = try #require(fit.dials.firstIndex { $0.knob == .frameRate })
        var choices: [[Int]] = []
        for (l, r) in [(0, 0), (2, 0), (3, 1)] {
            var n = Array(repeating: 0, count: fit.dials.count)
            n[lossy] = l
            n[rate] = r
            choices.append(n)
        }
        func measures(_ s: SizeFit.Sample, _ f: SizeFit) throws -> [SizeFit.Sample.Measure] {
            try choices.map { n in
                let (c, p, _) = f.settings(n)
                return try s.measure(c, p, divisor: plan.frameCount / p.frameCount, format: .gif, pipeline: f.pipeline)
            }
        }
        let first = try measures(shared, fit)
        shared.anchor = 1.25
        var fresh = try sample()
        fresh.anchor = 1.25
        for (a, b) in zip(try measures(shared, fit), try measures(fresh, fit)) {
            #expect(a.size == b.size && a.meanSquaredError == b.meanSquaredError)
        }
        for (a, b) in zip(first, try measures(shared, fit)) {
            #expect(b.size == Int((Double(a.size) * 1.25).rounded()) || abs(Double(b.size) - Double(a.size) * 1.25) <= 1.25)
        }
        // The same settings reached through the `gif.colors` search's dials (notch 0: the preset's table).
        for (a, b) in zip(try measures(shared, fit), try measures(fresh, other)) {
            #expect(a.size == b.size && a.meanSquaredError == b.meanSquaredError)
        }
    }

    /// The fit's whole files draw into palettes every candidate of a scene shares (one discovery
    /// a loop, restepped for each `edgeStep`, and one count a table needs): each is the file
    /// `RenderPipeline.write(_:to:)` makes of its settings, for a plain scene, a transparent one
    /// with matte edges and one with gradients, through both searches' knobs.
    @Test func wholeFilesAreTheRendersOfTheirSettings() throws {
        let plain = fitScenePreset
        let matte = plain.replacingOccurrences(of: "\"#FFFFFF\"", with: "\"transparent\", \"gif\": {\"edges\": \"matte\", \"matte\": \"#FFFFFF\"}")
        let gradient = plain.replacingOccurrences(of: "\"#1E88E5\"", with: "\"linear-gradient(180deg, #E1F5FE, #0288D1)\"")
        // A table of the preset's own, smaller than its shades: every `edgeStep` counts its loop.
        let table = plain.replacingOccurrences(of: "\"level\": 0.5", with: "\"level\": 0.5, \"gif\": {\"colors\": 24}")
        for (name, scene) in [("plain", plain), ("matte", matte), ("gradient", gradient), ("24 colors", table)] {
            let (config, plan) = try loaded(scene)
            let pipeline = RenderPipeline(threads: 2)
            let fit = SizeFit(config: config, plan: plan, format: .gif, maxBytes: .max, pipeline: pipeline)
            var searches = [(fit, [[0, 0, 0], [2, 3, 1], [5, 0, 1], [1, 6, 0]])]
            if let other = fit.alternative { searches.append((other, [[1, 0, 0], [1, 4, 1], [0, 4, 1], [1, 2, 0]])) }
            #expect(fit.alternative != nil || name == "24 colors")
            for (f, batch) in searches {
                #expect(f.dials.count == 3)
                var search = SizeFit.Search(fit: f)
                for c in try search.evaluate(batch) {
                    let expected = try pipeline.write(try pipeline.prepare(c.config, plan: c.plan), to: [OutputFormat.gif.writer(for: c.config)])[0]
                    let same = c.bytes == expected.bytes
                    #expect(same, "\(name): \(c.summary): \(c.bytes.count) bytes, rendered \(expected.bytes.count)")
                    // All the render says of the file, which a fitted render takes from the search
                    // instead of drawing its choice again.
                    let written = try #require(c.reusable(live: false))
                    #expect(written.bytes == expected.bytes && written.timing == expected.timing && written.palette == expected.palette
                            && written.images == expected.images && written.notes == expected.notes, "\(name): \(c.summary)")
                }
            }
        }
    }

    /// A fitted render hands over the file the search chose, encoded whole there, instead of
    /// drawing it again: the same file and facts as a render of the chosen settings.
    @Test(arguments: [OutputFormat.gif, .webp])
    func aFittedRenderIsTheRenderOfItsChoice(format: OutputFormat) throws {
        let (config, plan) = try loaded()
        let loaded = BuildPlan.Loaded(config: config, plan: plan, document: JSONNode(.object([])))
        let plain = try RenderedOutput.render(loaded, format: format, threads: 2)
        let fitted = try RenderedOutput.render(loaded, format: format, fitTo: plain.bytes.count * 3 / 4, threads: 2)
        let chosen = try #require(fitted.fit)
        #expect(!chosen.changes.isEmpty && fitted.bytes.count <= plain.bytes.count * 3 / 4)
        let again = try RenderedOutput.render(BuildPlan.Loaded(config: chosen.config, plan: chosen.plan, document: JSONNode(.object([]))), format: format, threads: 2)
        #expect(fitted.bytes == again.bytes)
        #expect(fitted.frames == again.frames && fitted.fps == again.fps && fitted.paletteSize == again.paletteSize && fitted.warnings == again.warnings)
    }

    /// A choice recorded from an earlier search of the same inputs is encoded beside the preset
    /// and taken when it makes the recorded file; any other record (not reproduced, knobs the
    /// search has not, values off its dials) runs the search, which chooses as without it.
    @Test func aRecordedChoiceIsTakenBackOnlyWhenItMakesTheRecordedFile() throws {
        let (config, plan) = try loaded()
        let pipeline = RenderPipeline(threads: 2)
        let plain = try pipeline.write(try pipeline.prepare(config, plan: plan), to: [OutputFormat.gif.writer(for: config)])[0].bytes
        for budget in [plain.count * 3 / 4, plain.count / 3, plain.count * 2] {
            let fit = SizeFit(config: config, plan: plan, format: .gif, maxBytes: budget, pipeline: pipeline)
            let searched = try fit.run()
            let chosen = try #require(searched.chosen)
            let again = try fit.run(recorded: chosen.turned, accept: { $0 == chosen.bytes })
            #expect(again.chosen?.bytes == chosen.bytes && again.chosen?.psnrText == chosen.psnrText && again.chosen?.changes == chosen.changes)
            #expect(again.tried.count == (chosen.turned.isEmpty ? 1 : 2), "\(budget): \(again.tried.map(\.summary))")
            // Records that do not hold: the search as without them, the same choice.
            var other = chosen.turned
            other[.frameRate] = 7
            for (record, accept) in [(chosen.turned, false), (other, true), ([.webpQuality: 80], true), ([.edgeStep: 5], true)] {
                let r = try fit.run(recorded: record, accept: { _ in accept })
                #expect(r.chosen?.bytes == chosen.bytes, "\(budget): \(record) \(accept)")
                #expect(r.tried.count == searched.tried.count, "\(budget): \(record) \(accept): \(r.tried.count) tried, \(searched.tried.count) searched")
            }
        }
    }

    @Test func aFileThatFitsIsLeftAsItIs() throws {
        let (config, plan) = try loaded()
        let plain = try RenderPipeline().write(try RenderPipeline().prepare(config, plan: plan), to: [OutputFormat.gif.writer(for: config)])[0].bytes
        let result = try SizeFit(config: config, plan: plan, format: .gif, maxBytes: plain.count).run()
        #expect(result.chosen?.bytes == plain)
        #expect(result.chosen?.changes == [])
        #expect(result.tried.count == 1)
    }

    @Test func nothingFitsNamesTheSmallestFileReached() throws {
        let (config, plan) = try loaded()
        let result = try SizeFit(config: config, plan: plan, format: .gif, maxBytes: 100).run()
        #expect(result.chosen == nil)
        #expect(result.smallest.bytes.count == result.tried.map(\.bytes.count).min())
        #expect(result.smallest.changes.contains { $0.hasPrefix("edgeStep 128") })
        let error = SizeFit.nothingFits(result, format: .gif, maxBytes: 100)
        #expect(error.kind == .overBudget)
        #expect(error.description.hasPrefix("nothing fits in 100 bytes: the smallest file reached is \(NumberText.grouped(result.smallest.bytes.count)) bytes, with edgeStep 128, gif.lossy 128 and 10 fps (every 2nd frame); not written"))
    }

    @Test func theFrameRateIsDividedByWholeDivisorsAboveTheFloor() throws {
        let (config, plan) = try loaded()
        #expect(plan.frameCount == 20 && plan.fps == 20)
        let fit = SizeFit(config: config, plan: plan, format: .gif, maxBytes: 1)
        let rates = try #require(fit.dials.first { $0.knob == .frameRate })
        #expect(rates.values == [1, 2]) // 20 fps → 10 fps; 4 would be 5 fps, below the floor
        let (_, halved, changes) = fit.settings(fit.dials.map { $0.knob == .frameRate ? 1 : 0 })
        #expect(halved.frameCount == 10 && halved.fps == 10 && halved.duration == plan.duration)
        #expect(changes == ["10 fps (every 2nd frame)"])
    }

    @Test func vectorFormatsHaveNoKnobs() throws {
        let (config, plan) = try loaded()
        let fit = SizeFit(config: config, plan: plan, format: .svg, maxBytes: 10)
        #expect(fit.knobs.isEmpty)
        let result = try fit.run()
        #expect(result.chosen == nil)
        #expect(SizeFit.nothingFits(result, format: .svg, maxBytes: 10).description.contains("has no quality knobs"))
    }

    /// Frames on a page: each pixel source-over an opaque color, rounded; opaque pixels untouched.
    @Test func framesOnAPage() {
        let a = DisplayedFrames(width: 3, height: 1, frames: [[10, 20, 30, 255, 0, 0, 0, 0, 200, 100, 0, 128]], delays: [0.1])
        let shown = a.shown(on: RGBA(250, 240, 230))
        #expect(shown.frames == [[10, 20, 30, 255, 250, 240, 230, 255, 225, 170, 115, 255]])
        #expect(shown.starts == a.starts && shown.duration == a.duration)
        // In place, over every alpha and channel value, against the formula pixel by pixel.
        var rng = SystemRandomNumberGenerator()
        let frames = (0..<3).map { _ in (0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        var b = DisplayedFrames(width: 32, height: 32, frames: frames, delays: [0.1, 0.1, 0.1])
        let page = RGBA(UInt8.random(in: 0...255), UInt8.random(in: 0...255), UInt8.random(in: 0...255))
        b.show(on: page)
        for (before, after) in zip(frames, b.frames) {
            for i in stride(from: 0, to: before.count, by: 4) {
                let a = Int(before[i + 3]), under: [Int] = [Int(page.r), Int(page.g), Int(page.b)]
                var want: [UInt8] = Array(before[i..<(i + 4)])
                if a < 255 {
                    for c in 0..<3 {
                        let blended: Int = (Int(before[i + c]) * a + under[c] * (255 - a) + 127) / 255
                        want[c] = UInt8(blended)
                    }
                    want[3] = 255
                }
                #expect(Array(after[i..<(i + 4)]) == want)
            }
        }
    }

    /// A GIF whose edges blend against its matte over transparency is judged on the matte page;
    /// an opaque one, or a WebP, as it is.
    @Test func matteGIFsAreJudgedOnTheirPage() throws {
        var (config, _) = try loaded()
        #expect(SizeFit.page(for: config, format: .gif) == nil)
        config.background = .transparent
        #expect(SizeFit.page(for: config, format: .gif) == .white)
        #expect(SizeFit.page(for: config, format: .webp) == nil)
        config.gif.edges = .cut
        #expect(SizeFit.page(for: config, format: .gif) == nil)
    }

    /// The time-weighted error against a slow sampling of both timelines every millisecond.
    @Test func theErrorIsWeightedByTimeOnScreen() {
        func frame(_ v: UInt8, alpha: UInt8 = 255) -> [UInt8] { [v, v, v, alpha, v, 0, 0, alpha] }
        let a = DisplayedFrames(width: 2, height: 1, frames: [frame(0), frame(100), frame(200)], delays: [0.03, 0.05, 0.02])
        let b = DisplayedFrames(width: 2, height: 1, frames: [frame(10, alpha: 128), frame(150)], delays: [0.04, 0.06])
        var slow = 0.0
        for ms in 0..<100 {
            let t = (Double(ms) + 0.5) / 1000
            let fa = a.frames[a.starts.lastIndex { $0 <= t }!], fb = b.frames[b.starts.lastIndex { $0 <= t }!]
            var sum = 0.0
            for p in stride(from: 0, to: 8, by: 4) {
                for c in 0..<4 {
                    let va = c == 3 ? Double(fa[p + 3]) : Double(fa[p + c]) * Double(fa[p + 3]) / 255
                    let vb = c == 3 ? Double(fb[p + 3]) : Double(fb[p + c]) * Double(fb[p + 3]) / 255
                    sum += (va - vb) * (va - vb)
                }
            }
            slow += sum / 8 / 100
        }
        #expect(abs(a.meanSquaredError(against: b) - slow) < 1e-6 * slow)
        #expect(a.meanSquaredError(against: a) == 0)
        #expect(DisplayedFrames.psnr(meanSquaredError: 0) == .infinity)
    }
}
