import Dispatch
import WavePlatform
import WaveKit

/// Finds the highest-quality file of a raster format that fits a size budget, by turning the
/// preset's own quality knobs, never its size in pixels:
///
/// - `edgeStep`: coarser anti-aliasing ramps, so fewer colours (edges only);
/// - `gif.lossy` (GIF only): the bounded lossy LZW coder's error bound (edges only, flat pixels and
///   transparency stay exact; edges blended against `gif.matte` may show the matte through);
/// - `gif.colors` (GIF only), in a second search in place of `edgeStep`: a smaller color table,
///   the edge shades placed where the pixels fall (flat colors stay exact);
/// - lossy WebP quality (WebP only; libwebp keeps a frame lossless where that is smaller);
/// - the frame rate, divided by a whole divisor of the loop's frame count (so the loop stays
///   exact), down to `minimumFrameRate`.
///
/// Quality is judged the way a viewer sees the file: every candidate is decoded and compared,
/// premultiplied RGBA over the loop's time, with the preset's own full-quality file
/// (`DisplayedFrames.meanSquaredError`); a GIF whose edges blend against its matte over
/// transparency on that matte (`page(for:format:)`). On a loop long enough for a sample of it
/// (`Sample`), the search is modelled (`Search.modelled()`): each knob alone measured on the
/// sample, the mildest lossy notch that fits found per `edgeStep` (or `gif.colors`) notch with the
/// model's guesses, then a short polish; only its picks are encoded whole. Otherwise, and as the
/// slow reference the tests hold it to (`runWholeFiles()`), the search is a greedy rate–distortion
/// descent over whole files: from the preset as it is, each step tries one notch further on every
/// knob and takes the one that loses the least quality per byte saved (measured, not assumed:
/// which knob goes first depends on the scene); once a step's candidates fit, the best-quality one
/// that fits is kept and polished (knobs turned back, on, or traded one for another while the file
/// fits and looks better), and last checked against a column search (`Search.columns(from:)`) for
/// what its one-notch moves miss.
/// Deterministic: the same inputs give the same choice.
public struct SizeFit: Sendable {
    /// The frame rate the search will not go below (or the preset's own, when lower).
    public static let minimumFrameRate = 10.0

    /// How many notches a step looks along one knob for a saving.
    static let lookahead = 2

    /// A knob the search turns.
    public enum Knob: String, Sendable, CaseIterable {
        case edgeStep
        case gifLossy
        case gifColors
        case webpQuality
        case frameRate
    }

    /// One knob and the values it may take, mildest first; notch 0 is the preset's own.
    struct Dial: Sendable {
        var knob: Knob
        var values: [Double]
    }

    /// A choice of every knob, with its file and how it compares with the full-quality file.
    public struct Candidate: Sendable {
        /// Notch of each knob in `knobs` of the search that made it (`alternative.knobs` for the
        /// second search's), 0 = the preset's own.
        public var notches: [Int]
        public var config: WaveConfig
        public var plan: LoopPlan
        /// The whole file as its writer wrote it (bytes, timing, palette, notes): what rendering
        /// `config` and `plan` with `RenderPipeline.write(_:to:)` returns, so the chosen file need not
        /// be rendered again; nil for a candidate measured on a sample of the loop.
        public var written: RenderPipeline.Written?
        /// The file (empty for a candidate measured on a sample).
        public var bytes: [UInt8] { written?.bytes ?? [] }
        /// The file's length in bytes: `bytes.count`, or for a candidate measured on a sample of the
        /// loop (`Sample`, whose `bytes` are empty) the length modelled from it.
        var size: Int
        /// Mean squared error against the full-quality file (premultiplied RGBA, 0…255).
        public var meanSquaredError: Double
        /// The knobs that differ from the preset, as `key value` phrases (empty: the preset as it is).
        public var changes: [String]
        /// The knobs that differ from the preset and their values (the frame rate's as its
        /// divisor): what `run(recorded:accept:)` takes back.
        public var turned: [Knob: Double]
        /// The page the file is judged on: a GIF's `gif.matte` when its edges blend against it over
        /// a transparent background (`SizeFit.page(for:format:)`); nil for judging as it is.
        public var page: RGBA?

        /// The changes as one phrase: "edgeStep 16, lossy WebP quality 80 and 25 fps (every 2nd frame)".
        public var summary: String {
            changes.count < 2 ? changes.first ?? "the preset as it is" : changes.dropLast().joined(separator: ", ") + " and " + changes.last!
        }

        /// The whole file `write(_:to:)` would make of this candidate's settings with the writer
        /// `format.writer(for: config, live: live)`, when the search already encoded it: nil for a
        /// candidate measured on a sample, and for a live SVG (the search writes plain ones).
        public func reusable(live: Bool) -> RenderPipeline.Written? {
            live ? nil : written
        }

        public var psnr: Double { DisplayedFrames.psnr(meanSquaredError: meanSquaredError) }
        /// "59.8 dB", or "exact" when the pixels are those of the full-quality file.
        public var psnrText: String { psnr.isFinite ? NumberText.fixed(psnr, places: 1) + " dB" : "exact" }
    }

    /// What the search found.
    public struct Result: Sendable {
        /// The chosen file, or nil when nothing fits.
        public var chosen: Candidate?
        /// The smallest file the search reached (the chosen one when it fits).
        public var smallest: Candidate
        /// Every candidate encoded, in the order tried.
        public var tried: [Candidate]
    }

    public let format: OutputFormat
    public let maxBytes: Int
    public let pipeline: RenderPipeline
    let config: WaveConfig
    let plan: LoopPlan
    let dials: [Dial]
    /// The scenes' palettes, shared by every candidate, sampled or whole, and by `alternative`.
    let palettes: Palettes

    /// A search for `format` files of `config` at most `maxBytes` long. Vector formats have no
    /// knobs: their only candidate is the file as it is.
    public init(config: WaveConfig, plan: LoopPlan, format: OutputFormat, maxBytes: Int, pipeline: RenderPipeline = RenderPipeline()) {
        self.init(config: config, plan: plan, format: format, maxBytes: maxBytes, pipeline: pipeline,
                  dials: format.isVector ? [] : SizeFit.dials(config: config, plan: plan, format: format))
    }

    init(config: WaveConfig, plan: LoopPlan, format: OutputFormat, maxBytes: Int, pipeline: RenderPipeline, dials: [Dial],
         palettes: Palettes = Palettes()) {
        self.palettes = palettes
        self.config = config
        self.plan = plan
        self.format = format
        self.maxBytes = maxBytes
        self.pipeline = pipeline
        self.dials = dials
    }

    /// The same search over a GIF's other palette knob: `gif.colors` in place of `edgeStep` (a
    /// smaller table with the shades placed where the pixels fall, the preset's own ramps binned),
    /// when the preset leaves room for a smaller table; nil otherwise. `run()` runs it after the
    /// first search has found a file that fits (the preset as it is does not), and keeps the
    /// better file.
    public var alternative: SizeFit? {
        guard format == .gif, let step = dials.firstIndex(where: { $0.knob == .edgeStep }) else { return nil }
        let tables = [128, 96, 64, 48, 32, 24, 16].filter { $0 < config.gif.colors }
        guard !tables.isEmpty else { return nil }
        var other = dials
        other[step] = Dial(knob: .gifColors, values: [Double(config.gif.colors)] + tables.map(Double.init))
        return SizeFit(config: config, plan: plan, format: format, maxBytes: maxBytes, pipeline: pipeline, dials: other, palettes: palettes)
    }

    /// The knobs this search may turn, in the order ties are broken.
    public var knobs: [Knob] { dials.map(\.knob) }

    static func dials(config: WaveConfig, plan: LoopPlan, format: OutputFormat) -> [Dial] {
        var dials: [Dial] = []
        let steps = [4.0, 6, 8, 12, 16, 24, 32, 48, 64, 128].filter { $0 > config.edgeStep && WaveConfig.edgeStepRange.contains($0) }
        if !steps.isEmpty { dials.append(Dial(knob: .edgeStep, values: [config.edgeStep] + steps)) }
        if format == .gif {
            let bounds = [2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128].filter { $0 > config.gif.lossy && $0 <= GIFOptions.maximumLossy }
            if !bounds.isEmpty { dials.append(Dial(knob: .gifLossy, values: [Double(config.gif.lossy)] + bounds.map(Double.init))) }
        }
        if format == .webp {
            let own = config.webp.lossless ? 101 : config.webp.quality
            let qualities = [80.0, 70, 60, 50, 40, 30, 20].filter { $0 < own }
            if !qualities.isEmpty { dials.append(Dial(knob: .webpQuality, values: [own] + qualities)) }
        }
        let floor = min(minimumFrameRate, plan.fps)
        let divisors = (2...max(2, plan.frameCount)).filter { plan.frameCount % $0 == 0 && plan.fps / Double($0) >= floor - 1e-9 }
        if !divisors.isEmpty { dials.append(Dial(knob: .frameRate, values: [1] + divisors.map(Double.init))) }
        return dials
    }

    /// The knobs a choice of notches turns, and their values.
    func turned(_ notches: [Int]) -> [Knob: Double] {
        var out: [Knob: Double] = [:]
        for (dial, notch) in zip(dials, notches) where notch > 0 { out[dial.knob] = dial.values[notch] }
        return out
    }

    /// The config and plan for a choice of notches, and the phrases that describe it.
    func settings(_ notches: [Int]) -> (WaveConfig, LoopPlan, [String]) {
        var config = self.config, plan = self.plan
        var changes: [String] = []
        for (dial, notch) in zip(dials, notches) where notch > 0 {
            let v = dial.values[notch]
            switch dial.knob {
            case .edgeStep:
                config.edgeStep = v
                changes.append("edgeStep \(NumberText.decimal(v, places: 2))")
            case .gifLossy:
                config.gif.lossy = Int(v)
                changes.append("gif.lossy \(Int(v))")
            case .gifColors:
                config.gif.colors = Int(v)
                changes.append("gif.colors \(Int(v))")
            case .webpQuality:
                config.webp.lossless = false
                config.webp.quality = v
                changes.append("lossy WebP quality \(NumberText.decimal(v, places: 0))")
            case .frameRate:
                let d = Int(v)
                plan.frameCount /= d
                plan.fps /= v
                changes.append("\(NumberText.decimal(plan.fps, places: 2)) fps (every \(SizeFit.ordinal(d)) frame)")
            }
        }
        return (config, plan, changes)
    }

    static func ordinal(_ n: Int) -> String {
        let suffix = (11...13).contains(n % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][n % 10] ?? "th"
        return "\(n)\(suffix)"
    }

    /// The error for a search where nothing fits: the smallest file reached and how.
    public static func nothingFits(_ result: Result, format: OutputFormat, maxBytes: Int) -> WaveError {
        let s = result.smallest
        let how = format.isVector ? "the \(format.name) is \(NumberText.grouped(s.bytes.count)) bytes and has no quality knobs to turn"
            : "the smallest file reached is \(NumberText.grouped(s.bytes.count)) bytes, with \(s.summary)"
        return WaveError(.overBudget, ["nothing fits in \(NumberText.grouped(maxBytes)) bytes: \(how); not written"])
    }

    /// The page a file of `config` in `format` is judged on: a GIF whose partly covered pixels
    /// over a transparent (or partly transparent) background blend against `gif.matte` is made
    /// for that page, and its lossy coder may show the page through those edges.
    public static func page(for config: WaveConfig, format: OutputFormat) -> RGBA? {
        format == .gif && config.gif.edges == .matte && config.background.a < 255 ? config.gif.matte : nil
    }

    /// What was chosen, for a status line: `fits 40,000 bytes with edgeStep 16: 29,985 bytes,
    /// 59.8 dB PSNR against the full-quality file`.
    public static func describe(_ c: Candidate, maxBytes: Int) -> String {
        guard !c.changes.isEmpty else { return "fits \(NumberText.grouped(maxBytes)) bytes as it is (\(NumberText.grouped(c.bytes.count)) bytes)" }
        let page = c.page.map { " on its \($0) matte" } ?? ""
        let quality = c.psnr.isFinite ? c.psnrText + " PSNR against the full-quality file" + page : "the same pixels as the full-quality file"
        return "fits \(NumberText.grouped(maxBytes)) bytes with \(c.summary): \(NumberText.grouped(c.bytes.count)) bytes, \(quality)"
    }

    /// Runs the search. The preset as it is is encoded whole first: when it fits, that settles it.
    /// Otherwise the modelled search (`Search.modelled()`) runs on a sample of the loop (`Sample`:
    /// a few short windows, about a tenth of the frames, their reference taken from the preset's
    /// whole file), and for a GIF `alternative`'s beside it (each knob alone measured first, one
    /// search after the other, then the two searches side by side), and the pick is encoded whole; the
    /// sample's budget then follows what the whole file measured, until a pick fits with little to
    /// spare or is picked again (at most `sampledRounds` whole files; twice as many once a pick
    /// whose file does not fit is picked again before any fits, the budget then going under it,
    /// and then only a file close to the budget is taken). Where the loop is too short for a sample, or no
    /// pick fits, the search runs over whole files (`runWholeFiles()`), which first encodes every
    /// knob turned all the way: when that does not fit, nothing does. What is returned is always a
    /// whole file, measured.
    ///
    /// With `recorded`, the knobs a search over the same inputs chose before (`Candidate.turned`,
    /// as `wavegen.lock` keeps them), that choice is encoded whole first, beside the preset as it
    /// is (its reference): when it fits and `accept` takes its bytes (the lock's digest of the file
    /// that search wrote), it is the result, as that search is deterministic; otherwise the search
    /// runs as without it, the preset's file already encoded.
    public func run(recorded: [Knob: Double]? = nil, accept: (([UInt8]) -> Bool)? = nil) throws(WaveError) -> Result {
        var search = Search(fit: self)
        let zero = Array(repeating: 0, count: dials.count)
        if let recorded, let accept, let (owner, notches) = locate(recorded) {
            var replay = Search(fit: owner)
            let picked = try replay.evaluate([zero, notches])
            if replay.fits(picked[1]), accept(picked[1].bytes) {
                return Result(chosen: picked[1], smallest: picked[1], tried: replay.tried)
            }
            // Not reproduced: the search from the preset's file, which is the same for every owner.
            search.known[zero] = picked[0]
            search.reference = replay.reference
            search.tried = [picked[0]]
        }
        // The preset as it is fits: settled. Every knob turned all the way is encoded only when
        // the sample finds nothing that fits (`opening()` in the search over whole files).
        let start = try search.evaluate(zero)
        if search.fits(start) { return Result(chosen: start, smallest: start, tried: search.tried) }
        if !dials.isEmpty, let sampled = try sampled(search) { return sampled }
        return try wholeFiles(search)
    }

    /// The search (this one or `alternative`) whose dials hold every recorded knob at one of
    /// its values, and the notches that choose them; nil when none does (a lock from another
    /// build of the knobs, or edited by hand).
    func locate(_ recorded: [Knob: Double]) -> (SizeFit, [Int])? {
        for f in [self] + (alternative.map { [$0] } ?? []) {
            guard recorded.keys.allSatisfy({ k in f.dials.contains { $0.knob == k } }) else { continue }
            var notches: [Int] = []
            for dial in f.dials {
                guard let v = recorded[dial.knob] else { notches.append(0); continue }
                guard let n = dial.values.firstIndex(of: v), n > 0 else { break }
                notches.append(n)
            }
            if notches.count == f.dials.count { return (f, notches) }
        }
        return nil
    }

    /// The search over whole files alone, every candidate encoded and decoded: slow, and the
    /// reference the sampled search is tested against.
    public func runWholeFiles() throws(WaveError) -> Result {
        var search = Search(fit: self)
        if let settled = try search.opening() { return settled }
        return try wholeFiles(search)
    }

    /// How many picks of the sampled search are encoded whole at most (twice as many once a pick
    /// whose file does not fit is picked again before any fits).
    static let sampledRounds = 4

    /// The last look's reach over the sample's last budget, and how many files it encodes whole.
    static let nearBudget = 1.03
    static let lastLook = 2

    /// A pick whose whole file is at least this fraction of the budget ends the sampled search.
    static let closeEnough = 0.97

    /// The sampled search, after `opening()` on whole files; nil when there is no sample or no
    /// pick fits.
    func sampled(_ opened: Search) throws(WaveError) -> Result? {
        let rates = dials.first { $0.knob == .frameRate }?.values.map { Int($0) } ?? [1]
        guard plan.timing(for: format).frameCount == plan.frameCount,
              var sample = Sample(frameCount: plan.frameCount, divisors: rates, page: SizeFit.page(for: config, format: format), palettes: palettes)
        else { return nil }
        let zero = Array(repeating: 0, count: dials.count)
        guard let start = opened.known[zero] else { return nil }
        guard let reference = opened.reference else { return nil }
        sample.takeReference(reference)
        sample.anchor = Double(start.size) / Double(try sample.measure(config, plan, divisor: 1, format: format, pipeline: pipeline).size)
        let fits = [self] + (alternative.map { [$0] } ?? [])
        var sampled = fits.map { Search(fit: $0, sample: sample) }
        var whole = fits.map { f in
            var s = Search(fit: f)
            s.reference = opened.reference
            s.known[zero] = start
            return s
        }
        whole[0] = opened
        var budget = Double(maxBytes)
        var best: Candidate?, bestPick: Candidate?
        // The probes (each knob alone) first, one search after the other: the `gif.colors`
        // search meets the first one's probes of the other knobs in the sample's shared measures.
        for i in sampled.indices { _ = try sampled[i].evaluate(sampled[i].probes) }
        // Once a pick whose file does not fit is picked again before any fits, the rounds may go
        // on to twice as many.
        var round = 0, extended = false
        while round < SizeFit.sampledRounds * (extended ? 2 : 1) {
            round += 1
            // Then the searches side by side, each measuring its batches concurrently too: what
            // each measures depends only on its own measures, so the picks are the same as one
            // after the other.
            for i in sampled.indices { sampled[i].budget = Int(budget) }
            let searches = sampled
            let outcomes = Search.Slots<(Search, Candidate?)>(count: searches.count)
            let work: @Sendable (Int) -> Void = { i in
                var s = searches[i]
                outcomes.set(i, Swift.Result { () throws(WaveError) -> (Search, Candidate?) in
                    let c = try s.modelled()
                    return (s, c)
                })
            }
            Concurrently.perform(searches.count, work)
            var pick: (Int, Candidate)?
            for (i, outcome) in outcomes.values.enumerated() {
                let (s, c) = try outcome!.get()
                sampled[i] = s
                if let c, pick.map({ Search.better(c, $0.1) }) ?? true { pick = (i, c) }
            }
            guard let (i, p) = pick else { break }
            let known = whole[i].known[p.notches] != nil
            let file = try whole[i].evaluate(p.notches)
            let fitsWhole = file.size <= maxBytes
            if fitsWhole, best.map({ Search.better(file, $0) }) ?? true { (best, bestPick) = (file, p) }
            // A pick picked again ends the rounds (the last look below takes over), unless its file
            // does not fit and none has yet.
            if fitsWhole && (known || Double(file.size) >= SizeFit.closeEnough * Double(maxBytes)) { break }
            if known && best != nil { break }
            // The sample's budget follows the miss: a little under what it should have been, and
            // under the measure of a pick picked again whose file does not fit.
            budget *= Double(maxBytes) / Double(file.size) * (fitsWhole ? 1 : 0.99)
            if known {
                budget = min(budget, Double(p.size) - 1)
                extended = true
            }
        }
        guard var best, let bestPick else { return nil }
        // A last look, two whole files at once: the sampled candidates that looked better than the
        // pick behind the choice and that the sample put within a little of its budget.
        let near = Int(budget * SizeFit.nearBudget)
        var shortlist: [(Int, Candidate)] = []
        for (i, s) in sampled.enumerated() {
            for c in s.known.values where c.size <= near && c.meanSquaredError < bestPick.meanSquaredError && whole[i].known[c.notches] == nil {
                shortlist.append((i, c))
            }
        }
        shortlist.sort { Search.better($0.1, $1.1) }
        for i in whole.indices {
            let batch = shortlist.prefix(SizeFit.lastLook).filter { $0.0 == i }.map(\.1.notches)
            for file in try whole[i].evaluate(batch) where file.size <= maxBytes && Search.better(file, best) { best = file }
        }
        // Rounds that went on past a pick picked again without fitting found a file, but one with
        // room to spare says the sample misjudges this scene near the budget: search whole files.
        if extended && Double(best.size) < SizeFit.closeEnough * Double(maxBytes) { return nil }
        let tried = whole[0].tried + whole.dropFirst().flatMap { $0.tried }
        let smallest = tried.min { $0.size != $1.size ? $0.size < $1.size : Search.better($0, $1) }!
        return Result(chosen: best, smallest: smallest, tried: tried)
    }

    /// The search over whole files after `opening()`, with `alternative` beside it on its own thread
    /// for a GIF; the better file is kept.
    func wholeFiles(_ opened: Search) throws(WaveError) -> Result {
        var search = opened
        guard let other = alternative else { return try search.run() }
        let outcomes = Search.Slots<Result>(count: 2)
        let first = search
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            var s = i == 0 ? first : Search(fit: other)
            outcomes.set(i, Swift.Result { () throws(WaveError) -> Result in try s.run() })
        }
        let result = try outcomes.values[0]!.get(), alternative = try outcomes.values[1]!.get()
        guard let chosen = result.chosen else { return result }
        let tried = result.tried + alternative.tried.dropFirst()
        let smallest = alternative.smallest.size < result.smallest.size ? alternative.smallest : result.smallest
        guard let c = alternative.chosen, Search.better(c, chosen) else { return Result(chosen: chosen, smallest: smallest, tried: tried) }
        return Result(chosen: c, smallest: smallest, tried: tried)
    }

    /// The search's state: every candidate encoded so far, by notches.
    struct Search {
        let fit: SizeFit
        /// The length a file must not exceed (`fit.maxBytes`, or for a search on a sample the
        /// budget its predictions are held to).
        var budget: Int
        /// When set, candidates are measured on this sample of the loop, not encoded whole.
        var sample: Sample?
        var reference: DisplayedFrames?
        var known: [[Int]: Candidate] = [:]
        var tried: [Candidate] = []

        init(fit: SizeFit, sample: Sample? = nil) {
            self.fit = fit
            self.budget = fit.maxBytes
            self.sample = sample
        }

        mutating func evaluate(_ notches: [Int]) throws(WaveError) -> Candidate {
            try evaluate([notches])[0]
        }

        /// Encodes and measures every choice not known yet, two or more at once when the machine
        /// has the cores (each is independent; the order they are recorded in stays the given one).
        mutating func evaluate(_ batch: [[Int]]) throws(WaveError) -> [Candidate] {
            var fresh: [[Int]] = []
            for n in batch where known[n] == nil && !fresh.contains(n) { fresh.append(n) }
            if let sample {
                for (notches, outcome) in zip(fresh, Search.measure(fresh, fit: fit, sample: sample)) {
                    let (config, plan, changes, measure) = try outcome.get()
                    let c = Candidate(notches: notches, config: config, plan: plan, written: nil, size: measure.size,
                                      meanSquaredError: measure.meanSquaredError, changes: changes, turned: fit.turned(notches), page: sample.page)
                    known[notches] = c
                    tried.append(c)
                }
                return batch.map { known[$0]! }
            }
            let encoded = Search.encode(fresh, fit: fit)
            for (notches, outcome) in zip(fresh, encoded) {
                let (config, plan, changes, written, shown, page) = try outcome.get()
                var mse = 0.0
                if let shown {
                    if let reference { mse = reference.meanSquaredError(against: shown) } else { reference = shown }
                }
                let c = Candidate(notches: notches, config: config, plan: plan, written: written, size: written.bytes.count,
                                  meanSquaredError: mse, changes: changes, turned: fit.turned(notches), page: page)
                known[notches] = c
                tried.append(c)
            }
            return batch.map { known[$0]! }
        }

        typealias Encoded = (WaveConfig, LoopPlan, [String], RenderPipeline.Written, DisplayedFrames?, RGBA?)

        /// The file of each choice, decoded (raster formats) and put on its page, computed concurrently.
        static func encode(_ batch: [[Int]], fit: SizeFit) -> [Swift.Result<Encoded, WaveError>] {
            let results = Slots<Encoded>(count: batch.count)
            let work: @Sendable (Int) -> Void = { i in
                results.set(i, Swift.Result { () throws(WaveError) -> Encoded in
                    let (config, plan, changes) = fit.settings(batch[i])
                    let animation = try fit.pipeline.prepare(config, plan: plan)
                    let writer = fit.format.writer(for: config)
                    // Files encoded side by side leave the cores to each other.
                    if batch.count > 1 { (writer as? GIFWriter)?.onTheCores = false }
                    // Drawn into the palette every candidate of the scene shares: the same frames
                    // `RenderPipeline.write(_:to:)` draws (`SizeFitTests.wholeFilesAreTheRendersOfTheirSettings`).
                    let written = fit.format.isVector ? try fit.pipeline.write(animation, to: [writer])[0]
                        : try fit.pipeline.write(animation, drawnBy: FrameRenderer(palette: fit.palettes.plan(animation, format: fit.format, keepingFrames: true)),
                                                 to: writer)
                    var shown = fit.format.isVector ? nil : try DisplayedFrames.decode(written.bytes, format: fit.format)
                    // A GIF with matte edges is made for its matte page, and judged on it.
                    let page = SizeFit.page(for: config, format: fit.format)
                    if let page { shown?.show(on: page) }
                    return (config, plan, changes, written, shown, page)
                })
            }
            Concurrently.perform(batch.count, work)
            return results.values.map { $0! }
        }

        /// Each choice measured on `sample`, computed concurrently.
        static func measure(_ batch: [[Int]], fit: SizeFit, sample: Sample) -> [Swift.Result<(WaveConfig, LoopPlan, [String], Sample.Measure), WaveError>] {
            let results = Slots<(WaveConfig, LoopPlan, [String], Sample.Measure)>(count: batch.count)
            let work: @Sendable (Int) -> Void = { i in
                results.set(i, Swift.Result { () throws(WaveError) -> (WaveConfig, LoopPlan, [String], Sample.Measure) in
                    let (config, plan, changes) = fit.settings(batch[i])
                    let m = try sample.measure(config, plan, divisor: fit.plan.frameCount / plan.frameCount, format: fit.format, pipeline: fit.pipeline)
                    return (config, plan, changes, m)
                })
            }
            Concurrently.perform(batch.count, work)
            return results.values.map { $0! }
        }

        /// Outcomes filled from several threads.
        typealias Slots<Value> = SharedSlots<Swift.Result<Value, WaveError>>

        func fits(_ c: Candidate) -> Bool { c.size <= budget }

        /// Better quality first; ties go to the smaller file, then to the earlier notches.
        static func better(_ a: Candidate, _ b: Candidate) -> Bool {
            if a.meanSquaredError != b.meanSquaredError { return a.meanSquaredError < b.meanSquaredError }
            if a.size != b.size { return a.size < b.size }
            return a.notches.lexicographicallyPrecedes(b.notches)
        }

        /// The preset as it is and every knob turned all the way: the result when those two settle
        /// it (the first fits, or the second does not: say so at once), else nil.
        mutating func opening() throws(WaveError) -> Result? {
            let start = try evaluate(Array(repeating: 0, count: fit.dials.count))
            if fits(start) { return Result(chosen: start, smallest: start, tried: tried) }
            guard fits(try evaluate(fit.dials.map { $0.values.count - 1 })) else { return failure() }
            return nil
        }

        mutating func run() throws(WaveError) -> Result {
            if let settled = try opening() { return settled }
            // Both known now: evaluated again from `known`.
            let start = try evaluate(Array(repeating: 0, count: fit.dials.count))
            let last = fit.dials.map { $0.values.count - 1 }
            let extreme = try evaluate(last)

            // The frame rate is a coarse knob with few notches and a large cost in quality: each of
            // its notches gets a walk of its own over the fine knobs, mildest first, skipped when
            // its starting point already looks worse than a file that fits.
            var best: Candidate?
            let rate = fit.dials.firstIndex { $0.knob == .frameRate }
            for r in 0...(rate.map { last[$0] } ?? 0) {
                var origin = start.notches
                if let rate { origin[rate] = r }
                let from = try evaluate(origin)
                if let b = best, from.meanSquaredError >= b.meanSquaredError { continue }
                try walk(from: from, fixed: rate, last: last, best: &best)
            }
            let chosen = best ?? extreme
            var polished = try polish(chosen)
            // The column search at the chosen frame rate and at each milder one that could still
            // do better: its preset-as-is file looks better than the choice, and its coarsest
            // corner fits.
            var columned: Candidate?
            for r in 0...(rate.map { polished.notches[$0] } ?? 0) {
                var origin = start.notches
                if let rate { origin[rate] = r }
                if let rate, r < polished.notches[rate] {
                    guard try evaluate(origin).meanSquaredError < polished.meanSquaredError else { continue }
                    var corner = last
                    corner[rate] = r
                    guard fits(try evaluate(corner)) else { continue }
                }
                let toBeat = columned.map { Search.better($0, polished) ? $0 : polished } ?? polished
                if let c = try columns(from: origin, toBeat: toBeat), columned.map({ Search.better(c, $0) }) ?? true { columned = c }
            }
            if let c = columned, Search.better(c, polished) { polished = try polish(c) }
            return Result(chosen: polished, smallest: chosen, tried: tried)
        }

        /// The walk moves one notch at a time and can stop short where several notches write the
        /// same file (a plateau), or where a far notch of one knob pairs with a mild one of another:
        /// on classic's GIF at ½ the walk stopped at `edgeStep` 32 with `gif.lossy` 24 (50.3 dB),
        /// where `edgeStep` 64 with `gif.lossy` 2 fits at 51.4 dB; on orb's at ¾ it stopped at
        /// `edgeStep` 16 with `gif.lossy` 12 (49.1 dB), where `edgeStep` 128 with `gif.lossy` 8
        /// fits at 50.8 dB. So, at the frame rate of `base`, for every `edgeStep` notch: the mildest
        /// notch of the lossy knob (`gif.lossy`, lossy WebP quality) that fits, found by bisection,
        /// all columns a round at a time. The file shrinks as either knob turns (nearly always), so
        /// each answer bounds its neighbours': where a coarser column does not fit, no milder one
        /// does at that notch, and where a milder column fits, every coarser one does. Returns the
        /// best file that fits, or nil when the knobs are not there or no column can beat `toBeat`.
        mutating func columns(from base: [Int], toBeat: Candidate) throws(WaveError) -> Candidate? {
            guard let step = fit.dials.firstIndex(where: { $0.knob == .edgeStep || $0.knob == .gifColors }),
                  let lossy = fit.dials.firstIndex(where: { $0.knob == .gifLossy || $0.knob == .webpQuality }) else { return nil }
            let columns = fit.dials[step].values.count, end = fit.dials[lossy].values.count
            // Per column, the lossy notches still open: `low` and below do not fit, `high` fits
            // (`end`: none is known to).
            var bounds = Array(repeating: (low: 0, high: end), count: columns)
            func notches(_ column: Int, _ n: Int) -> [Int] {
                var notches = base
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
            /// Whether `c` is in this search's plane: `base` but for the two knobs.
            func inPlane(_ c: Candidate) -> Bool {
                c.notches.indices.allSatisfy { $0 == step || $0 == lossy || c.notches[$0] == base[$0] }
            }
            // What the walk and the polish already encoded at this frame rate comes free.
            for c in known.values where inPlane(c) { learn(c.notches[step], c.notches[lossy], fits: fits(c)) }
            // A column whose file does not fit at some notch, and already looks no better there
            // than `toBeat`, can only look worse where it fits: closed.
            var closed = Set<Int>()
            while true {
                for c in known.values where inPlane(c) && !fits(c) && c.meanSquaredError >= toBeat.meanSquaredError {
                    closed.insert(c.notches[step])
                }
                for j in bounds.indices where bounds[j].low > bounds[j].high || closed.contains(j) { bounds[j].low = bounds[j].high }
                let open = bounds.indices.filter { bounds[$0].low < bounds[$0].high }
                guard !open.isEmpty else { break }
                let middles = open.map { ($0, (bounds[$0].low + bounds[$0].high) / 2) }
                let measured = try evaluate(middles.map { notches($0.0, $0.1) })
                for ((column, middle), c) in zip(middles, measured) { learn(column, middle, fits: fits(c)) }
            }
            var best: Candidate?
            for (column, b) in bounds.enumerated() where b.high < end && !closed.contains(column) {
                let c = try evaluate(notches(column, b.high))
                if fits(c), best.map({ Search.better(c, $0) }) ?? true { best = c }
            }
            return best
        }

        /// Walks from `from`, each step the move of a knob (other than `fixed`) that loses the least
        /// quality per byte saved, until the walk itself fits; keeps in `best` the best-quality
        /// fitting file seen on the way (a step may fit early by a costly move).
        mutating func walk(from: Candidate, fixed: Int?, last: [Int], best: inout Candidate?) throws(WaveError) {
            var current = from
            var spent = Set<Int>()
            if let fixed { spent.insert(fixed) }
            var thorough = false
            if fits(current) {
                if best.map({ Search.better(current, $0) }) ?? true { best = current }
                return
            }
            while !fits(current) {
                var moves: [Candidate] = []
                let open = fit.dials.indices.filter { current.notches[$0] < last[$0] && !spent.contains($0) }
                _ = try evaluate(open.map { k in var n = current.notches; n[k] += 1; return n })
                for k in open {
                    // One notch further, or a second when the first saves nothing; a knob that
                    // saves nothing two notches on is left alone (libwebp keeps a frame lossless
                    // where lossy is larger: on transparent scenes lossy WebP quality rarely saves
                    // a byte, and each try costs a whole encode) until the walk runs out of moves.
                    var n = current.notches
                    var saved = false
                    for _ in 0..<(thorough ? last[k] : SizeFit.lookahead) where n[k] < last[k] && !saved {
                        n[k] += 1
                        let c = try evaluate(n)
                        if c.size < current.size { moves.append(c); saved = true }
                    }
                    if !saved { spent.insert(k) }
                }
                for c in moves where fits(c) && (best.map { Search.better(c, $0) } ?? true) { best = c }
                func cost(_ c: Candidate) -> Double {
                    max(0, c.meanSquaredError - current.meanSquaredError) / Double(current.size - c.size)
                }
                guard let step = moves.min(by: { a, b in
                    let (ca, cb) = (cost(a), cost(b))
                    return ca != cb ? ca < cb : Search.better(a, b)
                }) else {
                    // Out of moves: once, look along the knobs left alone all the way to their ends.
                    if thorough || spent.subtracting(fixed.map { [$0] } ?? []).isEmpty { return }
                    spent = fixed.map { [$0] } ?? []
                    thorough = true
                    continue
                }
                current = step
                // Further steps only lose quality: stop once the walk is worse than a fitting file.
                if let b = best, !fits(current), current.meanSquaredError >= b.meanSquaredError { return }
            }
        }

        /// The polish's moves around `notches`: each knob a notch on, a notch back, one back and
        /// another on (a trade the greedy walk cannot see), or two back (after a large last step both
        /// can often come back together). A notch on can look better too: the knobs interact.
        func polishMoves(around notches: [Int]) -> [[Int]] {
            let last = fit.dials.map { $0.values.count - 1 }
            var moves: [[Int]] = []
            for k in fit.dials.indices where notches[k] < last[k] {
                var n = notches
                n[k] += 1
                moves.append(n)
            }
            for k in fit.dials.indices where notches[k] > 0 {
                var n = notches
                n[k] -= 1
                moves.append(n)
                for j in fit.dials.indices where j != k && n[j] < last[j] {
                    var traded = n
                    traded[j] += 1
                    moves.append(traded)
                }
                for j in fit.dials.indices where j > k && n[j] > 0 {
                    var both = n
                    both[j] -= 1
                    moves.append(both)
                }
            }
            return moves
        }

        /// Polishes a fitting candidate: a knob a notch back or on, one back and another on (a
        /// trade the greedy walk cannot see), or two back, the best such move each time, while the file still
        /// fits and looks better. Ends: each move is strictly better in `Search.better`'s order.
        mutating func polish(_ chosen: Candidate) throws(WaveError) -> Candidate {
            var best = chosen
            var improved = true
            while improved {
                improved = false
                var options: [Candidate] = []
                let moves = polishMoves(around: best.notches)
                for c in try evaluate(moves) where fits(c) && Search.better(c, best) { options.append(c) }
                if let c = options.min(by: Search.better) {
                    best = c
                    improved = true
                }
            }
            return best
        }

        func failure() -> Result {
            let smallest = tried.min { a, b in
                a.size != b.size ? a.size < b.size : Search.better(a, b)
            }!
            return Result(chosen: nil, smallest: smallest, tried: tried)
        }
    }
}
