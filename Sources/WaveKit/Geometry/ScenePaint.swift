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

    /// How many colors `colors(atX:y:in:)` keeps in the storage it is lent: each layer's, then
    /// for few layers every layer set's composite.
    public var storageCount: Int { layers.count + (layers.count <= LocalColors.tabulatedLayers ? 1 << layers.count : 0) }

    /// The colors at point (x, y) (output pixels; a pixel's colors are taken at its center). The
    /// layers' colors and the composites are kept in `storage` (`storageCount` colors, which the
    /// caller lends and keeps for as long as it uses the result): drawing takes them at every pixel
    /// of every frame, and lending one storage for all of them allocates nothing per pixel.
    @inline(__always)
    public func colors(atX x: Double, y: Double, in storage: UnsafeMutableBufferPointer<PremultipliedColor>) -> LocalColors {
        let count = layers.count
        precondition(storage.count >= storageCount, "storage for the colors")
        let bg = background.color(x, y)
        for i in 0..<count { storage[i] = layers[i].color(x, y) }
        let layerColors = UnsafeBufferPointer(rebasing: storage[0..<count])
        var table = UnsafeBufferPointer<PremultipliedColor>(start: nil, count: 0)
        if count <= LocalColors.tabulatedLayers {
            storage[count] = bg
            for mask in 1..<(1 << count) {
                // The set less its highest layer, then that layer over it.
                let top = Int.bitWidth - 1 - mask.leadingZeroBitCount
                storage[count + mask] = storage[count + mask & ~(1 << top)].under(layerColors[top], coverage: 1)
            }
            table = UnsafeBufferPointer(rebasing: storage[count..<(count + 1 << count)])
        }
        return LocalColors(background: bg, ring: bg.under(border ?? .clear, coverage: 1), layers: layerColors, table: table)
    }
}

/// A scene's colors at one point: the background, the ring over it, each layer's color (opacity
/// applied) and, for few layers, every layer set's composite. The layers' colors and the
/// composites live in the storage lent to `ScenePaint.colors(atX:y:in:)`, as long as the lender keeps it.
public struct LocalColors {
    public let background: PremultipliedColor
    public let ring: PremultipliedColor
    public let layers: UnsafeBufferPointer<PremultipliedColor>
    private let table: UnsafeBufferPointer<PremultipliedColor>

    /// Up to this many layers the composites are tabulated (2^6 entries).
    static let tabulatedLayers = 6

    init(background: PremultipliedColor, ring: PremultipliedColor, layers: UnsafeBufferPointer<PremultipliedColor>,
         table: UnsafeBufferPointer<PremultipliedColor>) {
        self.background = background
        self.ring = ring
        self.layers = layers
        self.table = table
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
