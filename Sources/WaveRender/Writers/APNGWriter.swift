import WaveAPNG
import WaveKit

/// Animated PNG through `APNGEncoder`: the renderer's palette (with every entry's alpha) as `PLTE` and
/// `tRNS`, straight-alpha frames as drawn for WebP (no matte), the preset's loop count, and the
/// planned delays in milliseconds (rounded so that every frame starts within half a millisecond of
/// its time). Not exact fractions such as 1/30 s: browsers truncate a delay to whole milliseconds
/// (Chromium shows 1/30 s as 33 ms), so a 30 fps loop would run 1 % fast.
public final class APNGWriter: AnimationWriter {
    public let frames = FrameRequest.raster(.apng)
    private let effort: Int
    private var encoder: APNGEncoder?
    /// The encoder of a scene with gradients, whose frames come in true color.
    private var trueColor: TrueColorAPNGEncoder?
    public private(set) var notes: [String] = []
    public private(set) var images: Int?

    public init(effort: Int = APNGOptions.defaultEffort) {
        self.effort = effort
    }

    public func begin(_ animation: Animation, raster: FrameRenderer?) throws(WaveError) {
        guard let raster else { throw WaveError(.failure, ["APNG: no frames to encode"]) }
        if raster.drawsTrueColor {
            let config = raster.config
            trueColor = try wrap { () throws(APNGError) in
                try TrueColorAPNGEncoder(width: config.width, height: config.height,
                                         options: APNGEncoder.Options(effort: effort, loops: config.loops, ticksPerSecond: 1000))
            }
            return
        }
        encoder = try wrap { () throws(APNGError) in try APNGWriter.encoder(raster, effort: effort) }
    }

    /// The encoder for a renderer's frames: its palette, loop count and millisecond delays.
    public static func encoder(_ raster: FrameRenderer, effort: Int) throws(APNGError) -> APNGEncoder {
        let config = raster.config
        let palette = raster.palette.colors.flatMap { [$0.r, $0.g, $0.b, $0.a] }
        let options = APNGEncoder.Options(effort: effort, loops: config.loops, ticksPerSecond: 1000)
        return try APNGEncoder(width: config.width, height: config.height, palette: palette, options: options)
    }

    public func add(_ frame: RasterFrame) throws(WaveError) {
        if let trueColor {
            try wrap { () throws(APNGError) in try trueColor.add(rgba: frame.rgba, delay: frame.delay) }
            return
        }
        guard let encoder else { throw WaveError(.failure, ["APNG: frame before begin"]) }
        try wrap { () throws(APNGError) in try encoder.add(frame.indices, delay: frame.delay) }
    }

    public func finish() throws(WaveError) -> [UInt8] {
        if let trueColor {
            let bytes = try wrap { () throws(APNGError) in try trueColor.finish() }
            let s = trueColor.stats
            images = s.framesWritten
            notes.append("APNG: \(s.framesWritten) true-color images for \(s.framesIn) frames (\(s.framesMerged) merged), effort \(effort)")
            return bytes
        }
        guard let encoder else { throw WaveError(.failure, ["APNG: finish before begin"]) }
        let bytes = try wrap { () throws(APNGError) in try encoder.finish() }
        let s = encoder.stats
        images = s.framesWritten
        notes.append("APNG: \(s.framesWritten) images for \(s.framesIn) frames (\(s.framesMerged) merged, \(s.framesKeyed) blended over with unchanged pixels keyed, \(s.framesCleared) cleared and \(s.framesRestored) restored by disposal), \(s.colors) colors at \(s.bitDepth) bits, effort \(effort)")
        return bytes
    }

    private func wrap<T>(_ body: () throws(APNGError) -> T) throws(WaveError) -> T {
        do {
            return try body()
        } catch {
            throw WaveError(.failure, [error.description])
        }
    }
}
