/// The palette a scene's frames are drawn into, decided before any frame is drawn: the discovered
/// palette (`PaletteDiscovery`), or for a GIF whose `gif.colors` leaves fewer entries than its
/// shades need, the shades chosen again where the loop's pixels fall (`PaletteBuilder.refit`),
/// or for a scene with gradients the table its loop's colors choose (`GradientPalette`).
/// `FrameRenderer(palette:)` draws into it.
public struct PalettePlan: Sendable {
    public let discovery: PaletteDiscovery
    /// The configuration the frames are drawn for: the discovery's, but for the coders' settings
    /// (`gif.colors`, `gif.lossy`, `webp`, `apng`).
    public let config: WaveConfig
    /// The palette the frames are drawn into.
    public let palette: Palette
    /// For a GIF of a scene with gradients, the table its colors are matched to.
    let gradientPalette: GradientPalette?

    /// Discovers the palette of `config`'s scene and fits it to `gif.colors`: `usage`, when
    /// given, is `PaletteDiscovery.usage()` of the same scene, counted before (a caller that asks
    /// for several tables of one scene counts it once); without it the loop is counted here when
    /// the table needs it.
    public init(config: WaveConfig, plan: LoopPlan, format: OutputFormat, label: LabelTexts? = nil, usage: [Int]? = nil) {
        self.init(PaletteDiscovery(config: config, plan: plan, format: format, label: label), config: config, usage: usage)
    }

    /// The palette of `discovery`'s scene for `config`, which may differ from the discovery's only
    /// in the coders' settings (`gif.colors`, `gif.lossy`, `webp`, `apng`: the knobs a size fit turns
    /// besides `edgeStep` and the frame rate); `usage` as in `init(config:plan:format:label:usage:)`.
    ///
    /// For a GIF of a scene with gradients the loop's frames are drawn to count its colors; with
    /// `keepingFrames` a small loop's are kept for the frames drawn next, each handed over once
    /// (off for a caller that draws only a few of them).
    public init(_ discovery: PaletteDiscovery, config: WaveConfig, usage: [Int]? = nil, keepingFrames: Bool = true) {
        precondition(PalettePlan.sameScene(discovery.config, config), "a palette plan's configuration differs from its discovery's beyond the coders' settings")
        self.discovery = discovery
        self.config = config
        var palette = discovery.palette
        var gradientPalette: GradientPalette?
        if let raster = discovery.gradient, case .gif = discovery.target {
            let table = GradientPalette(counts: raster.colorCounts(frames: discovery.timing.frameCount, keeping: keepingFrames), colors: config.gif.colors,
                                        dither: config.gif.dither)
            gradientPalette = table
            palette = table.palette
        } else if discovery.needsUsage(colors: config.gif.colors) {
            // Fewer entries than the shades need: count where the loop's pixels fall on the full
            // palette, and choose the shades again there.
            palette = discovery.refit(usage: usage ?? discovery.usage(), budget: PalettePlan.entries(for: config.gif.colors, palette))
        }
        self.palette = palette
        self.gradientPalette = gradientPalette
    }

    /// The palette entries a GIF color table of `colors` entries leaves for colors: all of them when
    /// the transparent entry keeps unchanged pixels, else one fewer.
    static func entries(for colors: Int, _ palette: Palette) -> Int {
        palette.transparentIndex == nil ? colors - 1 : colors
    }

    /// Whether `a` and `b` draw the same scene into the same discovered palette: equal but for
    /// `gif.colors`, `gif.lossy` and the WebP and APNG coders' settings.
    static func sameScene(_ a: WaveConfig, _ b: WaveConfig) -> Bool {
        var b = b
        b.gif.colors = a.gif.colors
        b.gif.lossy = a.gif.lossy
        b.webp = a.webp
        b.apng = a.apng
        return a == b
    }
}
