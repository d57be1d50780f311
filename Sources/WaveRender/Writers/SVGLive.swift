import WaveKit
import WaveText

/// What makes an SVG live: the still level follows the CSS custom property `--level` (0…1,
/// clamped) that a page sets on the `<svg>` or an ancestor, easing to a new value over the preset's
/// `live.transition`, and a label with `{percent}` or `{level}` shows that level. No script: the
/// level is a registered custom property (`@property`, so it can transition) that moves the water
/// groups by `translate`, while the drift runs on the layers inside them, untouched. The label is
/// every glyph any level from 0 to 1 shows, each where the raster draws it, shown only when CSS
/// math on the level's percent says that glyph stands there.
///
/// CSS it relies on: `@property` (Chromium 85, Firefox 128, Safari 16.4) for the easing, and
/// `round()` and `mod()` (Chromium 125, Firefox 118, Safari 15.4) for the label. Without
/// `@property` the level still follows `--level`, at once; without `round()` or `mod()` the label
/// shows the preset's own level, and so does everything when `--level` is not a number.
struct SVGLive {
    let config: WaveConfig
    /// The preset's still level (0…1), which the surfaces are drawn at.
    let level: Double
    /// The document's class (the id prefix).
    let root: String

    /// The wave frame (the canvas turned so the water fills upwards): the level groups sit inside
    /// the group that turns it onto the canvas, so their shift runs along the fill axis.
    let orientation: WaveOrientation

    /// Refuses a preset whose level moves: its own motion and the page's level would fight over
    /// one value.
    init(config: WaveConfig, root: String) throws(WaveError) {
        guard case let .still(level) = config.level else {
            throw WaveError(config, "a live SVG takes its level from the page, so the preset's level must be a number, not an animation (from/to or tide); give it a number (--level 0.5; in a manifest, \"set\": {\"level\": 0.5})", keyPath: "level")
        }
        self.config = config
        self.level = level
        self.root = root
        orientation = WaveOrientation(direction: config.direction, canvasWidth: config.width, canvasHeight: config.height)
    }

    /// The water box in the wave frame: its height is the fill axis's length.
    var waveBox: Rect { orientation.waveRect(config.box) }

    /// The registered level property (a number 0…1 on every element of the document).
    var levelProperty: String { "--\(root)v" }
    /// The level in whole percent, rounded as the raster rounds it (halves up). Not registered,
    /// so a short private name set on the `<svg>` serves (its uses are many).
    static let percentProperty = "--_p"
    /// The class of the groups the level moves (in the wave frame).
    var levelClass: String { "\(root)v" }
    /// The class of the rider's group, which is on the canvas: the level groups' for `up`, else
    /// one that moves it along the fill axis as the canvas shows it.
    var riderClass: String { config.direction == .up ? levelClass : "\(root)u" }

    /// How far down (in the wave frame) the water's closed paths must reach: below the box when
    /// the level is 1.
    var waterBottom: Double {
        let box = waveBox
        return (box.maxY + box.height * (1 - level) + 1).rounded(.up)
    }

    /// The style rules: the registered property, its value from `--level`, its transition (none
    /// under reduced motion), the level groups' shift, and with a label the percent.
    func rules(label: Bool) -> [String] {
        let l0 = number(level, decimals: 4)
        let v = levelProperty
        let live = config.live
        var rootRule = "\(v):clamp(0,var(--level,\(l0)),1)"
        // mod() keeps the percent in 0…100 (a no-op) and makes every use of it invalid where
        // mod() is missing, so the label falls back to the preset's text as a whole.
        if label { rootRule += ";\(SVGLive.percentProperty):mod(round(var(\(v))*100,1),101)" }
        // `<` escaped: in an SVG inlined in HTML, and in XML, it would open an element.
        var out = ["@property \(v){syntax:'\\3c number>';inherits:true;initial-value:\(l0)}"]
        if live.transition > 0 {
            rootRule += ";transition:\(v) \(number(live.transition, decimals: 3))s \(live.easing.rawValue)"
        }
        out.append(".\(root){\(rootRule)}")
        let height = waveBox.height
        out.append(".\(levelClass){translate:0 calc((\(l0) - var(\(v)))*\(number(height, decimals: 3))px)}")
        if riderClass != levelClass, config.rider != nil {
            // The wave frame's (0, 1) on the canvas, times the shift.
            let m = orientation.matrix
            func axis(_ k: Double) -> String { k == 0 ? "0" : "calc((\(l0) - var(\(v)))*\(number(k * height, decimals: 3))px)" }
            out.append(".\(riderClass){translate:\(axis(m.c)) \(axis(m.d))}")
        }
        if live.transition > 0 { out.append("@media(prefers-reduced-motion:reduce){.\(root){transition:none}}") }
        return out
    }

    // MARK: Label

    /// One glyph at one place relative to its text's first glyph, and the percents (0…100) whose
    /// text has it there.
    struct PlacedGlyph {
        var index: UInt32
        var x: Double
        var y: Double
        var commands: [OutlineCommand]
        var percents: [Int]
    }

    /// The label at every percent 0…100: each glyph relative to its text's first glyph, and where
    /// that first glyph stands at each percent (the raster centres each text by its ink, so the
    /// place moves with the digits).
    struct LiveText {
        var glyphs: [PlacedGlyph]
        /// The first glyph's origin on the canvas at each percent 0…100, in output pixels.
        var origins: [(x: Double, y: Double)]
    }

    /// The label's texts at every percent 0…100, or nil when the text does not depend on the
    /// level (then the label is drawn as in a plain SVG).
    func labelText() throws(WaveError) -> LiveText? {
        guard let label = config.label else { return nil }
        let texts = (0...100).map { label.text(level: Double($0) / 100) }
        guard Set(texts).count > 1 else { return nil }
        var outlines: [String: TextOutline] = [:]
        var live = LiveText(glyphs: [], origins: [])
        var at: [String: Int] = [:]
        for (percent, text) in texts.enumerated() {
            if outlines[text] == nil {
                guard let outline = try LabelOverlay.outlines(for: config, text: text) else { return nil }
                outlines[text] = outline
            }
            let outline = outlines[text]!
            let overlay = LabelOverlay(label: label, box: config.box, width: outline.width, height: outline.height, fill: [], stroke: [])
            let first = outline.glyphs.first.map { (x: $0.x, y: $0.y) } ?? (x: 0, y: 0)
            live.origins.append((Double(overlay.x) + first.x, Double(overlay.y) + first.y))
            for g in outline.glyphs where !g.commands.isEmpty {
                let x = g.x - first.x, y = g.y - first.y
                let key = "\(g.index)@\(number(x, decimals: 2)),\(number(y, decimals: 2))"
                if let i = at[key] {
                    live.glyphs[i].percents.append(percent)
                } else {
                    at[key] = live.glyphs.count
                    live.glyphs.append(PlacedGlyph(index: g.index, x: x, y: y, commands: g.commands, percents: [percent]))
                }
            }
        }
        return live
    }

    /// A function of the percent (`values[p]` for p = 0…100) as CSS: the value at 0 plus, at each
    /// percent where it changes, the change times a step that is 1 from that percent on. Values
    /// are rounded to 2 decimals first, so the changes add up exactly.
    func stepFunction(_ values: [Double], unit: String) -> String {
        let p = "var(\(SVGLive.percentProperty))"
        let units = values.map { Int(($0 * 100).rounded()) }
        var text = SVGPathData.format(units: units[0], decimals: 2) + unit
        for k in 1..<units.count where units[k] != units[k - 1] {
            let step = k == 1 ? "min(1,\(p))" : "clamp(0,\(p) - \(k - 1),1)"
            let change = units[k] - units[k - 1]
            text += " \(change < 0 ? "-" : "+") \(SVGPathData.format(units: abs(change), decimals: 2))\(unit)*\(step)"
        }
        return units.dropFirst().allSatisfy({ $0 == units[0] }) ? text : "calc(\(text))"
    }

    /// A set of percents as runs CSS can test: `lo…hi` in steps of `step` (1: every percent).
    struct Run: Equatable {
        var lo: Int
        var hi: Int
        var step: Int
    }

    /// `percents` (ascending, distinct) as few runs: one when they are a range or every 10th or
    /// 100th of one, else each maximal range.
    static func runs(_ percents: [Int]) -> [Run] {
        guard let lo = percents.first, let hi = percents.last else { return [] }
        for step in [1, 10, 100] where Array(stride(from: lo, through: hi, by: step)) == percents {
            return [Run(lo: lo, hi: hi, step: step)]
        }
        var out: [Run] = []
        for p in percents {
            if let last = out.last, last.hi + 1 == p { out[out.count - 1].hi = p } else { out.append(Run(lo: p, hi: p, step: 1)) }
        }
        return out
    }

    /// The opacity that shows a glyph exactly at the percents of `run`: 1 there, 0 elsewhere
    /// (the percent is a whole number, so each term is at least 1 where it holds and at most 0
    /// where it does not).
    static func opacityText(_ run: Run) -> String {
        let p = "var(\(percentProperty))"
        var terms: [String] = []
        if run.lo > 0 { terms.append(run.lo == 1 ? p : "\(p) - \(run.lo - 1)") }
        if run.hi < 100 { terms.append("\(run.hi + 1) - \(p)") }
        if run.step > 1, run.lo < run.hi { terms.append("1 - mod(\(p) - \(run.lo),\(run.step))") }
        switch terms.count {
        case 0: return "1"
        case 1: return "clamp(0,\(terms[0]),1)"
        default: return "clamp(0,min(\(terms.joined(separator: ","))),1)"
        }
    }

    /// The opacity of the preset's own text: 0 wherever the percent computes, so it shows only
    /// where the CSS the live glyphs need is missing.
    var fallbackOpacity: String { "min(0,var(\(SVGLive.percentProperty)))" }

    private func number(_ v: Double, decimals: Int) -> String { SVGPathData.format(v, decimals: decimals) }
}
