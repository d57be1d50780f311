import Testing
import WaveAPNG
import WaveKit
import WaveRender

/// The APNG writer's disposal and blend choices on real wave scenes.
@Suite struct APNGDisposalTests {
    /// No frame is both blended over the canvas and disposed to the previous canvas: Pillow 13
    /// restores such a frame to itself (it keeps it, as if it were not disposed), so the frames after
    /// it differ from the spec's on the pixels the next frame leaves unchanged. The scenes are the ones
    /// that used the combination (classic: 9 frames; at 256 × 256 and 64 fps, 128 frames: 12, 13
    /// frames shown differently by Pillow 13); each must still come back exact, and still restore
    /// the previous canvas where that is smaller.
    @Test(arguments: [(128, 50), (256, 64)])
    func noPreviousDisposalAfterOverBlend(size: Int, fps: Int) throws {
        let animation = try smallAnimation("classic", ["fps=\(fps)"], size: size)
        let bytes = try RenderPipeline().write(animation, to: [OutputFormat.apng.writer(for: animation.config)])[0].bytes
        let decoded = try APNGDecoder(bytes)
        let both = decoded.frames.indices.filter { decoded.frames[$0].dispose == 2 && decoded.frames[$0].blend == 1 }
        #expect(both.isEmpty, "frames \(both) are blended over and disposed to previous")
        #expect(decoded.frames.contains { $0.dispose == 2 }, "no frame is disposed to previous any more")
        #expect(decoded.frames.contains { $0.blend == 1 }, "no frame is blended over any more")
        let reference = referenceFrames(animation, .apng).frames
        #expect(decoded.frames.count == reference.count)
        for (n, (frame, want)) in zip(decoded.frames, reference).enumerated() where frame.rgba != want {
            Issue.record("\(size) px, frame \(n) differs from the renderer's")
        }
    }
}
