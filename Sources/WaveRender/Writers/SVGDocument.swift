import WavePlatform
import WaveKit
import WaveText

/// The text of an animated SVG: the wave layers as closed paths drifting by CSS keyframes, the
/// level as a moving group, the shape as a clip, the border ring, the label's glyph outlines and the
/// rider as an embedded PNG. Every id and keyframe name starts with a prefix taken from the
/// document's digest, so several SVGs inlined in one page keep apart. Colours are CSS custom
/// properties a page may set (`SVGTheme`); a live document's level follows the page (`SVGLive`).
struct SVGDocument {
    let config: WaveConfig
    let plan: LoopPlan
    let scene: VectorScene
    let motion: SVGMotion
    /// Each distinct text of the label over the planned frames, in order of first appearance, with
    /// its placement on the canvas (the raster's) and its glyph outlines; empty without a label.
    let label: [(text: String, overlay: LabelOverlay, outline: TextOutline)]
    /// For each planned frame, the index in `label` of the text it shows.
    let labelFrames: [Int]
    /// The colours as custom properties, with the dark twin's.
    let theme: SVGTheme
    /// Set for a live document: the level and label follow the page's `--level`.
    let live: SVGLive?

    /// Stands for the id prefix until the document is complete.
    static let prefix = "\u{1}"
    /// The rider image is embedded at up to this many pixels per displayed pixel.
    static let riderResolution = 2.0

    init(_ animation: Animation, label: VectorLabel, live: Bool = false) throws(WaveError) {
        config = animation.config
        plan = animation.plan
        scene = VectorScene(config: config, plan: plan)
        motion = SVGMotion(config: config, plan: plan)
        self.label = label.texts
        labelFrames = label.textOfFrame
        theme = SVGTheme(config: config, root: SVGDocument.prefix)
        self.live = live ? try SVGLive(config: config, root: SVGDocument.prefix) : nil
    }

    /// The whole file.
    func text() throws(WaveError) -> String {
        var styles: [String] = []
        var defs: [String] = []
        var body: [String] = []
        let p = SVGDocument.prefix
        let w = config.width, h = config.height

        styles += theme.rules
        defs += theme.gradientDefs
        if theme.shows("background") { body.append("<rect width=\"\(w)\" height=\"\(h)\"\(style(fill: "background"))/>") }

        // Motion as `transform` where Chromium can run it all on its compositor (no style, paint
        // or raster per frame), else as `translate`, which it animates on the main thread
        // (docs/performance.md, "Page CPU").
        let composited = composited
        // The level group's motion: keyframes, or in a live document the page's level.
        var levelStyle = ""
        let levelKeyframes = scene.levelKeyframes()
        var liveText: SVGLive.LiveText?
        if let live {
            liveText = try live.labelText()
            styles += live.rules(label: liveText != nil)
            levelStyle = " class=\"\(live.levelClass)\""
        } else if let keyframes = levelKeyframes {
            styles.append("@keyframes \(p)v{" + keyframes.map { k in
                let timing = k.easing.map { ";animation-timing-function:\(SVGMotion.timing($0))" } ?? ""
                return "\(SVGMotion.percent(k.u)){\(move(x: 0, y: k.value, composited: composited))\(timing)}"
            }.joined() + "}")
            levelStyle = " style=\"animation:\(motion.animation(p + "v", micros: motion.loopMicros))\""
        }

        // The layers at frame 0, each drifting.
        let surfaces = scene.model.surfaces(frame: 0, of: plan.frameCount)
        let bottom = live?.waterBottom ?? scene.waterBottom(levelKeyframes: levelKeyframes)
        var layers: [String] = []
        // A gradient layer is a still rectangle painted with the gradient and masked by the moving
        // surface, so the gradient stays on the shape's box while the water drifts and rises. The
        // rectangle is on the canvas; its mask, drawn in the wave frame, is turned onto it.
        var still: [Bool] = []
        var frontLayerUse = ""
        // Layers that drift the same distance share one keyframes rule.
        var driftNames: [String: String] = [:]
        for (i, layer) in config.layers.enumerated() {
            let drift = motion.drift(layer: i)
            var animation = ""
            if let drift {
                let body = "{to{\(move(x: drift.distance, y: 0, composited: composited))}}"
                let name = driftNames[body] ?? "\(p)d\(i)"
                if driftNames[body] == nil {
                    driftNames[body] = name
                    styles.append("@keyframes \(name)\(body)")
                }
                animation = "animation:\(motion.animation(name, micros: drift.micros, perLoop: drift.perLoop))"
            }
            let style = animation.isEmpty ? "" : " style=\"\(animation)\""
            let d = surfacePath(layer: i, surfaces: surfaces, shift: drift?.distance ?? 0, bottom: bottom)
            let opacity = layer.opacity < 1 ? " fill-opacity=\"\(SVGPathData.format(layer.opacity, decimals: 3))\"" : ""
            let paint = self.style(fill: "wave-\(i + 1)", then: animation) + opacity
            still.append(theme.isGradient("wave-\(i + 1)"))
            if still[i] {
                var shape = "<path d=\"\(d)\" fill=\"#fff\"\(style)/>"
                if !label.isEmpty, i == scene.model.frontLayer {
                    defs.append("<path id=\"\(p)f\" d=\"\(d)\"/>")
                    shape = "<use href=\"#\(p)f\" fill=\"#fff\"\(style)/>"
                    frontLayerUse = shape
                }
                defs.append("<mask id=\"\(p)w\(i)\" style=\"mask-type:alpha\">" + oriented(group([shape], style: levelStyle)) + "</mask>")
                layers.append("<rect width=\"\(w)\" height=\"\(h)\"\(self.style(fill: "wave-\(i + 1)"))\(opacity) mask=\"url(#\(p)w\(i))\"/>")
            } else if !label.isEmpty, i == scene.model.frontLayer {
                // The label's on-water colour shows where this layer covers it: the path is kept in
                // the defs and used twice, by the layers and by the label's mask.
                defs.append("<path id=\"\(p)f\" d=\"\(d)\"/>")
                layers.append("<use href=\"#\(p)f\"\(paint)/>")
                frontLayerUse = "<use href=\"#\(p)f\" fill=\"#fff\"\(style)/>"
            } else {
                layers.append("<path d=\"\(d)\"\(paint)/>")
            }
        }

        // The water, clipped to the region inside the border and gap.
        var water: [String] = []
        let back = Array(layers[...scene.riderLayer]), front = Array(layers[(scene.riderLayer + 1)...])
        var rider: String?
        if let r = config.rider { rider = group([try riderGroup(r, composited: composited, styles: &styles)], style: live.map { " class=\"\($0.riderClass)\"" } ?? "") }
        if still.contains(true) {
            // Each moving layer in its own level group, turned for the fill direction; the still
            // ones (on the canvas, their masks turned) as they are.
            for (i, element) in layers.enumerated() {
                water.append(still[i] ? element : oriented(group([element], style: levelStyle)))
                if i == scene.riderLayer, let rider { water.append(rider) }
            }
        } else {
            water.append(oriented(group(back, style: levelStyle)))
            if let rider { water.append(rider) }
            if !front.isEmpty { water.append(oriented(group(front, style: levelStyle))) }
        }
        if !label.isEmpty {
            if let live, let liveText {
                water += liveLabel(live, text: liveText, defs: &defs)
            } else {
                water += labelGroups(styles: &styles, defs: &defs)
            }
            defs.append("<mask id=\"\(p)m\" style=\"mask-type:alpha\">\(oriented(group([frontLayerUse], style: levelStyle)))</mask>")
        }
        if let figure = scene.model.outline.figure(inset: scene.model.waterInset) {
            if scene.fillsCanvas(figure) {
                body += water
            } else {
                // A mask rather than a clip path: browsers clip each shape in a clipped group on its
                // own, so where overlapping layers meet the edge their partial coverages would add up.
                defs.append(waterMask(figure, id: "\(p)c"))
                body.append("<g mask=\"url(#\(p)c)\">" + water.joined() + "</g>")
            }
        }

        // The border ring: the outline less the outline shrunk by the ring's width.
        if let border = config.border, case let .path(_, evenOdd, _)? = scene.model.outline.figure(inset: 0),
           let outer = scene.model.outline.figure(inset: 0) {
            // A path's ring: a round-joined stroke twice the ring's width along the outline,
            // clipped to the inside.
            let d = outlinePath(outer)
            defs.append("<clipPath id=\"\(p)r\"><path d=\"\(d)\"\(evenOdd ? " clip-rule=\"evenodd\"" : "")/></clipPath>")
            body.append("<path d=\"\(d)\" fill=\"none\"\(style("stroke", "border")) stroke-width=\"\(number(2 * scene.model.borderWidth))\""
                        + " stroke-linejoin=\"round\" clip-path=\"url(#\(p)r)\"/>")
        } else if let border = config.border, let outer = scene.model.outline.figure(inset: 0) {
            var d = outlinePath(outer)
            if let inner = scene.model.outline.figure(inset: scene.model.borderWidth) { d += outlinePath(inner) }
            body.append("<path d=\"\(d)\" fill-rule=\"evenodd\"\(style(fill: "border"))/>")
        }

        if styles.contains(where: { $0.hasPrefix("@keyframes") }) {
            styles.append("@media(prefers-reduced-motion:reduce){.\(p) *{animation:none!important}}")
        }
        let title = config.description.isEmpty ? config.name : config.description
        var head = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\" role=\"img\" class=\"\(p)\">"
        head += "<title>\(SVGDocument.escape(title))</title>"
        if !styles.isEmpty { head += "<style>" + styles.joined() + "</style>" }
        if !defs.isEmpty { head += "<defs>" + defs.joined() + "</defs>" }
        let document = head + body.joined() + "</svg>\n"
        let id = "w" + SHA256.hex(Array(document.utf8)).prefix(6)
        return document.replacingAll(p, with: id)
    }

    // MARK: Paths

    /// Layer i's surface at frame 0 as a closed path: the sine as straight lines over the water
    /// box's width and the distance its drift moves it (plus a pixel each side), down to `bottom`.
    /// Rounded to 2 decimals when the rounded path stays within `surfaceTolerance` of the sine,
    /// else more.
    func surfacePath(layer i: Int, surfaces: WaveModel.Surfaces, shift: Double, bottom: Double) -> String {
        let (sine, vertices) = scene.surfaceLines(layer: i, surfaces: surfaces, shift: shift)
        return VectorScene.roundedWithinTolerance { decimals in
            let (d, traced) = SVGDocument.surfacePath(vertices, bottom: bottom, decimals: decimals)
            return (d, sine.deviation(ofLines: traced))
        }
    }

    /// Path data for the polyline through `vertices` closed down to `bottom`, with the vertices a
    /// reader traces from the rounded numbers: one absolute move, then relative lines (the "l"
    /// repeated implicitly), each step taken between rounded positions so no rounding adds up.
    static func surfacePath(_ vertices: [PathPoint], bottom: Double, decimals: Int) -> (String, [PathPoint]) {
        var path = SVGPathData(decimals: decimals)
        func u(_ p: PathPoint) -> (Int, Int) { (path.units(p.x), path.units(p.y)) }
        var current = u(vertices[0])
        let start = current
        path.command("M")
        path.number(units: current.0)
        path.number(units: current.1)
        var traced = [PathPoint(path.value(current.0), path.value(current.1))]
        path.command("l")
        for v in vertices.dropFirst() {
            let next = u(v)
            path.number(units: next.0 - current.0)
            path.number(units: next.1 - current.1)
            traced.append(PathPoint(path.value(next.0), path.value(next.1)))
            current = next
        }
        path.command("V")
        path.number(bottom)
        path.command("H")
        path.number(units: start.0)
        path.command("Z")
        return (path.text, traced)
    }

    /// An outline figure as path data (one closed subpath).
    func outlinePath(_ figure: OutlineFigure) -> String {
        var path = SVGPathData(decimals: 2)
        switch figure {
        case let .rect(r, radius):
            let rr = min(radius, r.width / 2, r.height / 2)
            path.command("M"); path.number(r.x + rr); path.number(r.y)
            path.command("H"); path.number(r.maxX - rr)
            if rr > 0 { arc(&path, rr, r.maxX, r.y + rr) }
            path.command("V"); path.number(r.maxY - rr)
            if rr > 0 { arc(&path, rr, r.maxX - rr, r.maxY) }
            path.command("H"); path.number(r.x + rr)
            if rr > 0 { arc(&path, rr, r.x, r.maxY - rr) }
            path.command("V"); path.number(r.y + rr)
            if rr > 0 { arc(&path, rr, r.x + rr, r.y) }
        case let .circle(cx, cy, r):
            path.command("M"); path.number(cx - r); path.number(cy)
            arc(&path, r, cx + r, cy)
            arc(&path, r, cx - r, cy)
        case let .polygon(points):
            for (k, q) in points.enumerated() {
                path.command(k == 0 ? "M" : "L")
                path.number(q.x)
                path.number(q.y)
            }
        case let .path(polygons, _, _):
            for (j, points) in polygons.enumerated() {
                if j > 0 { path.command("Z") }
                for (k, q) in points.enumerated() {
                    path.command(k == 0 ? "M" : "L")
                    path.number(q.x)
                    path.number(q.y)
                }
            }
        }
        path.command("Z")
        return path.text
    }

    /// The mask `id` that shows the water region `figure`. A path shrunk by an inset is its fill
    /// less a round-joined stroke twice the inset wide, as a luminance mask (white fill, black
    /// stroke); every other figure is an alpha mask of its fill.
    func waterMask(_ figure: OutlineFigure, id: String) -> String {
        guard case let .path(_, evenOdd, inset) = figure, inset > 0 else {
            return "<mask id=\"\(id)\" style=\"mask-type:alpha\">\(shape(figure))</mask>"
        }
        let d = outlinePath(figure)
        return "<mask id=\"\(id)\"><path d=\"\(d)\" fill=\"#fff\"\(evenOdd ? " fill-rule=\"evenodd\"" : "")/>"
            + "<path d=\"\(d)\" fill=\"none\" stroke=\"#000\" stroke-width=\"\(number(2 * inset))\" stroke-linejoin=\"round\"/></mask>"
    }

    /// A clockwise arc of radius r to (x, y).
    private func arc(_ path: inout SVGPathData, _ r: Double, _ x: Double, _ y: Double) {
        path.command("A")
        path.number(r); path.number(r)
        path.number(units: 0); path.number(units: 0); path.number(units: path.units(1))
        path.number(x); path.number(y)
    }

    /// A figure filled white, as a mask's child.
    func shape(_ figure: OutlineFigure) -> String {
        switch figure {
        case let .rect(r, radius):
            let rx = radius > 0 ? " rx=\"\(number(radius))\"" : ""
            return "<rect x=\"\(number(r.x))\" y=\"\(number(r.y))\" width=\"\(number(r.width))\" height=\"\(number(r.height))\"\(rx) fill=\"#fff\"/>"
        case let .circle(cx, cy, r):
            return "<circle cx=\"\(number(cx))\" cy=\"\(number(cy))\" r=\"\(number(r))\" fill=\"#fff\"/>"
        case .polygon:
            return "<path d=\"\(outlinePath(figure))\" fill=\"#fff\"/>"
        case let .path(_, evenOdd, _):
            return "<path d=\"\(outlinePath(figure))\" fill=\"#fff\"\(evenOdd ? " fill-rule=\"evenodd\"" : "")/>"
        }
    }

    /// The label's texts: each text's glyphs drawn in the label's colours (the on-water colour
    /// through the mask `m` of the front layer, the two-tone rule). With one text it is one path,
    /// always shown. With several, each glyph's outline is written once (`g` and its glyph index)
    /// and each text is a group of uses of them (`t` and its number); each text is drawn by a
    /// group shown during its frames' time windows by keyframes with step timing, so at any time
    /// the SVG shows the text the raster frame of that time shows.
    func labelGroups(styles: inout [String], defs: inout [String]) -> [String] {
        guard let l = config.label else { return [] }
        let p = SVGDocument.prefix
        let n = labelFrames.count
        var out: [String] = []
        var glyphsWritten = Set<UInt32>()
        for (j, entry) in label.enumerated() {
            let id = label.count == 1 ? "\(p)t" : "\(p)t\(j)"
            if label.count == 1 {
                defs.append("<path id=\"\(id)\" d=\"\(glyphPath(entry.outline.commands, x: Double(entry.overlay.x), y: Double(entry.overlay.y)))\"/>")
            } else {
                var uses = ""
                for g in entry.outline.glyphs where !g.commands.isEmpty {
                    if glyphsWritten.insert(g.index).inserted { defs.append("<path id=\"\(p)g\(g.index)\" d=\"\(glyphPath(g.commands, x: 0, y: 0))\"/>") }
                    uses += "<use href=\"#\(p)g\(g.index)\" x=\"\(number(Double(entry.overlay.x) + g.x))\" y=\"\(number(Double(entry.overlay.y) + g.y))\"/>"
                }
                defs.append("<g id=\"\(id)\">\(uses)</g>")
            }
            let uses = labelUses(id, l)
            guard label.count > 1 else { out += uses; continue }
            // Keyframes where the text appears or disappears; step-end holds each value until the next.
            var keyframes: [String] = []
            var shown: Bool?
            for k in 0..<n where shown != (labelFrames[k] == j) {
                shown = labelFrames[k] == j
                keyframes.append("\(SVGMotion.percent(frameStart: k, of: n)){opacity:\(shown! ? 1 : 0)}")
            }
            keyframes.append("100%{opacity:\(shown! ? 1 : 0)}")
            let name = "\(p)l\(j)"
            styles.append("@keyframes \(name){" + keyframes.joined() + "}")
            let still = labelFrames[0] == j ? "" : "opacity:0;"
            out.append("<g style=\"\(still)animation:\(motion.animation(name, micros: motion.loopMicros, timing: "step-end"))\">" + uses.joined() + "</g>")
        }
        return out
    }

    /// The uses that draw the text `id` in the label's colours: its stroke, its fill, and its fill
    /// in the on-water colour through the front layer's mask (the two-tone rule).
    func labelUses(_ id: String, _ l: Label) -> [String] {
        let p = SVGDocument.prefix
        var uses: [String] = []
        if l.strokeWidth > 0 {
            uses.append("<use href=\"#\(id)\" fill=\"none\"\(style("stroke", "label-stroke")) stroke-width=\"\(number(2 * l.strokeWidth))\" stroke-linejoin=\"round\"/>")
        }
        uses.append("<use href=\"#\(id)\"\(style(fill: "label"))/>")
        uses.append("<use href=\"#\(id)\"\(style(fill: "label-on-water")) mask=\"url(#\(p)m)\"/>")
        return uses
    }

    /// A live label: every glyph any level shows (`SVGLive.labelText`), each outline written once
    /// (`g` and its glyph index) and used where it stands in its text with the opacity that shows
    /// it only at its levels, in a group that moves the text to where the raster centres it, of
    /// opacity 0 so that a use whose opacity does not compute stays hidden; beside them the
    /// preset's own text, hidden wherever the percent computes.
    func liveLabel(_ live: SVGLive, text: SVGLive.LiveText, defs: inout [String]) -> [String] {
        guard let l = config.label else { return [] }
        let p = SVGDocument.prefix
        let stroked = l.strokeWidth > 0
        var written = Set<UInt32>()
        func use(_ g: SVGLive.PlacedGlyph, x: Double, y: Double, opacity: String) -> String {
            if written.insert(g.index).inserted { defs.append("<path id=\"\(p)g\(g.index)\" d=\"\(glyphPath(g.commands, x: 0, y: 0))\"/>") }
            let stroke = stroked ? ";stroke-opacity:\(opacity)" : ""
            let place = (x == 0 ? "" : " x=\"\(number(x))\"") + (y == 0 ? "" : " y=\"\(number(y))\"")
            return "<use href=\"#\(p)g\(g.index)\"\(place) style=\"fill-opacity:\(opacity)\(stroke)\"/>"
        }
        var shown = ""
        for g in text.glyphs {
            for run in SVGLive.runs(g.percents) { shown += use(g, x: g.x, y: g.y, opacity: SVGLive.opacityText(run)) }
        }
        let own = Int((live.level * 100).rounded())
        var fallback = ""
        for g in text.glyphs where g.percents.contains(own) {
            fallback += use(g, x: text.origins[own].x + g.x, y: text.origins[own].y + g.y, opacity: live.fallbackOpacity)
        }
        let hidden = stroked ? "fill-opacity:0;stroke-opacity:0" : "fill-opacity:0"
        let move = "translate:\(live.stepFunction(text.origins.map(\.x), unit: "px")) \(live.stepFunction(text.origins.map(\.y), unit: "px"))"
        defs.append("<g id=\"\(p)t\"><g style=\"\(hidden);\(move)\">\(shown)</g>\(fallback)</g>")
        return labelUses("\(p)t", l)
    }

    /// Glyph outlines moved by (dx, dy), in output pixels.
    func glyphPath(_ commands: [OutlineCommand], x dx: Double, y dy: Double) -> String {
        var path = SVGPathData(decimals: 2)
        for c in commands {
            switch c {
            case let .move(px, py):
                path.command("M"); path.number(px + dx); path.number(py + dy)
            case let .line(px, py):
                path.command("L"); path.number(px + dx); path.number(py + dy)
            case let .quad(cx, cy, px, py):
                path.command("Q"); path.number(cx + dx); path.number(cy + dy); path.number(px + dx); path.number(py + dy)
            case let .cubic(ax, ay, bx, by, px, py):
                path.command("C")
                for v in [ax + dx, ay + dy, bx + dx, by + dy, px + dx, py + dy] { path.number(v) }
            case .close:
                path.command("Z")
            }
        }
        return path.text
    }

    // MARK: Rider

    /// `content`, drawn in the wave frame, turned onto the canvas (as it is for `"direction": "up"`).
    func oriented(_ content: String) -> String {
        let orientation = scene.model.orientation
        guard !orientation.isIdentity else { return content }
        let m = orientation.matrix
        return "<g transform=\"matrix(\([m.a, m.b, m.c, m.d, m.e, m.f].map { number($0) }.joined(separator: " ")))\">" + content + "</g>"
    }

    /// The rider: its image, shrunk to at most twice its displayed size, as a PNG data URI in a
    /// group placed and turned by keyframes at every planned frame.
    func riderGroup(_ rider: Rider, composited: Bool, styles: inout [String]) throws(WaveError) -> String {
        let p = SVGDocument.prefix
        let n = plan.frameCount
        let poses = scene.riderPoses(rider)
        func place(_ pose: (x: Double, y: Double, angle: Double)) -> String {
            let angle = SVGPathData.format(pose.angle * 180 / Double.pi, decimals: 2) + "deg"
            guard composited else { return "translate:\(px(pose.x)) \(px(pose.y));rotate:\(angle)" }
            return "transform:translate(\(px(pose.x)),\(px(pose.y))) rotate(\(angle))"
        }
        styles.append("@keyframes \(p)r{" + poses.enumerated().map { k, pose in
            "\(SVGMotion.percent(Double(k) / Double(n))){\(place(pose))}"
        }.joined() + "}")
        let png = try scene.riderPNG(rider, resolution: SVGDocument.riderResolution, format: "SVG").png
        let href = DataURI.encode(png, mediaType: "image/png")
        let ax = rider.anchor.x * rider.width, ay = rider.anchor.y * rider.height
        return "<g style=\"\(place(poses[0]));animation:\(motion.animation(p + "r", micros: motion.loopMicros))\">"
            + "<image x=\"\(number(-ax))\" y=\"\(number(-ay))\" width=\"\(number(rider.width))\" height=\"\(number(rider.height))\" href=\"\(href)\"/></g>"
    }

    // MARK: Motion

    /// Whether the document's motion is written as `transform` (see `move`): only when the level
    /// stays still, the water fills the canvas (no mask over it), no moving element lies under a
    /// mask and the document is not live. In Chromium 156 a composited drift inside a group whose
    /// own composited level moves is drawn off its place (spinner: 27.1 dB against the raster at
    /// t = 0); composited layers under the water's mask cost more than painting them (dark inline
    /// 2.45 → 3.03 × its GIF); a moving element under a mask (the label's on-water colour is masked
    /// by the front layer, a gradient layer by its surface) keeps the main thread painting every
    /// frame, and composited layers add a mask pass on top (orb inline 3.3 → 5.1 × its GIF).
    var composited: Bool {
        guard live == nil, !config.level.moves, label.isEmpty,
              !config.layers.indices.contains(where: { theme.isGradient("wave-\($0 + 1)") }),
              let figure = scene.model.outline.figure(inset: scene.model.waterInset) else { return false }
        return scene.fillsCanvas(figure)
    }

    /// A move by (x, y) output pixels as a CSS declaration: `transform:translate…()`, which
    /// Chromium animates on its compositor (for an SVG element as well as for HTML), or the
    /// `translate` property, which it animates on the main thread. Both place the element alike.
    func move(x: Double, y: Double, composited: Bool) -> String {
        guard composited else { return x == 0 ? "translate:0 \(px(y))" : y == 0 ? "translate:\(px(x))" : "translate:\(px(x)) \(px(y))" }
        if x == 0 { return "transform:translateY(\(px(y)))" }
        if y == 0 { return "transform:translateX(\(px(x)))" }
        return "transform:translate(\(px(x)),\(px(y)))"
    }

    // MARK: Text

    func group(_ items: [String], style: String) -> String {
        style.isEmpty ? items.joined() : "<g\(style)>" + items.joined() + "</g>"
    }

    func number(_ v: Double) -> String { SVGPathData.format(v, decimals: 2) }

    func px(_ v: Double) -> String {
        let s = number(v)
        return s == "0" ? s : s + "px"
    }

    /// ` style="fill:…"` painting with the theme colour `color` (`SVGTheme.value`), then `more`
    /// declarations.
    func style(fill color: String, then more: String = "") -> String {
        style("fill", color, then: more)
    }

    func style(_ property: String, _ color: String, then more: String = "") -> String {
        " style=\"\(property):\(theme.value(color))\(more.isEmpty ? "" : ";" + more)\""
    }

    /// Text from the preset (its description or name) as element content or an attribute value:
    /// markup characters escaped, characters XML forbids replaced (`MarkupText`). It also keeps
    /// the id prefix's stand-in (a control character) out of the text it stands in for.
    static func escape(_ s: String) -> String { MarkupText.escaped(s) }
}
