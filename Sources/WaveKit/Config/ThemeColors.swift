/// Every color a preset paints with in one theme, by the name the vector outputs give it (the Lottie
/// slot ids and the dotLottie theme rules): `background`, `wave-1`…`wave-n` (back to front),
/// `border`, `label`, `label-on-water`, `label-stroke`.
public struct ThemeColors: Equatable, Sendable {
    /// (name, color) pairs in a fixed order; the colors the preset has (a border, a label, a label
    /// stroke only when it has them).
    public var named: [(name: String, color: RGBA)]
    /// The gradients among them (`background`, `wave-N`), by name; their entry in `named` holds
    /// the gradient's mean color.
    public var gradients: [String: LinearGradient] = [:]

    public static func == (a: ThemeColors, b: ThemeColors) -> Bool {
        a.named.map(\.name) == b.named.map(\.name) && a.named.map(\.color) == b.named.map(\.color) && a.gradients == b.gradients
    }

    /// The colors of `config`.
    public init(_ config: WaveConfig) {
        var named: [(String, RGBA)] = [("background", config.background)]
        named += config.layers.enumerated().map { (ThemeColors.wave($0.offset), $0.element.color) }
        if let border = config.border { named.append(("border", border.color)) }
        if let label = config.label {
            named += [("label", label.color), ("label-on-water", label.colorOnWater)]
            if label.strokeWidth > 0 { named.append(("label-stroke", label.strokeColor)) }
        }
        self.named = named
        if let g = config.backgroundGradient { gradients["background"] = g }
        for (i, layer) in config.layers.enumerated() {
            if let g = layer.gradient { gradients[ThemeColors.wave(i)] = g }
        }
    }

    /// The name of layer i's color (0 the back layer): `wave-1` for layers[0].
    public static func wave(_ i: Int) -> String { "wave-\(i + 1)" }

    /// The color named `name`, if the preset has it.
    public subscript(_ name: String) -> RGBA? {
        named.first { $0.name == name }?.color
    }
}
