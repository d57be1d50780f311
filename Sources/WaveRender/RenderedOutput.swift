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
    /// When the output was fitted to a size: what the search chose (nil: not fitted).
    public var fit: SizeFit.Candidate?

    /// Renders and encodes `loaded` as `format` in memory; with `fitTo`, the highest-quality file
    /// of at most that many bytes (`SizeFit`), or an error naming the smallest one reached; `live`
    /// writes a live SVG (`SVGLive`). `recordedFit` is what a lock recorded of an earlier fit of the
    /// same inputs: the knobs it turned and the digest of its file (`OutputDigest.file`); that
    /// choice is tried first and taken when it makes that very file (`SizeFit.run(recorded:accept:)`).
    public static func render(_ loaded: BuildPlan.Loaded, format: OutputFormat, live: Bool = false, fitTo: Int? = nil,
                              recordedFit: (knobs: [SizeFit.Knob: Double], file: String)? = nil, threads: Int) throws(WaveError) -> RenderedOutput {
        let start = DispatchTime.now().uptimeNanoseconds
        let pipeline = RenderPipeline(threads: threads)
        var (config, plan) = (loaded.config, loaded.plan)
        var fit: SizeFit.Candidate?
        if let fitTo {
            let result = try SizeFit(config: config, plan: plan, format: format, maxBytes: fitTo, pipeline: pipeline)
                .run(recorded: recordedFit?.knobs, accept: recordedFit.map { r in { OutputDigest.file($0) == r.file } })
            guard let chosen = result.chosen else { throw SizeFit.nothingFits(result, format: format, maxBytes: fitTo) }
            (config, plan, fit) = (chosen.config, chosen.plan, chosen)
        }
        let animation = try pipeline.prepare(config, plan: plan)
        // A fit encoded its choice whole: that file is the render of its settings.
        let result: RenderPipeline.Written
        if let reused = fit?.reusable(live: live) {
            result = reused
        } else {
            result = try pipeline.write(animation, to: [format.writer(for: config, live: live)])[0]
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let frames = result.timing?.frameCount ?? plan.frameCount
        let duration = plan.duration
        return RenderedOutput(bytes: result.bytes, width: config.width, height: config.height,
                              scale: config.scale, frames: frames,
                              fps: duration > 0 ? Double(frames) / duration : plan.fps, duration: duration,
                              paletteSize: result.palette?.colors.count ?? 0, milliseconds: (elapsed * 10).rounded() / 10,
                              warnings: animation.warnings, fit: fit)
    }
}
