import WaveKit

extension OutputFormat {
    /// A new writer of this format for `config`'s settings; `live` asks for an SVG whose level the
    /// page sets (only SVG has that form).
    public func writer(for config: WaveConfig, live: Bool = false) -> any AnimationWriter {
        switch self {
        case .gif: return GIFWriter(lossy: config.gif.lossy)
        case .webp: return WebPWriter(options: WebPWriter.options(config))
        case .apng: return APNGWriter(effort: config.apng.effort)
        case .svg: return SVGWriter(live: live)
        case .lottie: return LottieWriter()
        case .dotlottie: return DotLottieWriter()
        }
    }
}
