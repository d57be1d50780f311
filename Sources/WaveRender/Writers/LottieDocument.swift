import WavePlatform
import WaveKit
import WaveText

/// A Lottie (Bodymovin) animation of a preset: `fr` the planned frame rate, `ip` 0, `op` the loop's
/// frame count, so players loop it seamlessly. Each wave layer is a shape layer of its own (`wave 1`
/// … `wave n`, back to front): its surface, relative to the still water line, drifts by position
/// keyframes inside a group named `level` whose position (0, y) puts the water line at y (slot id
/// `level`), so a player that sets that position moves the water while the drift keeps looping. The
/// water is composed and then clipped to the shape by a track matte; the border ring is a stroke;
/// the label's glyph outlines are the matte of a layer coloured by the front layer's surface; the
/// rider is an embedded PNG moved and turned by keyframes at every planned frame, under a null
/// layer named `level`. Every colour carries a slot id (`ThemeColors` names) and the file a
/// top-level `slots` object. Only features lottie-web, lottie-android, lottie-ios and rlottie all
/// render (docs/lottie.md says which and why).
struct LottieDocument {
    let config: WaveConfig
    let plan: LoopPlan
    let scene: VectorScene
    /// Each distinct text of the label over the planned frames, in order of first appearance, with
    /// its placement on the canvas (the raster's) and its glyph outlines; empty without a label.
    let label: [(overlay: LabelOverlay, outline: TextOutline)]
    /// Runs of consecutive frames showing one text: the index in `label`, first frame, end frame.
    let labelRuns: [(text: Int, start: Int, end: Int)]
    /// The colours the file shows, by slot id.
    let colors: ThemeColors
    /// Every theme's colours, light first (only the file's own without a dark twin).
    let themes: [(name: String, colors: ThemeColors)]
    /// Colour slots that are translucent in some theme: their opacity is a slot too (`ID-opacity`).
    let translucent: Set<String>
    /// Whether the rider image is embedded as a data URI (a plain Lottie) or referenced as
    /// `/i/rider.png` (a dotLottie, which carries the image beside the animation).
    let embedsImages: Bool
    /// The still water line at frame 0, in output pixels from the canvas top.
    let waterLine: Double

    /// The rider image is embedded at up to this many pixels per displayed pixel.
    static let riderResolution = 1.0
    /// The Bodymovin version whose layout the file follows.
    static let version = "5.7.0"
    /// The slot id (and group and layer name) of the water line.
    static let levelSlot = "level"
    /// The rider image's name inside a dotLottie's `i/` folder.
    static let riderImageName = "rider.png"

    init(_ animation: Animation, label vectorLabel: VectorLabel, embedsImages: Bool = true) {
        config = animation.config
        plan = animation.plan
        scene = VectorScene(config: config, plan: plan)
        label = vectorLabel.texts.map { ($0.overlay, $0.outline) }
        var runs: [(text: Int, start: Int, end: Int)] = []
        for (k, t) in vectorLabel.textOfFrame.enumerated() {
            if let last = runs.last, last.text == t, last.end == k { runs[runs.count - 1].end = k + 1 } else { runs.append((t, k, k + 1)) }
        }
        labelRuns = runs
        let own = ThemeColors(animation.config), twins = animation.config.themeColors
        let all = WaveConfig.themes.compactMap { name in twins[name].map { (name: name, colors: $0) } }
        colors = own
        themes = all.isEmpty ? [("light", own)] : all
        translucent = Set((all.isEmpty ? [own] : all.map(\.colors)).flatMap(\.named).filter { $0.color.a < 255 }.map(\.name))
        self.embedsImages = embedsImages
        waterLine = scene.model.stillLevel(frame: 0, of: plan.frameCount)
    }

    var frames: Int { plan.frameCount }

    /// The slots the document's properties name, in order of first use: slot id and property.
    final class Slots {
        private(set) var entries: [(id: String, property: JSONNode)] = []

        /// `property` with the slot id `id` added, recorded as the slot's value on first use.
        func slotted(_ id: String, _ property: JSONNode) -> JSONNode {
            guard case let .object(members) = property.value else { return property }
            if !entries.contains(where: { $0.id == id }) { entries.append((id, property)) }
            return .object(members + [("sid", .string(id))])
        }

        /// The slot ids in use, `level` first, then the colours in `order`, each colour's opacity
        /// slot after it.
        func ids(order: ThemeColors) -> [String] {
            let rank = [LottieDocument.levelSlot] + order.named.flatMap { [$0.name, $0.name + "-opacity", $0.name + "-start", $0.name + "-end"] }
            return entries.map(\.id).sorted { (rank.firstIndex(of: $0) ?? rank.count) < (rank.firstIndex(of: $1) ?? rank.count) }
        }

        /// The top-level `slots` object: each slot's value as `{"p": property}`.
        func json(order: ThemeColors) -> JSONNode {
            .object(ids(order: order).map { id in (id, .object([("p", entries.first { $0.id == id }!.property)])) })
        }
    }

    /// The whole document.
    func json() throws(WaveError) -> JSONNode {
        try jsonWithSlots().document
    }

    /// The whole document, and the ids of the slots it uses.
    func jsonWithSlots() throws(WaveError) -> (document: JSONNode, slots: [String]) {
        let slots = Slots()
        let model = scene.model
        let levelKeyframes = scene.levelKeyframes()
        let level = slots.slotted(LottieDocument.levelSlot, levelPosition(levelKeyframes))
        let bottom = waterBottom(levelKeyframes: levelKeyframes)
        let surfaces = model.surfaces(frame: 0, of: frames)

        // Layers, top first. Without a water region (a border and gap that fill the shape) only the
        // border and the background show.
        var layers: [[(String, JSONNode)]] = []
        let pathOutline = model.outline.figure(inset: 0).flatMap { figure -> OutlineFigure? in
            if case .path = figure { return figure } else { return nil }
        }
        if let border = config.border, let outline = pathOutline {
            // A path's ring: a round-joined stroke twice the ring's width along the outline, matted
            // by the outline's fill.
            layers += [outlineMatte(outline, name: "border matte"),
                       shapeLayer("border", [group(LottieBezier.figures(outline).map(path)
                           + [stroke("border", border.color, width: 2 * model.borderWidth, roundJoin: true, slots: slots)])]) + [("tt", .int(1))]]
        } else if let border = config.border, let ring = model.outline.figure(inset: model.borderWidth / 2) {
            layers.append(shapeLayer("border", [group([path(LottieBezier.figure(ring)),
                                                      stroke("border", border.color, width: model.borderWidth, slots: slots)])]))
        }
        var assets: [JSONNode] = []
        if let figure = model.outline.figure(inset: model.waterInset) {
            let water = try waterLayers(surfaces: surfaces, bottom: bottom, level: level, levelKeyframes: levelKeyframes,
                                        slots: slots, assets: &assets)
            if scene.fillsCanvas(figure) {
                layers += water
            } else {
                // The water is composed first (a precomposition), then clipped to the shape by a
                // track matte: a mask would clip each layer on its own, so where overlapping layers
                // meet the edge their partial coverages would add up.
                assets.insert(.object([("id", .string("water")), ("layers", LottieDocument.layerList(water, frames: frames))]), at: 0)
                if case let .path(_, evenOdd, inset) = figure, inset > 0 {
                    // A path shrunk by an inset: a luminance matte, the outline's fill in white
                    // under a round-joined black stroke twice the inset wide.
                    var matte = shapeLayer("shape", [group(LottieBezier.figures(figure).map(path)
                        + [stroke(RGBA(0, 0, 0), width: 2 * inset, roundJoin: true), fill(RGBA(255, 255, 255), evenOdd: evenOdd)])])
                    matte.append(("td", .int(1)))
                    layers += [matte, precomposition("water") + [("tt", .int(3))]]
                } else {
                    layers += [outlineMatte(figure, name: "shape"), precomposition("water") + [("tt", .int(1))]]
                }
            }
        }
        if themes.contains(where: { ($0.colors["background"]?.a ?? 0) > 0 }) {
            let canvas = Rect(x: 0, y: 0, width: Double(config.width), height: Double(config.height))
            let paint = gradientFill("background", opacity: 1, slots: slots) ?? fill("background", config.background, slots: slots)
            layers.append(shapeLayer("background", [group([path(LottieBezier.figure(.rect(canvas, cornerRadius: 0))), paint])]))
        }

        return (.object([
            ("v", .string(LottieDocument.version)), ("nm", .string(config.name)), ("fr", .number(plan.fps)), ("ip", .int(0)),
            ("op", .int(frames)), ("w", .int(config.width)), ("h", .int(config.height)), ("ddd", .int(0)),
            ("assets", .array(assets)),
            ("layers", LottieDocument.layerList(layers, frames: frames)),
            ("slots", slots.json(order: colors)),
        ]), slots.ids(order: colors))
    }

    /// Layers given by their own members, numbered from 1 and shown over the whole loop. A member
    /// `("parent", name)` becomes the number of the layer of that name.
    static func layerList(_ layers: [[(String, JSONNode)]], frames: Int) -> JSONNode {
        var numbers: [String: Int] = [:]
        for (k, members) in layers.enumerated() {
            if case let .string(name)? = members.first(where: { $0.0 == "nm" })?.1.value, numbers[name] == nil { numbers[name] = k + 1 }
        }
        return .array(layers.enumerated().map { k, members in
            let resolved = members.map { key, value -> (String, JSONNode) in
                guard key == "parent", case let .string(name) = value.value, let n = numbers[name] else { return (key, value) }
                return (key, .int(n))
            }
            return .object([("ddd", .int(0)), ("ind", .int(k + 1))] + resolved + [("ip", .int(0)), ("op", .int(frames)), ("st", .int(0))])
        })
    }

    /// The level group's position: (0, the water line), moving with the level when it moves.
    /// Values carry 3 decimals.
    func levelPosition(_ keyframes: [VectorScene.Keyframe]?) -> JSONNode {
        guard let keyframes else { return LottieDocument.still(LottieDocument.numbers([0, waterLine], decimals: 3)) }
        let n = Double(frames)
        return LottieDocument.animated(keyframes.map { ($0.u * n, [0, waterLine + $0.value], $0.easing) }, decimals: 3)
    }

    /// How far below the water line the closed surface paths reach, in output pixels: down to the
    /// box's bottom (and a pixel more) from the highest water line the level reaches or a player may
    /// set (the box's top, level 1), so no surface shows its bottom edge.
    func waterBottom(levelKeyframes: [VectorScene.Keyframe]?) -> Double {
        let box = scene.model.waveBox
        let highest = min(box.y, waterLine + min(0, levelKeyframes?.map(\.value).min() ?? 0))
        return (box.maxY - highest + 1).rounded(.up)
    }

    /// The layers inside the water region, top first: the label (its part under the front layer
    /// through a track matte), the wave layers in front of the rider, the rider and the null layer
    /// `level` it hangs from, the wave layers behind it.
    func waterLayers(surfaces: WaveModel.Surfaces, bottom: Double, level: JSONNode, levelKeyframes: [VectorScene.Keyframe]?,
                     slots: Slots, assets: inout [JSONNode]) throws(WaveError) -> [[(String, JSONNode)]] {
        let model = scene.model
        var layers: [[(String, JSONNode)]] = []
        if let l = config.label, !label.isEmpty {
            // The glyphs as the alpha matte of a layer that paints `colorOnWater` under the front
            // layer's surface (the same moving surface, in the same level group) and `color`
            // elsewhere. A text that changes with the level: every glyph contour is written once,
            // in a group shown by hold opacity keyframes during the frames whose text holds it.
            let glyphGroups = labelGlyphGroups()
            var matte = shapeLayer("label", glyphGroups.map { group($0.paths + [fill(RGBA(255, 255, 255))], opacity: $0.opacity) })
            matte.append(("td", .int(1)))
            let boxes = label.map(\.overlay)
            let x0 = Double(boxes.map(\.x).min()!), y0 = Double(boxes.map(\.y).min()!)
            let x1 = Double(boxes.map { $0.x + $0.width }.max()!), y1 = Double(boxes.map { $0.y + $0.height }.max()!)
            // In the wave frame, as the front layer is: the layer turns both onto the canvas.
            let box = model.orientation.waveRect(Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
            let onWater = fill("label-on-water", l.colorOnWater, slots: slots)
            var colors = shapeLayer("label color", [
                levelGroup([waveGroup(layer: model.frontLayer, surfaces: surfaces, bottom: bottom, fill: onWater)], position: level),
                group([path(LottieBezier.figure(.rect(box, cornerRadius: 0))), fill("label", l.color, slots: slots)]),
            ], transform: orientation)
            colors.append(("tt", .int(1)))
            // The matte (td) comes right before the layer it mattes (tt).
            layers += [matte, colors]
            if l.strokeWidth > 0 {
                let outline = stroke("label-stroke", l.strokeColor, width: 2 * l.strokeWidth, roundJoin: true, slots: slots)
                layers.append(shapeLayer("label stroke", glyphGroups.map { group($0.paths + [outline], opacity: $0.opacity) }))
            }
        }
        func wave(_ i: Int) -> [[(String, JSONNode)]] {
            let layer = config.layers[i]
            let name = ThemeColors.wave(i)
            if let paint = gradientFill(name, opacity: layer.opacity, slots: slots) {
                // A still rectangle painted with the gradient under the moving surface as its alpha
                // matte, so the gradient stays on the shape's box while the water drifts and rises. The
                // matte is turned onto the canvas for the fill direction; the rectangle is on it already.
                let white = fill(RGBA(255, 255, 255))
                var matte = shapeLayer("wave \(i + 1) surface",
                                       [levelGroup([waveGroup(layer: i, surfaces: surfaces, bottom: bottom, fill: white)], position: level)],
                                       transform: orientation)
                matte.append(("td", .int(1)))
                let canvas = Rect(x: 0, y: 0, width: Double(config.width), height: Double(config.height))
                var painted = shapeLayer("wave \(i + 1)", [group([path(LottieBezier.figure(.rect(canvas, cornerRadius: 0))), paint])])
                painted.append(("tt", .int(1)))
                return [matte, painted]
            }
            let paint = fill(name, layer.color, opacity: layer.opacity, slots: slots)
            return [shapeLayer("wave \(i + 1)", [levelGroup([waveGroup(layer: i, surfaces: surfaces, bottom: bottom, fill: paint)], position: level)],
                               transform: orientation)]
        }
        let split = scene.riderLayer
        layers += ((split + 1)..<config.layers.count).reversed().flatMap(wave)
        if let rider = config.rider {
            let (png, width, height) = try scene.riderPNG(rider, resolution: LottieDocument.riderResolution, format: "Lottie")
            let image: [(String, JSONNode)] = embedsImages
                ? [("u", .string("")), ("p", .string(DataURI.encode(png, mediaType: "image/png"))), ("e", .int(1))]
                : [("u", .string("/i/")), ("p", .string(LottieDocument.riderImageName)), ("e", .int(0))]
            assets.append(.object([("id", .string("rider")), ("w", .int(width)), ("h", .int(height))] + image))
            layers.append(riderLayer(rider, imageWidth: width, imageHeight: height, levelKeyframes: levelKeyframes))
            // Right under its child: a reader that nests children inside their parent (the lottie
            // package's SVG export) then still draws the rider between the same wave layers.
            layers.append([("ty", .int(3)), ("nm", .string(LottieDocument.levelSlot)), ("ks", .object([("p", level)]))])
        }
        layers += (0...split).reversed().flatMap(wave)
        return layers
    }

    /// The rider image's PNG bytes as the file references them (nil without a rider).
    func riderImage() throws(WaveError) -> [UInt8]? {
        guard let rider = config.rider else { return nil }
        return try scene.riderPNG(rider, resolution: LottieDocument.riderResolution, format: "Lottie").png
    }

    // MARK: Layers

    /// A track matte (`td` 1) of `figure`'s fill, by its fill rule.
    func outlineMatte(_ figure: OutlineFigure, name: String) -> [(String, JSONNode)] {
        var evenOdd = false
        if case let .path(_, rule, _) = figure { evenOdd = rule }
        var matte = shapeLayer(name, [group(LottieBezier.figures(figure).map(path) + [fill(RGBA(255, 255, 255), evenOdd: evenOdd)])])
        matte.append(("td", .int(1)))
        return matte
    }

    /// A layer showing the precomposition `id` over the whole canvas.
    func precomposition(_ id: String) -> [(String, JSONNode)] {
        [("ty", .int(0)), ("nm", .string(id)), ("refId", .string(id)), ("ks", .object([])), ("w", .int(config.width)), ("h", .int(config.height))]
    }

    /// A shape layer's members; `transform` its layer transform (none when empty).
    func shapeLayer(_ name: String, _ shapes: [JSONNode], transform: JSONNode = .object([])) -> [(String, JSONNode)] {
        [("ty", .int(4)), ("nm", .string(name)), ("ks", transform), ("shapes", .array(shapes))]
    }

    /// The layer transform that turns the wave frame (where the water fills upwards) onto the
    /// canvas: none for `up`; a mirror (scale −100 %), a quarter turn (90°) or both, then a move.
    var orientation: JSONNode {
        let w = Double(config.width), h = Double(config.height)
        let (position, rotation, scale): ([Double], Double, [Double])
        switch config.direction {
        case .up: return .object([])
        case .down: (position, rotation, scale) = ([0, h], 0, [100, -100])
        case .right: (position, rotation, scale) = ([w, 0], 90, [100, 100])
        case .left: (position, rotation, scale) = ([0, 0], 90, [100, -100])
        }
        return .object([("p", LottieDocument.still(LottieDocument.numbers(position))), ("r", LottieDocument.still(.number(rotation))),
                        ("s", LottieDocument.still(LottieDocument.numbers(scale)))])
    }

    /// The rider as an image layer under the null layer `level`: anchored at its anchor point,
    /// scaled to its displayed size, placed relative to the water line and turned by linear
    /// keyframes at every planned frame.
    func riderLayer(_ rider: Rider, imageWidth: Int, imageHeight: Int, levelKeyframes: [VectorScene.Keyframe]?) -> [(String, JSONNode)] {
        let poses = scene.riderPoses(rider)
        let n = Double(frames)
        // Upwards the rider is placed relative to its parent, the null layer at the water line;
        // in any other direction it is placed on the canvas, unparented.
        let parented = config.direction == .up
        let position = poses.enumerated().map { k, pose in
            let line = parented ? waterLine + (levelKeyframes == nil ? 0 : scene.levelOffset(Double(k) / n)) : 0
            return (Double(k), [pose.x, pose.y - line], nil as VectorScene.Easing?)
        }
        let rotation = poses.enumerated().map { k, pose in (Double(k), [pose.angle * 180 / Double.pi], nil as VectorScene.Easing?) }
        let sx = 100 * rider.width / Double(imageWidth), sy = 100 * rider.height / Double(imageHeight)
        let transform = JSONNode.object([
            ("a", LottieDocument.still(LottieDocument.numbers([rider.anchor.x * Double(imageWidth), rider.anchor.y * Double(imageHeight)]))),
            ("p", LottieDocument.animated(position)),
            ("r", LottieDocument.animated(rotation)),
            ("s", LottieDocument.still(LottieDocument.numbers([sx, sy], decimals: 4))),
        ])
        return [("ty", .int(2)), ("nm", .string("rider"))] + (parented ? [("parent", .string(LottieDocument.levelSlot))] : [])
            + [("refId", .string("rider")), ("ks", transform)]
    }

    // MARK: Shapes

    /// Wave layer i at frame 0 as a group: its surface relative to the still water line (y 0),
    /// closed down to `bottom`, painted by `fill`, drifting by its cycles × wavelength over the loop
    /// (linear keyframes at frames 0 and N).
    func waveGroup(layer i: Int, surfaces: WaveModel.Surfaces, bottom: Double, fill paint: JSONNode) -> JSONNode {
        let layer = config.layers[i]
        let shift = Double(plan.layers[i].cycles) * layer.wavelength
        let sine = SineBeziers(amplitude: layer.amplitude, wavelength: layer.wavelength, phase: surfaces.phase[i],
                               origin: surfaces.origin, base: surfaces.base[i] - waterLine, tolerance: VectorScene.bezierTolerance)
        let (lower, upper) = scene.span(shift: shift)
        let segments = sine.segments(from: lower, to: upper)
        let surface = VectorScene.roundedWithinTolerance { decimals in
            let path = LottieBezier.surface(segments, bottom: bottom, decimals: decimals)
            return (path, sine.deviation(of: path.segments(0..<segments.count), samples: 64))
        }
        return group([path(surface), paint], position: shift == 0 ? nil : LottieDocument.animated([(0, [0, 0], nil), (Double(frames), [shift, 0], nil)]))
    }

    /// `items` in the group named `level`, placed at the water line by `position` (the slotted
    /// level property).
    func levelGroup(_ items: [JSONNode], position: JSONNode) -> JSONNode {
        group(items, position: position, name: LottieDocument.levelSlot)
    }

    /// The label's glyph contours grouped by the frames that show them: each distinct contour (a
    /// glyph at its place) once, groups in order of first appearance, each with hold opacity
    /// keyframes (nil when it shows on every frame).
    func labelGlyphGroups() -> [(paths: [JSONNode], opacity: JSONNode?)] {
        var textFrames = [[Int]](repeating: [], count: label.count)
        for run in labelRuns { textFrames[run.text] += Array(run.start..<run.end) }
        var order: [[Int]] = []
        var byTexts: [[Int]: [JSONNode]] = [:]
        var textsOf: [String: [Int]] = [:]
        var contours: [(key: String, node: JSONNode)] = []
        for (i, (overlay, outline)) in label.enumerated() {
            for contour in LottieBezier.glyphs(outline, dx: Double(overlay.x), dy: Double(overlay.y)).map(path) {
                let key = contour.compactText
                if textsOf[key] == nil { contours.append((key, contour)) }
                if textsOf[key]?.last != i { textsOf[key, default: []].append(i) }
            }
        }
        for (key, node) in contours {
            let texts = textsOf[key]!
            if byTexts[texts] == nil { order.append(texts) }
            byTexts[texts, default: []].append(node)
        }
        return order.map { texts in
            var shown = [Bool](repeating: false, count: frames)
            for t in texts { for k in textFrames[t] { shown[k] = true } }
            guard shown.contains(false) else { return (byTexts[texts]!, nil) }
            var keys: [JSONNode] = []
            for k in 0..<frames where k == 0 || shown[k] != shown[k - 1] {
                keys.append(.object([("t", .int(k)), ("s", .array([.int(shown[k] ? 100 : 0)])), ("h", .int(1))]))
            }
            return (byTexts[texts]!, .object([("a", .int(1)), ("k", .array(keys))]))
        }
    }

    /// A group of shape items moved by `position` (an animated property), or not moved, and shown
    /// at `opacity` (an animated property) or fully, named `name` or unnamed. The transform is
    /// written even when it is the identity: rlottie takes a group without one as still, whatever
    /// moves inside it.
    func group(_ items: [JSONNode], position: JSONNode? = nil, opacity: JSONNode? = nil, name: String? = nil) -> JSONNode {
        let transform: [(String, JSONNode)] = [("ty", .string("tr"))] + (position.map { [("p", $0)] } ?? []) + (opacity.map { [("o", $0)] } ?? [])
        return .object([("ty", .string("gr"))] + (name.map { [("nm", .string($0))] } ?? []) + [("it", .array(items + [.object(transform)]))])
    }

    func path(_ bezier: LottieBezier) -> JSONNode {
        .object([("ty", .string("sh")), ("ks", LottieDocument.still(bezier.json))])
    }

    /// A fill of `color` at its alpha times `opacity`, unslotted (the mattes' white), by the fill rule.
    func fill(_ color: RGBA, opacity: Double = 1, evenOdd: Bool = false) -> JSONNode {
        .object([("ty", .string("fl")), ("c", LottieDocument.still(LottieDocument.rgb(color))),
                 ("o", LottieDocument.still(.number(LottieDocument.opacity(color, opacity))))]
                + (evenOdd ? [("r", .int(2))] : []))
    }

    /// The gradients painting `name` (`background`, `wave-N`) in each theme, light first, when it is
    /// a gradient in any of them (nil otherwise): a theme where it is a flat colour takes a
    /// gradient of that colour alone, along the same line.
    func themedGradients(_ name: String) -> [LinearGradient]? {
        guard let model = themes.lazy.compactMap({ $0.colors.gradients[name] }).first else { return nil }
        return themes.map { gradient(name, in: $0.colors, model: model) }
    }

    /// `name`'s paint in `colors` as a gradient: its own, or its flat colour as two stops along
    /// `model`'s line.
    func gradient(_ name: String, in colors: ThemeColors, model: LinearGradient) -> LinearGradient {
        if let g = colors.gradients[name] { return g }
        let c = colors[name] ?? .transparent
        return LinearGradient(direction: model.direction, stops: [.init(c, 0), .init(c, 1)])
    }

    /// The box `name`'s gradient spans: the canvas for the background's, the outline box for a layer's.
    func gradientBox(_ name: String) -> Rect {
        name == "background" ? Rect(x: 0, y: 0, width: Double(config.width), height: Double(config.height)) : config.layerGradientBox
    }

    /// A gradient as Lottie writes it over `box`: the start and end points, and the stops at their
    /// offsets in 0…1. Lottie's stop positions lie in 0…1, so when CSS's run beyond them the start
    /// and end points move out to the first and last position.
    static func gradientGeometry(_ gradient: LinearGradient, box: Rect) -> (start: [Double], end: [Double], stops: [(offset: Double, color: RGBA)]) {
        let stops = gradient.resolvedStops
        let (start, end) = gradient.line(in: box)
        let lo = min(0, stops[0].position), hi = max(1, stops[stops.count - 1].position)
        let span = hi - lo
        func at(_ t: Double) -> [Double] {
            [start.x + (end.x - start.x) * t, start.y + (end.y - start.y) * t].map { LottieBezier.round($0, decimals: 3) }
        }
        return (at(lo), at(hi), stops.map { (span > 0 ? LottieBezier.round(($0.position - lo) / span, decimals: 4) : 0, $0.color) })
    }

    /// The linear gradient fill (`gf`) painting `name` at `opacity`, when it is a gradient in some
    /// theme (nil otherwise): its stops' colors, and their alphas when any is translucent. The
    /// stops are the slot `name` (a dotLottie theme's `Gradient` rule switches them); when the
    /// themes' gradients run along different lines, the start and end points are the slots
    /// `NAME-start` and `NAME-end` too.
    func gradientFill(_ name: String, opacity: Double, slots: Slots) -> JSONNode? {
        guard let all = themedGradients(name) else { return nil }
        let box = gradientBox(name)
        let own = LottieDocument.gradientGeometry(gradient(name, in: colors, model: all[0]), box: box)
        let lines = Set(all.map { g -> [Double] in let l = LottieDocument.gradientGeometry(g, box: box); return l.start + l.end })
        var start = LottieDocument.still(LottieDocument.numbers(own.start, decimals: 3))
        var end = LottieDocument.still(LottieDocument.numbers(own.end, decimals: 3))
        if lines.count > 1 {
            start = slots.slotted(name + "-start", start)
            end = slots.slotted(name + "-end", end)
        }
        return .object([("ty", .string("gf")), ("o", LottieDocument.still(.number(LottieBezier.round(opacity * 100, decimals: 2)))),
                        ("r", .int(1)), ("s", start), ("e", end), ("t", .int(1)),
                        ("g", slots.slotted(name, LottieDocument.gradientStops(own.stops)))])
    }

    /// A gradient's stops as Lottie's `g`: the count `p`, and `k` the offsets with their colors,
    /// then the offsets with their alphas when any is translucent.
    static func gradientStops(_ stops: [(offset: Double, color: RGBA)]) -> JSONNode {
        var values: [Double] = []
        for s in stops {
            values.append(s.offset)
            values += channels(s.color)
        }
        if stops.contains(where: { $0.color.a < 255 }) {
            for s in stops { values += [s.offset, Double(s.color.a) / 255] }
        }
        return .object([("p", .int(stops.count)), ("k", still(numbers(values, decimals: 4)))])
    }

    /// An unslotted stroke of `color` (a matte's black), `width` output pixels wide.
    func stroke(_ color: RGBA, width: Double, roundJoin: Bool = false) -> JSONNode {
        .object([("ty", .string("st")), ("c", LottieDocument.still(LottieDocument.rgb(color))),
                 ("o", LottieDocument.still(.number(LottieDocument.opacity(color, 1)))),
                 ("w", LottieDocument.still(.number(LottieBezier.round(width, decimals: 3)))),
                 ("lc", .int(roundJoin ? 2 : 1)), ("lj", .int(roundJoin ? 2 : 1)), ("ml", .int(10))])
    }

    /// A fill of the colour slot `id` (showing `color`) at its alpha times `opacity`; the opacity
    /// is the slot `ID-opacity` when the colour is translucent in some theme.
    func fill(_ id: String, _ color: RGBA, opacity: Double = 1, slots: Slots) -> JSONNode {
        .object([("ty", .string("fl")), ("c", slots.slotted(id, LottieDocument.still(LottieDocument.rgb(color)))),
                 ("o", opacityProperty(id, color, opacity: opacity, slots: slots))])
    }

    func opacityProperty(_ id: String, _ color: RGBA, opacity: Double, slots: Slots) -> JSONNode {
        let o = LottieDocument.still(.number(LottieDocument.opacity(color, opacity)))
        return translucent.contains(id) ? slots.slotted(id + "-opacity", o) : o
    }

    /// A stroke of the colour slot `id` (showing `color`), `width` output pixels wide, mitred (or
    /// round) at the corners.
    func stroke(_ id: String, _ color: RGBA, width: Double, roundJoin: Bool = false, slots: Slots) -> JSONNode {
        .object([("ty", .string("st")), ("c", slots.slotted(id, LottieDocument.still(LottieDocument.rgb(color)))),
                 ("o", opacityProperty(id, color, opacity: 1, slots: slots)),
                 ("w", LottieDocument.still(.number(LottieBezier.round(width, decimals: 3)))),
                 ("lc", .int(roundJoin ? 2 : 1)), ("lj", .int(roundJoin ? 2 : 1)), ("ml", .int(10))])
    }

    /// A colour's alpha times `opacity`, in percent with 2 decimals.
    static func opacity(_ color: RGBA, _ opacity: Double) -> Double {
        LottieBezier.round(Double(color.a) / 255 * opacity * 100, decimals: 2)
    }

    // MARK: Themes

    /// The rules of a dotLottie theme that sets every colour slot of `slots` (the ids the document
    /// uses) to `colors` (and the opacity slots of translucent colours), in the order of `colors`.
    func themeRules(_ colors: ThemeColors, slots: [String]) -> JSONNode {
        var rules: [JSONNode] = []
        for (id, color) in colors.named where slots.contains(id) {
            if let all = themedGradients(id) {
                // A gradient's stops as dotLottie writes them: each offset with its color (red,
                // green, blue and alpha in 0…1); its line when that differs between the themes.
                let geometry = LottieDocument.gradientGeometry(gradient(id, in: colors, model: all[0]), box: gradientBox(id))
                let stops = geometry.stops.map { s -> JSONNode in
                    .object([("offset", .number(s.offset)),
                             ("color", LottieDocument.numbers(LottieDocument.channels(s.color)
                                                              + [Double(s.color.a) / 255], decimals: 4))])
                }
                rules.append(.object([("id", .string(id)), ("type", .string("Gradient")), ("value", .array(stops))]))
                for (suffix, point) in [("-start", geometry.start), ("-end", geometry.end)] where slots.contains(id + suffix) {
                    rules.append(.object([("id", .string(id + suffix)), ("type", .string("Vector")),
                                          ("value", LottieDocument.numbers(point, decimals: 3))]))
                }
                continue
            }
            rules.append(.object([("id", .string(id)), ("type", .string("Color")), ("value", LottieDocument.rgb(color))]))
            if slots.contains(id + "-opacity") {
                let scale = id.hasPrefix("wave-") ? config.layers[Int(id.dropFirst(5))! - 1].opacity : 1
                rules.append(.object([("id", .string(id + "-opacity")), ("type", .string("Scalar")),
                                      ("value", .number(LottieDocument.opacity(color, scale)))]))
            }
        }
        return .object([("rules", .array(rules))])
    }

    // MARK: Values

    /// A property that does not change: `{"a":0,"k":value}`.
    static func still(_ value: JSONNode) -> JSONNode {
        .object([("a", .int(0)), ("k", value)])
    }

    /// Numbers rounded to `decimals`.
    static func numbers(_ values: [Double], decimals: Int = 2) -> JSONNode {
        .array(values.map { .number(LottieBezier.round($0, decimals: decimals)) })
    }

    /// An animated property: keyframes at frame times t with values s, each eased towards the next
    /// by its Bézier handles (nil: linear). Times are rounded to 3 decimals, values to `decimals`.
    static func animated(_ keyframes: [(t: Double, s: [Double], easing: VectorScene.Easing?)], decimals: Int = 2) -> JSONNode {
        .object([("a", .int(1)), ("k", .array(keyframes.enumerated().map { k, key in
            var members: [(String, JSONNode)] = [("t", .number(LottieBezier.round(key.t, decimals: 3))), ("s", numbers(key.s, decimals: decimals))]
            if k < keyframes.count - 1 {
                let e = key.easing ?? VectorScene.Easing(x1: 0, y1: 0, x2: 1, y2: 1)
                members += [("o", .object([("x", .number(e.x1)), ("y", .number(e.y1))])),
                            ("i", .object([("x", .number(e.x2)), ("y", .number(e.y2))]))]
            }
            return .object(members)
        }))])
    }

    /// A colour's red, green and blue in 0…1: each channel c as (c + ¼) / 255 with 4 decimals, so
    /// that players that round c × 255 (lottie-web) and those that truncate it (rlottie,
    /// lottie-android) get the same 8-bit colour.
    static func rgb(_ c: RGBA) -> JSONNode {
        numbers(channels(c), decimals: 4)
    }

    /// `c`'s red, green and blue as `rgb` writes them, before rounding.
    static func channels(_ c: RGBA) -> [Double] {
        [c.r, c.g, c.b].map { min(1, (Double($0) + 0.25) / 255) }
    }
}
