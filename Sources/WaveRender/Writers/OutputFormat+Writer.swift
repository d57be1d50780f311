import WaveKit

extension OutputFormat {
    /// A new writer of this format for `config`'s settings.
    public func writer(for config: WaveConfig) -> any AnimationWriter {
        switch self {
        case .gif: return GIFWriter(lossy: config.gif.lossy)
        case .webp: return WebPWriter(options: WebPWriter.options(config))
        case .apng: return APNGWriter(effort: config.apng.effort)
        case .svg: return SVGWriter()
        case .lottie: return LottieWriter()
        case .dotlottie: return DotLottieWriter()
        }
    }
}
