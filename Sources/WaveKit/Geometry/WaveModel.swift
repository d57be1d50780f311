/// The one model of a scene's water: every layer's surface over the loop, the composite colour of
/// any set of layers over the background, and the shape that clips the water. The palette, the
/// rasterizer, the rider, the label and vector writers all ask this type, so they agree exactly.
///
/// The waves are worked out in the wave frame (`orientation`): the canvas turned or mirrored so
/// that the water fills upwards, as it does on the canvas for `"direction": "up"`. Surfaces,
/// still levels, `waveBox`, `waveOutline` and `waterChords` are in that frame; `outline` is on the
/// canvas.
///
/// Units: lengths and positions are output pixels (y grows downwards), phases are turns
/// (1 = one wavelength), time is the loop fraction u = frame / frame count (0 ≤ u < 1), colours are
/// premultiplied RGBA in 0…1.
///
/// Layer i's surface at loop fraction u is
/// `y(x) = y0 + offset − amplitude × sin(2π((x − box.x)/wavelength + phase − cycles × u))`,
/// with the still level `y0 = box.y + box.height × (1 − level(frame))`; see `Surfaces`.
public struct WaveModel: Sendable {
    /// The scene: `layers` (back first) give amplitude, wavelength, phase and offset; `box` is the
    /// box the wave math uses; `level` the still-water level over the loop.
    public let config: WaveConfig
    /// Whole wavelengths each layer travels in one loop (negative drifts left), from the loop plan.
    public let cyclesPerLoop: [Int]
    /// The canvas colour.
    public let background: PremultipliedColor
    /// Each layer's colour with its opacity applied, back first.
    public let layerColors: [PremultipliedColor]
    /// The border ring over the background (the background itself when there is no border).
    public let ringColor: PremultipliedColor
    /// Every layer over the background: the colour deep under all surfaces.
    public let allLayersColor: PremultipliedColor
    /// The shape's outline; the water region is this outline shrunk by `waterInset`.
    public let outline: OutlineGeometry
    /// How the wave frame lies on the canvas (the identity for `"direction": "up"`).
    public let orientation: WaveOrientation
    /// The box the wave math uses, in the wave frame (`config.box` for `up`).
    public let waveBox: Rect
    /// The shape's outline in the wave frame (`outline` for `up`).
    public let waveOutline: OutlineGeometry
    /// How far the water region lies inside the outline: border width plus gap, in output pixels.
    public let waterInset: Double
    /// The border ring's width inside the outline, in output pixels (0 without a border).
    public let borderWidth: Double
    /// The composite of every set of layers (bit i = layer i) over the background, when there are
    /// at most `tabulatedLayerLimit` layers; empty otherwise.
    private let compositeTable: [PremultipliedColor]

    /// The most layers whose composite colours are kept in a table (2^12 entries).
    public static let tabulatedLayerLimit = 12

    /// The model of `config` animated as `plan` lays out the loop.
    public init(config: WaveConfig, plan: LoopPlan) {
        self.config = config
        cyclesPerLoop = plan.layers.map(\.cycles)
        let background = PremultipliedColor(config.background)
        self.background = background
        ringColor = background.under(config.border.map { PremultipliedColor($0.color) } ?? .clear, coverage: 1)
        let layers = config.layers.map { PremultipliedColor($0.color, opacity: $0.opacity) }
        layerColors = layers
        var all = background
        for c in layers { all = all.under(c, coverage: 1) }
        allLayersColor = all
        compositeTable = layers.count > WaveModel.tabulatedLayerLimit ? [] : (0..<(1 << layers.count)).map { mask in
            var color = background
            for (i, c) in layers.enumerated() where mask & (1 << i) != 0 { color = color.under(c, coverage: 1) }
            return color
        }
        outline = OutlineGeometry(shape: config.shape, box: config.outline)
        let orientation = WaveOrientation(direction: config.direction, canvasWidth: config.width, canvasHeight: config.height)
        self.orientation = orientation
        waveBox = orientation.waveRect(config.box)
        waveOutline = orientation.isIdentity ? outline : OutlineGeometry(shape: config.shape, box: config.outline, orientation: orientation)
        waterInset = config.border.map { $0.width + $0.gap } ?? 0
        borderWidth = config.border?.width ?? 0
    }

    /// The number of wave layers.
    public var layerCount: Int { config.layers.count }

    /// The layer drawn last, in front of all others.
    public var frontLayer: Int { config.layers.count - 1 }

    /// Whether `compositeColor(ofLayers:)` reads a table (few layers) rather than compositing.
    public var hasCompositeTable: Bool { !compositeTable.isEmpty }

    /// The colour where exactly the layers in `mask` (bit i = layer i) cover the background.
    @inline(__always)
    public func compositeColor(ofLayers mask: Int) -> PremultipliedColor {
        compositeTable.isEmpty ? compositeColor(ofLayers: mask, rider: nil, afterLayer: -1) : compositeTable[mask]
    }

    /// The colour where the layers in `mask` cover the background, with `rider` painted right after
    /// layer `afterLayer` (under the layers in front of it).
    @inline(__always)
    func compositeColor(ofLayers mask: Int, rider: PremultipliedColor?, afterLayer: Int) -> PremultipliedColor {
        if rider == nil, !compositeTable.isEmpty { return compositeTable[mask] }
        var color = background
        for i in 0..<layerColors.count {
            if mask & (1 << i) != 0 { color = color.under(layerColors[i], coverage: 1) }
            if i == afterLayer, let rider { color = color.under(rider, coverage: 1) }
        }
        return color
    }

    /// Whether the layer set `mask` includes the front layer (a label's text there shows its
    /// on-water colour).
    @inline(__always)
    public func includesFrontLayer(_ mask: Int) -> Bool {
        mask & (1 << frontLayer) != 0
    }

    /// The fraction of the segment `top`…`bottom` of a vertical line (output pixels) that lies below
    /// a surface at height `surface`.
    @inline(__always)
    public func fractionBelow(surface: Double, top: Double, bottom: Double) -> Double {
        max(0, bottom - max(top, surface)) / (bottom - top)
    }

    /// The water region's extents (top, bottom) across the front at wave-frame column `x`, in output
    /// pixels, top first
    /// (none when the column misses it, one at most but for a path shape): the outline's chords
    /// shrunk by `waterInset`.
    public func waterChords(atX x: Double) -> [(top: Double, bottom: Double)] {
        waveOutline.chords(x: x, inset: waterInset)
    }

    /// The still-water level y0 at frame `frame` of a loop of `count` frames, in output pixels from
    /// the wave frame's top (each layer's own still level adds its `offset`).
    public func stillLevel(frame: Int, of count: Int) -> Double {
        stillLevel(config.level.level(frame: frame, of: count))
    }

    /// The still-water line of `level` (the fraction of the box filled), in output pixels from the
    /// wave frame's top.
    public func stillLevel(_ level: Double) -> Double {
        waveBox.y + waveBox.height * (1 - level)
    }

    /// Layer `layer`'s phase at loop fraction `u`, in turns, reduced to 0 ≤ phase < 1 so that the
    /// sine's argument stays small and exact: `phase − cycles × u` less its whole turns.
    public func phase(layer: Int, loopFraction u: Double) -> Double {
        let p = config.layers[layer].phase - Double(cyclesPerLoop[layer]) * u
        return p - p.rounded(.down)
    }

    /// Every layer's surface at frame `frame` of a loop of `count` frames. The drift closes the loop
    /// (frame `count` shows what frame 0 shows); so does the level, unless it ramps one way.
    public func surfaces(frame: Int, of count: Int) -> Surfaces {
        Surfaces(model: self, frame: frame, of: count)
    }

    /// Every layer's surface at loop fraction `u` (0…1) of a loop of `count` frames, between frames
    /// as well as on them (the level follows `LevelAnimation.level(atLoopFraction:frames:)`); at
    /// u = frame / count it is `surfaces(frame:of:)`. For vector outputs, which move continuously.
    public func surfaces(atLoopFraction u: Double, frames count: Int) -> Surfaces {
        Surfaces(model: self, loopFraction: u, frames: count)
    }
}
