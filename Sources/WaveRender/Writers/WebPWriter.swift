import WaveKit
import WaveWebP

/// Animated WebP through libwebp's `WebPAnimEncoder`: straight-alpha RGBA frames, delays in
/// milliseconds, lossless or lossy as the preset says.
public final class WebPWriter: AnimationWriter {
    public let frames = FrameRequest.raster(.webp)
    public let options: WebPAnimationEncoder.Options
    private var encoder: WebPAnimationEncoder?
    public private(set) var images: Int?

    public init(options: WebPAnimationEncoder.Options) {
        self.options = options
    }

    /// The encoder settings a config asks for.
    public static func options(_ config: WaveConfig) -> WebPAnimationEncoder.Options {
        WebPAnimationEncoder.Options(lossless: config.webp.lossless, quality: Float(config.webp.quality),
                                     effort: config.webp.effort, loops: config.loops)
    }

    public func begin(_ animation: Animation, raster: FrameRenderer?) throws(WaveError) {
        encoder = try wrap { () throws(WebPError) in
            try WebPAnimationEncoder(width: animation.config.width, height: animation.config.height, options: options)
        }
    }

    public func add(_ frame: RasterFrame) throws(WaveError) {
        guard let encoder else { throw WaveError(.failure, ["WebP: frame before begin"]) }
        try wrap { () throws(WebPError) in try encoder.add(rgba: frame.rgba, duration: frame.delay) }
    }

    public func finish() throws(WaveError) -> [UInt8] {
        guard let encoder else { throw WaveError(.failure, ["WebP: finish before begin"]) }
        let bytes = try wrap { () throws(WebPError) in try encoder.finish() }
        // libwebp merges identical frames into one longer frame: say how many images it wrote.
        images = try wrap { () throws(WebPError) in try WebPAnimationDecoder.frameCount(bytes) }
        return bytes
    }

    private func wrap<T>(_ body: () throws(WebPError) -> T) throws(WaveError) -> T {
        do {
            return try body()
        } catch {
            throw WaveError(.failure, [error.description])
        }
    }
}
