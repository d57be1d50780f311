import Testing
@testable import WaveGIF
import WaveKit
import WaveRender
import WaveTestSupport

/// The frames of bundled preset `name` at `gif.lossy` `lossy` fed to wavegen's encoder (as
/// `GIFWriter` sets it up) and to `twin`, made from it; both files, and the two encoders.
private func encodeBoth(_ name: String, lossy: Int, twin: (GIFEncoder, FrameRenderer) throws -> GIFEncoder) throws
    -> (fast: GIFEncoder, twin: GIFEncoder, a: [UInt8], b: [UInt8]) {
    let pipeline = RenderPipeline()
    let config = try pipeline.load(name, overrides: [try #require(PresetOverride(parsing: "gif.lossy=\(lossy)"))])
    let animation = try pipeline.prepare(config, plan: try pipeline.plan(config))
    let renderer = FrameRenderer(config: animation.config, plan: animation.plan, format: .gif, label: animation.label)
    let fast = try GIFWriter.encoder(renderer, lossy: lossy)
    let other = try twin(fast, renderer)
    var cache = ColorCache()
    var frame: [UInt8] = [], matte: [UInt8] = []
    for k in 0..<renderer.timing.frameCount {
        renderer.render(frame: k, into: &frame, matte: &matte, cache: &cache)
        let marks = fast.matte == nil || matte.isEmpty ? nil : matte
        try fast.add(frame, delay: renderer.timing.delays[k], matte: marks)
        try other.add(frame, delay: renderer.timing.delays[k], matte: marks)
    }
    return (fast, other, try fast.finish(), try other.finish())
}

/// The GIF encoder codes its frames' LZW itself (`LZWCoder`); giflib's own coder is the plain path.
/// Both must write the same file for the frames of every bundled preset, exact and lossy.
@Suite struct GIFCoderTests {
    @Test(arguments: BundledPresets.sources.keys.sorted(), [0, 16])
    func bundledPresetsCodeAsGiflibDoes(name: String, lossy: Int) throws {
        let (_, _, a, b) = try encodeBoth(name, lossy: lossy) { fast, renderer in
            // The same settings as GIFWriter's, with giflib coding the frames.
            try GIFEncoder(width: fast.width, height: fast.height,
                           colors: renderer.palette.colors.map { RGBA8($0.r, $0.g, $0.b, $0.a) },
                           transparentIndex: fast.transparentIndex, loops: renderer.config.loops, lossy: lossy,
                           matte: fast.matte, codesItself: false)
        }
        #expect(a == b, "\(name) lossy \(lossy): \(a.count) against \(b.count) bytes")
    }

    /// Lossy frames are chosen with the bounded renditions coded first (`lossyRendition`); the
    /// reference order, the exact rendition first, must write the same file for every bundled preset.
    @Test(arguments: BundledPresets.sources.keys.sorted(), [8, 48])
    func bundledPresetsChooseAsTheReferenceOrderDoes(name: String, lossy: Int) throws {
        let (fast, reference, a, b) = try encodeBoth(name, lossy: lossy) { _, renderer in
            let reference = try GIFWriter.encoder(renderer, lossy: lossy)
            reference.codesExactFirst = true
            return reference
        }
        #expect(a == b, "\(name) lossy \(lossy): \(a.count) against \(b.count) bytes")
        #expect(fast.stats == reference.stats)
    }

    /// A draft (one exact rendition a frame) shows every bundled preset's frames as the final
    /// file does, for as long, and is never smaller.
    @Test(arguments: BundledPresets.sources.keys.sorted())
    func draftsShowTheSameFrames(name: String) throws {
        let (_, _, final, draft) = try encodeBoth(name, lossy: 0) { _, renderer in
            let draft = try GIFWriter.encoder(renderer)
            draft.draft = true
            return draft
        }
        let a = try GIFDecoder.decode(final), b = try GIFDecoder.decode(draft)
        #expect(a.frames == b.frames && a.delays == b.delays && a.loops == b.loops, "\(name)")
        #expect(draft.count >= final.count, "\(name): draft \(draft.count) against \(final.count) bytes")
    }
}
