import WaveGIF
import WaveKit

/// Animated GIF through `GIFEncoder`: the renderer's palette as the color table (ordered by use),
/// its transparent index, the preset's loop count, delays in centiseconds, and `gif.lossy`'s bound.
public final class GIFWriter: AnimationWriter {
    public let frames = FrameRequest.raster(.gif)
    /// The lossy LZW error bound (`gif.lossy`; 0: exact).
    public let lossy: Int
    private var encoder: GIFEncoder?
    private var colorCount = 0
    public private(set) var notes: [String] = []
    public private(set) var images: Int?

    /// Whether each frame is coded once rather than as the shortest of three (`GIFEncoder.draft`).
    public let draft: Bool

    /// Whether the encoder codes held frames on the cores (`GIFEncoder.onTheCores`).
    public var onTheCores = true

    public init(lossy: Int = 0, draft: Bool = false) {
        self.lossy = lossy
        self.draft = draft
    }

    public func begin(_ animation: Animation, raster: FrameRenderer?) throws(WaveError) {
        guard let raster else { throw WaveError(.failure, ["GIF: no frames to encode"]) }
        encoder = try wrap { () throws(GIFError) in try GIFWriter.encoder(raster, lossy: lossy) }
        encoder?.draft = draft
        encoder?.onTheCores = onTheCores
        colorCount = raster.palette.colors.count
    }

    public func add(_ frame: RasterFrame) throws(WaveError) {
        guard let encoder else { throw WaveError(.failure, ["GIF: frame before begin"]) }
        let matte = encoder.matte == nil || frame.matte.isEmpty ? nil : frame.matte
        try wrap { () throws(GIFError) in try encoder.add(frame.indices, delay: frame.delay, matte: matte) }
    }

    public func finish() throws(WaveError) -> [UInt8] {
        guard let encoder else { throw WaveError(.failure, ["GIF: finish before begin"]) }
        let bytes = try wrap { () throws(GIFError) in try encoder.finish() }
        let s = encoder.stats
        images = s.framesWritten
        notes.append("GIF: \(s.framesWritten) images for \(s.framesIn) frames (\(s.framesMerged) merged, \(s.framesWithKey) with unchanged pixels keyed, \(s.framesCleared) cleared by disposal), \(colorCount) colors")
        if lossy > 0 {
            let matte = encoder.matte == nil ? "" : " (\(s.pixelsShowingMatte) of them edges left transparent, showing the matte)"
            notes.append("GIF: lossy \(lossy): \(s.pixelsApproximated) pixels shown within \(lossy) levels of their color\(matte), the rest exact")
        }
        return bytes
    }

    /// The encoder for a renderer's frames: its palette, transparency and loop count, the color
    /// table ordered by use, and the lossy bound (0: exact). A lossy encoder of frames whose edges
    /// are blended against `gif.matte` judges those edges on the matte (`GIFEncoder.init`).
    public static func encoder(_ raster: FrameRenderer, lossy: Int = 0) throws(GIFError) -> GIFEncoder {
        let config = raster.config, palette = raster.palette
        let m = config.gif.matte
        return try GIFEncoder(width: config.width, height: config.height,
                              colors: palette.colors.map { RGBA8($0.r, $0.g, $0.b, $0.a) },
                              transparentIndex: palette.transparentIndex, loops: config.loops, lossy: lossy,
                              matte: lossy > 0 && raster.marksMatte ? RGBA8(m.r, m.g, m.b) : nil)
    }

    private func wrap<T>(_ body: () throws(GIFError) -> T) throws(WaveError) -> T {
        do {
            return try body()
        } catch {
            throw WaveError(.failure, [error.description])
        }
    }
}
