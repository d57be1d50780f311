import Testing
import WaveKit
import WaveRender

/// Files of a scene with gradients, decoded as players show them: WebP and APNG exactly the
/// renderer's true-color frames at every time of the loop, the GIF exactly its matched frames.
@Suite struct GradientOutputTests {
    /// The renderer's frames for `format`: straight RGBA (true color), or a GIF's indices expanded.
    func drawn(_ animation: Animation, _ format: OutputFormat) -> [[UInt8]] {
        let renderer = FrameRenderer(config: animation.config, plan: animation.plan, format: format, label: animation.label)
        #expect(renderer.drawsTrueColor == (format != .gif))
        var cache = ColorCache()
        var frame: [UInt8] = [], rgba: [UInt8] = []
        return (0..<renderer.timing.frameCount).map { k -> [UInt8] in
            renderer.render(frame: k, into: &frame, cache: &cache)
            if renderer.drawsTrueColor { return frame }
            renderer.palette.expand(frame, into: &rgba)
            return rgba
        }
    }

    @Test(arguments: [OutputFormat.webp, .apng, .gif])
    func filesShowTheDrawnFrames(_ format: OutputFormat) throws {
        let animation = try smallAnimation("gradient-drop", size: 40)
        let bytes = try RenderPipeline().write(animation, to: [format.writer(for: animation.config)])[0].bytes
        let shown = try DisplayedFrames.decode(bytes, format: format)
        let frames = drawn(animation, format)
        let unit = shown.duration / Double(frames.count)
        for (k, frame) in frames.enumerated() {
            let t = (Double(k) + 0.5) * unit
            let decoded = shown.frames[shown.starts.lastIndex { $0 <= t } ?? 0]
            // A fully transparent pixel's color bytes do not count.
            var same = decoded.count == frame.count
            for p in stride(from: 0, to: min(decoded.count, frame.count), by: 4) where same {
                same = decoded[p + 3] == frame[p + 3] && (frame[p + 3] == 0 || decoded[p..<(p + 3)] == frame[p..<(p + 3)])
            }
            #expect(same, "\(format) frame \(k)")
            if !same { break }
        }
    }
}
