import WaveAPNG
import WaveKit

/// Animated PNG through `APNGEncoder`: the renderer's palette (with every entry's alpha) as `PLTE` and
/// `tRNS`, straight-alpha frames as drawn for WebP (no matte), the preset's loop count, and delays as
/// exact fractions of a second when the planned frame time is one (else the planned milliseconds).
public final class APNGWriter: AnimationWriter {
    public let frames = FrameRequest.raster(.apng)
    private let effort: Int
    private var encoder: APNGEncoder?
    /// Ticks per frame when delays are exact fractions; nil when they are the planned milliseconds.
    private var exactTicks: Int?
    public private(set) var notes: [String] = []
    public private(set) var images: Int?

    public init(effort: Int = APNGOptions.defaultEffort) {
        self.effort = effort
    }

    public func begin(_ animation: Animation, raster: FrameRenderer?) throws(RenderError) {
        guard let raster else { throw RenderError(.failure, ["APNG: no frames to encode"]) }
        let (encoder, ticks) = try wrap { () throws(APNGError) in try APNGWriter.encoder(raster, effort: effort) }
        self.encoder = encoder
        exactTicks = ticks
    }

    /// The encoder for a renderer's frames (its palette, loop count and timing) and the ticks of one
    /// frame when delays are exact fractions (nil: pass the planned milliseconds).
    public static func encoder(_ raster: FrameRenderer, effort: Int) throws(APNGError) -> (APNGEncoder, Int?) {
        let config = raster.config
        let frameTime = exactFrameTime(duration: raster.plan.duration, frames: raster.timing.frameCount)
        let palette = raster.palette.colors.flatMap { [$0.r, $0.g, $0.b, $0.a] }
        let options = APNGEncoder.Options(effort: effort, loops: config.loops, ticksPerSecond: frameTime?.perSecond ?? 1000)
        return (try APNGEncoder(width: config.width, height: config.height, palette: palette, options: options), frameTime?.ticks)
    }

    public func add(_ frame: RasterFrame) throws(RenderError) {
        guard let encoder else { throw RenderError(.failure, ["APNG: frame before begin"]) }
        try wrap { () throws(APNGError) in try encoder.add(frame.indices, delay: exactTicks ?? frame.delay) }
    }

    public func finish() throws(RenderError) -> [UInt8] {
        guard let encoder else { throw RenderError(.failure, ["APNG: finish before begin"]) }
        let bytes = try wrap { () throws(APNGError) in try encoder.finish() }
        let s = encoder.stats
        images = s.framesWritten
        notes.append("APNG: \(s.framesWritten) images for \(s.framesIn) frames (\(s.framesMerged) merged, \(s.framesKeyed) blended over with unchanged pixels keyed, \(s.framesCleared) cleared and \(s.framesRestored) restored by disposal), \(s.colors) colors at \(s.bitDepth) bits, effort \(effort)")
        return bytes
    }

    /// One frame's time, `duration / frames` seconds, as `ticks / perSecond` with `perSecond` at most
    /// 65535 (what a `fcTL` delay holds); nil when no such fraction is exact.
    static func exactFrameTime(duration: Double, frames: Int) -> (ticks: Int, perSecond: Int)? {
        guard frames > 0, duration > 0 else { return nil }
        let seconds = duration / Double(frames)
        for perSecond in 1...0xFFFF {
            let ticks = (seconds * Double(perSecond)).rounded()
            if ticks >= 1, ticks <= 0xFFFF, abs(ticks / Double(perSecond) - seconds) <= 1e-12 * seconds {
                return (Int(ticks), perSecond)
            }
        }
        return nil
    }

    private func wrap<T>(_ body: () throws(APNGError) -> T) throws(RenderError) -> T {
        do {
            return try body()
        } catch {
            throw RenderError(.failure, [error.description])
        }
    }
}
