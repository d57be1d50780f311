/// The colours a themed output names: each colour key of a preset with the name a page overrides
/// it by (a CSS custom property in an SVG), and the dark twin's value when the preset has one.
public struct ThemeColor: Equatable, Sendable {
    /// The name without the leading dashes: `background`, `wave-1` (back layer) … `wave-n`,
    /// `border`, `label`, `label-on-water`, `label-stroke`.
    public var name: String
    public var light: RGBA
    /// The dark twin's colour; nil when the twin leaves this key alone (both themes use `light`).
    public var dark: RGBA?
}

extension WaveConfig {
    /// The dark twin's colours by key path (`background`, `layers[0].color`, `border.color`, …):
    /// the entries of the preset's `dark` object that apply (the decoder reports the others).
    static func decodeDarkColors(_ root: JSONNode) -> [String: RGBA] {
        guard case let .object(members)? = root["dark"]?.value else { return [:] }
        var colors: [String: RGBA] = [:]
        for (key, value) in members where !KeyAdvice.isAnnotation(key) {
            guard darkKeyProblem(key, in: root) == nil, case let .string(s) = value.value, let c = RGBA(parsing: s),
                  let path = KeyPathExpression(parsing: key) else { continue }
            colors[path.description] = c
        }
        return colors
    }

    /// The property name of each colour the picture uses, with its light value and its dark one.
    public var themeColors: [ThemeColor] {
        func color(_ name: String, _ key: String, _ light: RGBA) -> ThemeColor {
            ThemeColor(name: name, light: light, dark: darkColors[key])
        }
        var out = [color("background", "background", background)]
        for (i, layer) in layers.enumerated() { out.append(color("wave-\(i + 1)", "layers[\(i)].color", layer.color)) }
        if let border { out.append(color("border", "border.color", border.color)) }
        if let label {
            out.append(color("label", "label.color", label.color))
            out.append(color("label-on-water", "label.colorOnWater", label.colorOnWater))
            if label.strokeWidth > 0 { out.append(color("label-stroke", "label.stroke.color", label.strokeColor)) }
        }
        return out
    }

    /// Whether the preset has a dark twin that changes a colour the picture uses.
    public var hasDarkTwin: Bool { themeColors.contains { $0.dark != nil && $0.dark != $0.light } }
}
