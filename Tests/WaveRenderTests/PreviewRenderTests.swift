import Testing
import WaveKit
import Foundation
import WaveRender
import WaveGIF

/// The live preview's renders (`PreviewRender`: frames drawn once, shared by the formats that can)
/// against the reference (`RenderedOutput.render`, one format at a time): every final file the
/// same bytes, for every bundled preset and every format the page shows, and for its dark twin.
@Suite struct PreviewRenderTests {
    static let formats = OutputFormat.allCases.filter { $0.mimeType.hasPrefix("image/") }
    static let cases: [(String, OutputFormat)] = BundledPresets.sources.keys.sorted().flatMap { name in formats.map { (name, $0) } }

    /// Loads a bundled preset as the session does (with `--theme dark`'s overrides for `dark`).
    static func loaded(_ name: String, sets: [String] = []) throws -> BuildPlan.Loaded {
        let overrides = try sets.map { try #require(PresetOverride(parsing: $0)) }
        let (config, document) = try PresetLoader.standard.loadDocument(name, overrides: overrides)
        return BuildPlan.Loaded(config: config, plan: try LoopPlanner.plan(config), document: document)
    }

    /// Everything `PreviewRender.render` delivers for `formats`, by format: drafts and finals.
    static func deliveries(_ loaded: BuildPlan.Loaded, _ formats: [OutputFormat], drafts: Bool = true) -> [(format: OutputFormat, draft: Bool, result: Result<RenderedOutput, WaveError>)] {
        let lock = NSLock()
        nonisolated(unsafe) var got: [(format: OutputFormat, draft: Bool, result: Result<RenderedOutput, WaveError>)] = []
        PreviewRender.render(loaded, formats: formats, live: false, drafts: drafts) { d in
            lock.withLock { got.append((formats[d.index], d.draft, d.result)) }
        }
        return lock.withLock { got }
    }

    /// Each preset's deliveries, made once for the cases of all its formats.
    static let cache = NSLock()
    nonisolated(unsafe) static var made: [String: [(format: OutputFormat, draft: Bool, result: Result<RenderedOutput, WaveError>)]] = [:]

    static func delivered(_ name: String, _ loaded: BuildPlan.Loaded) -> [(format: OutputFormat, draft: Bool, result: Result<RenderedOutput, WaveError>)] {
        if let hit = cache.withLock({ made[name] }) { return hit }
        let got = deliveries(loaded, formats)
        cache.withLock { made[name] = got }
        return got
    }

    @Test(arguments: cases)
    func finalFilesAreTheReferenceBytes(_ name: String, _ format: OutputFormat) throws {
        let loaded = try Self.loaded(name)
        let got = Self.delivered(name, loaded)
        let finals = got.filter { $0.format == format && !$0.draft }
        try #require(finals.count == 1, "\(name) \(format): \(finals.count) final files")
        let final = try finals[0].result.get()
        let reference = try RenderedOutput.render(loaded, format: format, threads: 1)
        #expect(final.bytes == reference.bytes, "\(name) \(format) differs from RenderedOutput.render")
        #expect(final.frames == reference.frames && final.paletteSize == reference.paletteSize && final.fps == reference.fps)
        #expect(final.width == reference.width && final.height == reference.height && final.warnings == reference.warnings)
        // A draft comes only for a slow loop's lossless WebP, APNG and exact GIF on the shared
        // frames (an opaque scene without gradients), and before its final.
        let drafts = got.filter { $0.format == format && $0.draft }
        let slow = loaded.config.width * loaded.config.height * loaded.plan.frameCount >= PreviewRender.draftPixels
        let sharesFrames = !loaded.config.hasGradient && loaded.config.background.a == 255
        let drafted = format == .apng || (format == .webp && loaded.config.webp.lossless) || (format == .gif && loaded.config.gif.lossy == 0 && sharesFrames)
        #expect(drafts.count == (slow && drafted ? 1 : 0), "\(name) \(format)")
        if let draft = drafts.first {
            let index = { (draft: Bool) in got.firstIndex { $0.format == format && $0.draft == draft }! }
            #expect(index(true) < index(false), "the draft comes first")
            #expect(try draft.result.get().frames == reference.frames)
            if format == .gif {
                // The draft GIF shows the final's very frames, for as long, in more bytes.
                let a = try GIFDecoder.decode(try draft.result.get().bytes), b = try GIFDecoder.decode(final.bytes)
                #expect(a.frames == b.frames && a.delays == b.delays && a.loops == b.loops, "\(name): the draft GIF's frames")
                #expect(try draft.result.get().bytes.count > final.bytes.count)
            }
        }
    }

    /// Other coder settings (a lossy WebP, a lossy GIF, a smaller GIF table, an opaque orb) come
    /// out as the reference makes them too.
    @Test(arguments: [("boat", ["webp.lossless=false"]), ("classic", ["gif.lossy=40"]), ("classic", ["gif.colors=32"]),
                      ("orb", ["background=\"#0B1622\"", "gif.lossy=40"])])
    func settingsThatChangeTheFramesOrTheirCoder(_ name: String, _ sets: [String]) throws {
        do {
            let loaded = try Self.loaded(name, sets: sets)
            let got = Self.deliveries(loaded, Self.formats)
            // A lossy WebP gets no draft (its effort shapes its pixels); boat's APNG and GIF still do.
            if name == "boat" { #expect(Set(got.filter(\.draft).map(\.format)) == [.apng, .gif]) }
            for d in got where !d.draft {
                let reference = try RenderedOutput.render(loaded, format: d.format, threads: 1)
                #expect(try d.result.get().bytes == reference.bytes, "\(name) \(sets) \(d.format)")
            }
        }
    }

    /// Without drafts, only finals.
    @Test func draftsOnlyWhereAskedAndLossless() throws {
        let boat = try Self.loaded("boat")
        #expect(Self.deliveries(boat, Self.formats, drafts: false).allSatisfy { !$0.draft })
    }
}
