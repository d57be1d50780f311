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
///
/// A gradient (a layer's or the background's) is a `<linearGradient>` in user space whose stops
/// are fixed colors; its property's default is `url(#…)` of it, so a page may still set the
/// property to a color (or to another paint server), and a dark twin's gradient is a second
/// `<linearGradient>` the toggle switches to, as it switches colors.
struct SVGTheme {
    let colors: [ThemeColor]
    /// The document's class (the id prefix).
    let root: String
    /// The boxes gradients span: the canvas for the background's, the outline box for a layer's.
    let canvas: Rect
    let layerBox: Rect

    init(config: WaveConfig, root: String) {
        colors = config.themedColors
        self.root = root
        canvas = config.canvasBox
        layerBox = config.layerGradientBox
    }

    /// Whether the file carries a dark theme.
    var hasDark: Bool { colors.contains(where: switches) }

    private func switches(_ c: ThemeColor) -> Bool { c.dark.map { $0 != c.light || c.darkGradient != c.lightGradient } ?? false }

    /// The CSS paint of theme colour `i` in the light theme, or the dark one.
    private func paint(_ i: Int, dark: Bool) -> String {
        let c = colors[i]
        if dark {
            if c.darkGradient != nil { return "url(#\(root)g\(i)d)" }
            return SVGTheme.css(c.dark!)
        }
        if c.lightGradient != nil { return "url(#\(root)g\(i))" }
        return SVGTheme.css(c.light)
    }

    /// Whether colour `name` is a gradient in either theme.
    func isGradient(_ name: String) -> Bool {
        colors.first { $0.name == name }.map { $0.lightGradient != nil || (switches($0) && $0.darkGradient != nil) } ?? false
    }

    /// The `<linearGradient>` elements the theme's paints name; none without gradients.
    var gradientDefs: [String] {
        var defs: [String] = []
        for (i, c) in colors.enumerated() {
            let box = c.name == "background" ? canvas : layerBox
            if let g = c.lightGradient { defs.append(SVGTheme.linearGradient(g, id: "\(root)g\(i)", box: box)) }
            if switches(c), let g = c.darkGradient { defs.append(SVGTheme.linearGradient(g, id: "\(root)g\(i)d", box: box)) }
        }
        return defs
    }

    /// `gradient` over `box` as an SVG `<linearGradient>` in user space. SVG clamps stop offsets to
    /// 0…1, so when CSS's positions run beyond them the line is lengthened to the first and last
    /// position and the offsets are measured along it.
    static func linearGradient(_ gradient: LinearGradient, id: String, box: Rect) -> String {
        let stops = gradient.resolvedStops
        let (start, end) = gradient.line(in: box)
        let lo = min(0, stops[0].position), hi = max(1, stops[stops.count - 1].position)
        let span = hi - lo
        func at(_ t: Double) -> (Double, Double) { (start.x + (end.x - start.x) * t, start.y + (end.y - start.y) * t) }
        let (a, b) = (at(lo), at(hi))
        func n(_ v: Double) -> String { SVGPathData.format(v, decimals: 3) }
        var text = "<linearGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" x1=\"\(n(a.0))\" y1=\"\(n(a.1))\" x2=\"\(n(b.0))\" y2=\"\(n(b.1))\">"
        for s in stops {
            let opaque = RGBA(s.color.r, s.color.g, s.color.b)
            let opacity = s.color.a == 255 ? "" : " stop-opacity=\"\(n(Double(s.color.a) / 255))\""
            text += "<stop offset=\"\(n(span > 0 ? (s.position - lo) / span : 0))\" stop-color=\"\(css(opaque))\"\(opacity)/>"
        }
        return text + "</linearGradient>"
    }

    /// The CSS value that paints with colour `name`: `var(--name,#light)`, or through the private
    /// property when the dark twin changes it.
    func value(_ name: String) -> String {
        guard let i = colors.firstIndex(where: { $0.name == name }) else { preconditionFailure("no theme colour \(name)") }
        let c = colors[i]
        return "var(--\(switches(c) ? "_\(i)" : name),\(paint(i, dark: false)))"
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
            block += ";--_\(i):var(--\(c.name),var(--_d)\(paint(i, dark: true)))"
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
