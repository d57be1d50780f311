import Testing
@testable import WaveGIF
import WaveKit
import WaveRender
import WaveTestSupport

/// The GIF encoder codes its frames' LZW itself (`LZWCoder`); giflib's own coder is the plain path.
/// Both must write the same file for the frames of every bundled preset, exact and lossy.
@Suite struct GIFCoderTests {
    @Test(arguments: BundledPresets.sources.keys.sorted(), [0, 16])
    func bundledPresetsCodeAsGiflibDoes(name: String, lossy: Int) throws {
        let pipeline = RenderPipeline()
        let config = try pipeline.load(name, overrides: [try #require(PresetOverride(parsing: "gif.lossy=\(lossy)"))])
        let animation = try pipeline.prepare(config, plan: try pipeline.plan(config))
        let renderer = FrameRenderer(config: animation.config, plan: animation.plan, format: .gif, label: animation.label)
        let fast = try GIFWriter.encoder(renderer, lossy: lossy)
        // The same settings as GIFWriter's, with giflib coding the frames.
        let plain = try GIFEncoder(width: fast.width, height: fast.height,
                                   colors: renderer.palette.colors.map { RGBA8($0.r, $0.g, $0.b, $0.a) },
                                   transparentIndex: fast.transparentIndex, loops: renderer.config.loops, lossy: lossy,
                                   matte: fast.matte, codesItself: false)
        var cache = ColorCache()
        var frame: [UInt8] = [], matte: [UInt8] = []
        for k in 0..<renderer.timing.frameCount {
            renderer.render(frame: k, into: &frame, matte: &matte, cache: &cache)
            let marks = fast.matte == nil || matte.isEmpty ? nil : matte
            try fast.add(frame, delay: renderer.timing.delays[k], matte: marks)
            try plain.add(frame, delay: renderer.timing.delays[k], matte: marks)
        }
        let a = try fast.finish(), b = try plain.finish()
        #expect(a == b, "\(name) lossy \(lossy): \(a.count) against \(b.count) bytes")
    }

    /// Lossy frames are chosen with the bounded renditions coded first (`lossyRendition`); the
    /// reference order, the exact rendition first, must write the same file for every bundled preset.
    @Test(arguments: BundledPresets.sources.keys.sorted(), [8, 48])
    func bundledPresetsChooseAsTheReferenceOrderDoes(name: String, lossy: Int) throws {
        let pipeline = RenderPipeline()
        let config = try pipeline.load(name, overrides: [try #require(PresetOverride(parsing: "gif.lossy=\(lossy)"))])
        let animation = try pipeline.prepare(config, plan: try pipeline.plan(config))
        let renderer = FrameRenderer(config: animation.config, plan: animation.plan, format: .gif, label: animation.label)
        let fast = try GIFWriter.encoder(renderer, lossy: lossy)
        let reference = try GIFWriter.encoder(renderer, lossy: lossy)
        reference.codesExactFirst = true
        var cache = ColorCache()
        var frame: [UInt8] = [], matte: [UInt8] = []
        for k in 0..<renderer.timing.frameCount {
            renderer.render(frame: k, into: &frame, matte: &matte, cache: &cache)
            let marks = fast.matte == nil || matte.isEmpty ? nil : matte
            try fast.add(frame, delay: renderer.timing.delays[k], matte: marks)
            try reference.add(frame, delay: renderer.timing.delays[k], matte: marks)
        }
        let a = try fast.finish(), b = try reference.finish()
        #expect(a == b, "\(name) lossy \(lossy): \(a.count) against \(b.count) bytes")
        #expect(fast.stats == reference.stats)
    }
}
