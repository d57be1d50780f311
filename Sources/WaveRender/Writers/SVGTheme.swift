import WaveKit

/// An SVG's colours as CSS custom properties a page may set (`--background`, `--wave-1` back layer
/// … `--wave-n`, `--border`, `--label`, `--label-on-water`, `--label-stroke`), each defaulting to
/// the preset's colour. With a dark twin, the file also switches to the twin's colours under
/// `prefers-color-scheme: dark` or inside `data-theme="dark"`, and back inside
/// `data-theme="light"`.
///
/// The switch is one private toggle on the `<svg>`, `--_d`: `initial` (guaranteed-invalid) for
/// light, empty for dark. Each colour the twin changes gets a private property `--_N` on the
/// `<svg>` holding `var(--NAME, var(--_d)DARK)`: the page's value when it sets one, else the dark
/// colour when the toggle is empty, else nothing valid, so that where the colour is used,
/// `var(--_N, LIGHT)` falls back to the light colour. Each dark colour is written once, whatever
/// turns it on.
struct SVGTheme {
    let colors: [ThemeColor]
    /// The document's class (the id prefix).
    let root: String

    init(config: WaveConfig, root: String) {
        colors = config.themedColors
        self.root = root
    }

    /// Whether the file carries a dark theme.
    var hasDark: Bool { colors.contains(where: switches) }

    private func switches(_ c: ThemeColor) -> Bool { c.dark.map { $0 != c.light } ?? false }

    /// The CSS value that paints with colour `name`: `var(--name,#light)`, or through the private
    /// property when the dark twin changes it.
    func value(_ name: String) -> String {
        guard let i = colors.firstIndex(where: { $0.name == name }) else { preconditionFailure("no theme colour \(name)") }
        let c = colors[i]
        return "var(--\(switches(c) ? "_\(i)" : name),\(SVGTheme.css(c.light)))"
    }

    /// Whether colour `name` is visible in either theme (a transparent background in both is not drawn).
    func shows(_ name: String) -> Bool {
        colors.first { $0.name == name }.map { $0.light.a > 0 || ($0.dark?.a ?? 0) > 0 } ?? false
    }

    /// The style rules of the dark theme; none without one.
    var rules: [String] {
        guard hasDark else { return [] }
        let r = root
        var block = ""
        for (i, c) in colors.enumerated() where switches(c) {
            block += ";--_\(i):var(--\(c.name),var(--_d)\(SVGTheme.css(c.dark!)))"
        }
        return [
            ".\(r){--_d:initial\(block)}",
            "@media(prefers-color-scheme:dark){.\(r){--_d: }}",
            "[data-theme=dark] .\(r),.\(r)[data-theme=dark]{--_d: }",
            "[data-theme=light] .\(r),.\(r)[data-theme=light]{--_d:initial}",
        ]
    }

    /// A colour as CSS: `#rgb` or `#rrggbb` when opaque, with the alpha digits when not.
    static func css(_ c: RGBA) -> String {
        let channels = c.a == 255 ? [c.r, c.g, c.b] : [c.r, c.g, c.b, c.a]
        if channels.allSatisfy({ $0 >> 4 == $0 & 15 }) { return "#" + channels.map { String($0 & 15, radix: 16) }.joined() }
        return "#" + channels.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
