import Foundation
import WaveKit
import WaveText

/// A Lottie (Bodymovin) animation of a preset: `fr` the planned frame rate, `ip` 0, `op` the loop's
/// frame count, so players loop it seamlessly. Shape layers hold the wave layers (closed Bézier
/// paths drifting by position keyframes inside a group that the level moves), composed and then
/// clipped to the shape by a track matte; the border ring is a stroke; the label's glyph outlines
/// are the matte of a layer coloured by the front layer's surface; the rider is an embedded PNG
/// moved and turned by keyframes at every planned frame. Only features lottie-web, lottie-android,
/// lottie-ios and rlottie all render (docs/lottie.md says which and why).
struct LottieDocument {
    let config: WaveConfig
    let plan: LoopPlan
    let scene: VectorScene
    /// Each distinct text of the label over the planned frames, in order of first appearance, with
    /// its placement on the canvas (the raster's) and its glyph outlines; empty without a label.
    let label: [(overlay: LabelOverlay, outline: TextOutline)]
    /// Runs of consecutive frames showing one text: the index in `label`, first frame, end frame.
    let labelRuns: [(text: Int, start: Int, end: Int)]

    /// The rider image is embedded at up to this many pixels per displayed pixel.
    static let riderResolution = 1.0
    /// The Bodymovin version whose layout the file follows.
    static let version = "5.7.0"

    init(_ animation: Animation, label vectorLabel: VectorLabel) {
        config = animation.config
        plan = animation.plan
        scene = VectorScene(config: config, plan: plan)
        label = vectorLabel.texts.map { ($0.overlay, $0.outline) }
        var runs: [(text: Int, start: Int, end: Int)] = []
        for (k, t) in vectorLabel.textOfFrame.enumerated() {
            if let last = runs.last, last.text == t, last.end == k { runs[runs.count - 1].end = k + 1 } else { runs.append((t, k, k + 1)) }
        }
        labelRuns = runs
    }

    var frames: Int { plan.frameCount }

    /// The whole document.
    func json() throws(RenderError) -> JSONNode {
        let model = scene.model
        let levelKeyframes = scene.levelKeyframes()
        let bottom = scene.waterBottom(levelKeyframes: levelKeyframes)
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
            layers += [outlineMatte(outline), shapeLayer([group(LottieBezier.figures(outline).map(path)
                + [stroke(border.color, width: 2 * model.borderWidth, roundJoin: true)])]) + [("tt", .int(1))]]
        } else if let border = config.border, let ring = model.outline.figure(inset: model.borderWidth / 2) {
            layers.append(shapeLayer([group([path(LottieBezier.figure(ring)), stroke(border.color, width: model.borderWidth)])]))
        }
        var assets: [JSONNode] = []
        if let figure = model.outline.figure(inset: model.waterInset) {
            let water = try waterLayers(surfaces: surfaces, bottom: bottom, levelKeyframes: levelKeyframes, assets: &assets)
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
                    var matte = shapeLayer([group(LottieBezier.figures(figure).map(path)
                        + [stroke(RGBA(0, 0, 0), width: 2 * inset, roundJoin: true), fill(RGBA(255, 255, 255), evenOdd: evenOdd)])])
                    matte.append(("td", .int(1)))
                    layers += [matte, precomposition("water") + [("tt", .int(3))]]
                } else {
                    layers += [outlineMatte(figure), precomposition("water") + [("tt", .int(1))]]
                }
            }
        }
        if config.background.a > 0 {
            layers.append([("ty", .int(1)), ("sc", .string(LottieDocument.hex(config.background))), ("sw", .int(config.width)),
                           ("sh", .int(config.height)), ("ks", opacityTransform(Double(config.background.a) / 255))])
        }

        return .object([
            ("v", .string(LottieDocument.version)), ("nm", .string(config.name)), ("fr", .number(plan.fps)), ("ip", .int(0)),
            ("op", .int(frames)), ("w", .int(config.width)), ("h", .int(config.height)), ("ddd", .int(0)),
            ("assets", .array(assets)),
            ("layers", LottieDocument.layerList(layers, frames: frames)),
        ])
    }

    /// Layers given by their own members, numbered from 1 and shown over the whole loop.
    static func layerList(_ layers: [[(String, JSONNode)]], frames: Int) -> JSONNode {
        .array(layers.enumerated().map { k, members in
            .object([("ddd", .int(0)), ("ind", .int(k + 1))] + members + [("ip", .int(0)), ("op", .int(frames)), ("st", .int(0))])
        })
    }

    /// The layers inside the water region, top first: the label (its part under the front layer
    /// through a track matte), the layers in front of the rider, the rider, the layers behind it.
    func waterLayers(surfaces: WaveModel.Surfaces, bottom: Double, levelKeyframes: [VectorScene.Keyframe]?,
                     assets: inout [JSONNode]) throws(RenderError) -> [[(String, JSONNode)]] {
        let model = scene.model
        let waves = config.layers.indices.map { waveGroup(layer: $0, surfaces: surfaces, bottom: bottom) }
        var layers: [[(String, JSONNode)]] = []
        if let l = config.label, !label.isEmpty {
            // The glyphs as the alpha matte of a layer that paints `colorOnWater` under the front
            // layer's surface (the same moving surface) and `color` elsewhere. A text that changes
            // with the level: every glyph contour is written once, in a group shown by hold
            // opacity keyframes during the frames whose text holds it at that place.
            let glyphGroups = labelGlyphGroups()
            var matte = shapeLayer(glyphGroups.map { group($0.paths + [fill(RGBA(255, 255, 255))], opacity: $0.opacity) })
            matte.append(("td", .int(1)))
            let boxes = label.map(\.overlay)
            let x0 = Double(boxes.map(\.x).min()!), y0 = Double(boxes.map(\.y).min()!)
            let x1 = Double(boxes.map { $0.x + $0.width }.max()!), y1 = Double(boxes.map { $0.y + $0.height }.max()!)
            let box = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            var colors = shapeLayer([
                level([waveGroup(layer: model.frontLayer, surfaces: surfaces, bottom: bottom, color: l.colorOnWater)], keyframes: levelKeyframes),
                group([path(LottieBezier.figure(.rect(box, cornerRadius: 0))), fill(l.color)]),
            ])
            colors.append(("tt", .int(1)))
            // The matte (td) comes right before the layer it mattes (tt).
            layers += [matte, colors]
            if l.strokeWidth > 0 {
                let outline = stroke(l.strokeColor, width: 2 * l.strokeWidth, roundJoin: true)
                layers.append(shapeLayer(glyphGroups.map { group($0.paths + [outline], opacity: $0.opacity) }))
            }
        }
        let split = scene.riderLayer
        if split < model.frontLayer {
            layers.append(shapeLayer([level(waves[(split + 1)...].reversed(), keyframes: levelKeyframes)]))
        }
        if let rider = config.rider {
            let (png, width, height) = try scene.riderPNG(rider, resolution: LottieDocument.riderResolution, format: "Lottie")
            assets.append(.object([("id", .string("rider")), ("w", .int(width)), ("h", .int(height)), ("u", .string("")),
                                   ("p", .string("data:image/png;base64," + Data(png).base64EncodedString())), ("e", .int(1))]))
            layers.append(riderLayer(rider, imageWidth: width, imageHeight: height))
        }
        layers.append(shapeLayer([level(waves[...split].reversed(), keyframes: levelKeyframes)]))
        return layers
    }

    // MARK: Layers

    /// A track matte (`td` 1) of `figure`'s fill, by its fill rule.
    func outlineMatte(_ figure: OutlineFigure) -> [(String, JSONNode)] {
        var evenOdd = false
        if case let .path(_, rule, _) = figure { evenOdd = rule }
        var matte = shapeLayer([group(LottieBezier.figures(figure).map(path) + [fill(RGBA(255, 255, 255), evenOdd: evenOdd)])])
        matte.append(("td", .int(1)))
        return matte
    }

    /// A layer showing the precomposition `id` over the whole canvas.
    func precomposition(_ id: String) -> [(String, JSONNode)] {
        [("ty", .int(0)), ("refId", .string(id)), ("ks", .object([])), ("w", .int(config.width)), ("h", .int(config.height))]
    }

    /// A shape layer's members.
    func shapeLayer(_ shapes: [JSONNode]) -> [(String, JSONNode)] {
        [("ty", .int(4)), ("ks", .object([])), ("shapes", .array(shapes))]
    }

    /// The rider as an image layer: anchored at its anchor point, scaled to its displayed size,
    /// placed and turned by linear keyframes at every planned frame.
    func riderLayer(_ rider: Rider, imageWidth: Int, imageHeight: Int) -> [(String, JSONNode)] {
        let poses = scene.riderPoses(rider)
        let position = poses.enumerated().map { k, pose in (Double(k), [pose.x, pose.y], nil as VectorScene.Easing?) }
        let rotation = poses.enumerated().map { k, pose in (Double(k), [pose.angle * 180 / Double.pi], nil as VectorScene.Easing?) }
        let sx = 100 * rider.width / Double(imageWidth), sy = 100 * rider.height / Double(imageHeight)
        let transform = JSONNode.object([
            ("a", LottieDocument.still(LottieDocument.numbers([rider.anchor.x * Double(imageWidth), rider.anchor.y * Double(imageHeight)]))),
            ("p", LottieDocument.animated(position)),
            ("r", LottieDocument.animated(rotation)),
            ("s", LottieDocument.still(LottieDocument.numbers([sx, sy], decimals: 4))),
        ])
        return [("ty", .int(2)), ("refId", .string("rider")), ("ks", transform)]
    }

    // MARK: Shapes

    /// Wave layer i at frame 0 as a group: its surface closed down to `bottom`, filled, drifting by
    /// its cycles × wavelength over the loop (linear keyframes at frames 0 and N). `color` replaces
    /// the layer's colour and opacity (the label's colour on the water).
    func waveGroup(layer i: Int, surfaces: WaveModel.Surfaces, bottom: Double, color: RGBA? = nil) -> JSONNode {
        let layer = config.layers[i]
        let shift = Double(plan.layers[i].cycles) * layer.wavelength
        let (sine, segments) = scene.surface(layer: i, surfaces: surfaces, shift: shift)
        let surface = VectorScene.roundedWithinTolerance { decimals in
            let path = LottieBezier.surface(segments, bottom: bottom, decimals: decimals)
            return (path, sine.deviation(of: path.segments(0..<segments.count), samples: 64))
        }
        let items = [path(surface), color.map { fill($0) } ?? fill(layer.color, opacity: layer.opacity)]
        return group(items, position: shift == 0 ? nil : LottieDocument.animated([(0, [0, 0], nil), (Double(frames), [shift, 0], nil)]))
    }

    /// `items` in a group that the level moves (keyframes of its vertical offset), or as they are
    /// in a plain group when the level is still.
    func level<C: Collection>(_ items: C, keyframes: [VectorScene.Keyframe]?) -> JSONNode where C.Element == JSONNode {
        let n = Double(frames)
        return group(Array(items), position: keyframes.map { k in LottieDocument.animated(k.map { ($0.u * n, [0, $0.value], $0.easing) }) })
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
    /// at `opacity` (an animated property) or fully. The transform is written even when it is the
    /// identity: rlottie takes a group without one as still, whatever moves inside it.
    func group(_ items: [JSONNode], position: JSONNode? = nil, opacity: JSONNode? = nil) -> JSONNode {
        let transform: [(String, JSONNode)] = [("ty", .string("tr"))] + (position.map { [("p", $0)] } ?? []) + (opacity.map { [("o", $0)] } ?? [])
        return .object([("ty", .string("gr")), ("it", .array(items + [.object(transform)]))])
    }

    func path(_ bezier: LottieBezier) -> JSONNode {
        .object([("ty", .string("sh")), ("ks", LottieDocument.still(bezier.json))])
    }

    /// A fill of `color` at its alpha times `opacity`.
    func fill(_ color: RGBA, opacity: Double = 1, evenOdd: Bool = false) -> JSONNode {
        .object([("ty", .string("fl")), ("c", LottieDocument.still(LottieDocument.rgb(color))),
                 ("o", LottieDocument.still(.number(LottieBezier.round(Double(color.a) / 255 * opacity * 100, decimals: 2))))]
                + (evenOdd ? [("r", .int(2))] : []))
    }

    /// A stroke of `width` output pixels, mitred (or round) at the corners.
    func stroke(_ color: RGBA, width: Double, roundJoin: Bool = false) -> JSONNode {
        .object([("ty", .string("st")), ("c", LottieDocument.still(LottieDocument.rgb(color))),
                 ("o", LottieDocument.still(.number(LottieBezier.round(Double(color.a) / 255 * 100, decimals: 2)))),
                 ("w", LottieDocument.still(.number(LottieBezier.round(width, decimals: 3)))),
                 ("lc", .int(roundJoin ? 2 : 1)), ("lj", .int(roundJoin ? 2 : 1)), ("ml", .int(10))])
    }

    func opacityTransform(_ opacity: Double) -> JSONNode {
        opacity >= 1 ? .object([]) : .object([("o", LottieDocument.still(.number(LottieBezier.round(opacity * 100, decimals: 2))))])
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
    /// by its Bézier handles (nil: linear). Times are rounded to 3 decimals, values to 2.
    static func animated(_ keyframes: [(t: Double, s: [Double], easing: VectorScene.Easing?)]) -> JSONNode {
        .object([("a", .int(1)), ("k", .array(keyframes.enumerated().map { k, key in
            var members: [(String, JSONNode)] = [("t", .number(LottieBezier.round(key.t, decimals: 3))), ("s", numbers(key.s))]
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
        numbers([c.r, c.g, c.b].map { min(1, (Double($0) + 0.25) / 255) }, decimals: 4)
    }

    /// `#rrggbb`, as a solid layer states its colour.
    static func hex(_ c: RGBA) -> String {
        "#" + [c.r, c.g, c.b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
