/// The colours a themed output names: each colour key of a preset with the name a page overrides
/// it by (a CSS custom property in an SVG), and the dark twin's value when the preset has one.
public struct ThemeColor: Equatable, Sendable {
    /// The name without the leading dashes: `background`, `wave-1` (back layer) … `wave-n`,
    /// `border`, `label`, `label-on-water`, `label-stroke`.
    public var name: String
    public var light: RGBA
    /// The dark twin's colour; nil when the twin leaves this key alone (both themes use `light`).
    public var dark: RGBA?
    /// The gradient painting with this name in the config and in the dark twin, when it is one
    /// (`light` and `dark` then hold their mean colors).
    public var lightGradient: LinearGradient?
    public var darkGradient: LinearGradient?
}

extension WaveConfig {
    /// The property name of each colour the picture uses, with its value in this config and, when
    /// the preset has a dark twin, the twin's (`themeColors["dark"]`). A config rendered in its
    /// dark theme has the dark colours as its own, so nothing switches.
    public var themedColors: [ThemeColor] {
        let dark = themeColors["dark"]
        let own = ThemeColors(self)
        return own.named.map {
            ThemeColor(name: $0.name, light: $0.color, dark: dark?[$0.name],
                       lightGradient: own.gradients[$0.name], darkGradient: dark?.gradients[$0.name])
        }
    }
}
