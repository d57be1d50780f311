/// The colors of a scene whose background or layers are gradients, point by point: the
/// background, the border ring over it, and every layer set's composite where each paint takes its
/// color at that point. A layer's gradient spans the shape's outline box, the background's the
/// canvas (`WaveConfig.layerGradientBox`, `canvasBox`). A flat paint is the same everywhere, so for
/// a scene without gradients this agrees with `WaveModel`'s colors.
public struct ScenePaint: Sendable {
    enum Source: Sendable {
        case flat(PremultipliedColor)
        case gradient(GradientSampler)

        @inline(__always)
        func color(_ x: Double, _ y: Double) -> PremultipliedColor {
            switch self {
            case let .flat(c): return c
            case let .gradient(g): return g.color(atX: x, y: y)
            }
        }
    }

    let background: Source
    let layers: [Source]
    let border: PremultipliedColor?

    public init(config: WaveConfig) {
        background = config.backgroundGradient.map { .gradient(GradientSampler($0, box: config.canvasBox)) }
            ?? .flat(PremultipliedColor(config.background))
        layers = config.layers.map { l in
            l.gradient.map { .gradient(GradientSampler($0, box: config.layerGradientBox, opacity: l.opacity)) }
                ?? .flat(PremultipliedColor(l.color, opacity: l.opacity))
        }
        border = config.border.map { PremultipliedColor($0.color) }
    }

    /// The colors at point (x, y) (output pixels; a pixel's colors are taken at its center).
    public func colors(atX x: Double, y: Double) -> LocalColors {
        let bg = background.color(x, y)
        let layerColors = layers.map { $0.color(x, y) }
        return LocalColors(background: bg, ring: bg.under(border ?? .clear, coverage: 1), layers: layerColors)
    }
}

/// A scene's colors at one point: the background, the ring over it, each layer's color (opacity
/// applied) and, for few layers, every layer set's composite.
public struct LocalColors: Sendable {
    public let background: PremultipliedColor
    public let ring: PremultipliedColor
    public let layers: [PremultipliedColor]
    private let table: [PremultipliedColor]

    /// Up to this many layers the composites are tabulated (2^6 entries).
    static let tabulatedLayers = 6

    init(background: PremultipliedColor, ring: PremultipliedColor, layers: [PremultipliedColor]) {
        self.background = background
        self.ring = ring
        self.layers = layers
        if layers.count <= LocalColors.tabulatedLayers {
            var table = [PremultipliedColor](repeating: background, count: 1 << layers.count)
            for mask in 1..<table.count {
                // The set less its highest layer, then that layer over it.
                let top = Int.bitWidth - 1 - mask.leadingZeroBitCount
                table[mask] = table[mask & ~(1 << top)].under(layers[top], coverage: 1)
            }
            self.table = table
        } else {
            table = []
        }
    }

    /// The color where the layers in `mask` (bit i = layer i) cover the background, with `rider`
    /// painted right after layer `afterLayer`.
    @inline(__always)
    public func composite(_ mask: Int, rider: PremultipliedColor? = nil, afterLayer: Int = -1) -> PremultipliedColor {
        if rider == nil, !table.isEmpty { return table[mask] }
        var color = background
        for i in 0..<layers.count {
            if mask & (1 << i) != 0 { color = color.under(layers[i], coverage: 1) }
            if i == afterLayer, let rider { color = color.under(rider, coverage: 1) }
        }
        return color
    }

    /// Every layer over the background.
    public var allLayers: PremultipliedColor { composite((1 << layers.count) - 1) }
}
