import Dispatch
import WaveKit

/// What rendering one output produced.
public struct RenderedOutput: Sendable {
    public var bytes: [UInt8]
    public var width: Int
    public var height: Int
    /// Output pixels per preset pixel (the image is meant to be shown at width / scale).
    public var scale: Double
    public var frames: Int
    public var fps: Double
    public var duration: Double
    public var paletteSize: Int
    public var milliseconds: Double
    /// What the preset should know (a label that does not fit), one line each.
    public var warnings: [String]

    /// Renders and encodes `loaded` as `format` in memory.
    public static func render(_ loaded: BuildPlan.Loaded, format: OutputFormat, threads: Int) throws(RenderError) -> RenderedOutput {
        let start = DispatchTime.now().uptimeNanoseconds
        let pipeline = RenderPipeline(threads: threads)
        let animation = try pipeline.prepare(loaded.config, plan: loaded.plan)
        let result = try pipeline.write(animation, to: [format.writer(for: loaded.config)])[0]
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let frames = result.timing?.frameCount ?? loaded.plan.frameCount
        let duration = loaded.plan.duration
        return RenderedOutput(bytes: result.bytes, width: loaded.config.width, height: loaded.config.height,
                              scale: loaded.config.scale, frames: frames,
                              fps: duration > 0 ? Double(frames) / duration : loaded.plan.fps, duration: duration,
                              paletteSize: result.palette?.colors.count ?? 0, milliseconds: (elapsed * 10).rounded() / 10,
                              warnings: animation.warnings)
    }
}
