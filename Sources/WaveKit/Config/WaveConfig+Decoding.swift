extension WaveConfig {
    /// The format versions this build reads.
    public static let supportedFormats = [1]

    /// Top-level keys of format 1.
    public static let topLevelKeys = [
        "format", "generator", "requires", "name", "description", "extends", "size", "scale", "fps", "duration", "minFrames",
        "maxFrames", "speedTolerance", "loops", "background", "edgeStep", "shape", "cornerRadius", "inset", "border",
        "direction", "level", "layers", "rider", "label", "gif", "webp", "apng", "dark", "live", "embeddedFonts",
    ]
    /// The keys of an entry of a packed preset's `embeddedFonts`.
    public static let embeddedFontKeys = ["from", "name", "license", "licenseURL", "characters", "bytes"]
    public static let layerKeys = ["color", "opacity", "amplitude", "wavelength", "phase", "speed", "offset"]
    public static let borderKeys = ["width", "color", "gap"]
    public static let shapePathKeys = ["path", "viewBox", "fillRule"]
    public static let rampLevelKeys = ["from", "to", "ease", "pingpong"]
    public static let tideLevelKeys = ["base", "tide"]
    public static let riderKeys = ["image", "width", "x", "layer", "anchor", "tilt", "sink"]
    public static let labelKeys = ["text", "font", "size", "color", "colorOnWater", "position", "stroke"]
    public static let strokeKeys = ["width", "color"]
    public static let gifKeys = ["edges", "matte", "lossy", "colors", "dither"]
    public static let webpKeys = ["lossless", "quality", "effort"]
    public static let apngKeys = ["effort"]
    public static var shapeKeywords: [String] { Shape.Kind.allCases.map(\.rawValue) }

    /// Largest output side in pixels (size × scale).
    public static let maximumOutputSide = 8192
    /// Hard ceiling on frames per loop.
    public static let maximumFrames = 3000

    /// The seconds of frames `maxFrames` allows by default above 50 fps.
    public static let defaultMaxSeconds = 6.0

    /// `maxFrames` when the preset gives none: 300, or 6 s of frames at a rate above 50 fps, so a
    /// faster preset can still close the loops a 50 fps one closes.
    public static func defaultMaxFrames(fps: Double) -> Int {
        min(maximumFrames, max(300, Int(saturating: (defaultMaxSeconds * fps).rounded(.up))))
    }

    /// The default wave layer when a preset gives none.
    static let defaultLayerColor = RGBA(0x21, 0x96, 0xF3)

    /// Builds a config from a preset's JSON (after `extends` has been merged), or returns every
    /// problem found, by key path (without file or position: `PresetLoader` adds those). Each section
    /// of the preset is read by its own function below, in the order the reference lists them.
    public static func decode(_ root: JSONNode, defaultName: String,
                              images: (String) -> Result<RiderImage, ImageProblem> = { _ in .failure(ImageProblem("images are not available here")) })
        -> Result<WaveConfig, WaveError> {
        var r = PresetReader()
        guard r.object(root, at: "") else { return .failure(WaveError(r.problems)) }
        r.checkKeys(root, at: "", allowed: topLevelKeys)

        let (name, description) = decodeHeader(root, defaultName: defaultName, reader: &r)
        let canvas = decodeCanvas(root, reader: &r)
        let backgroundPaint = r.paint(root["background"], at: "background", default: .flat(.transparent)) ?? .flat(.transparent)
        let edgeStep = r.number(root["edgeStep"], at: "edgeStep", default: defaultEdgeStep, in: edgeStepRange)
        let geometry = decodeGeometry(root, width: canvas.width, height: canvas.height, scale: canvas.scale, reader: &r)

        let level = decodeLevel(root["level"], reader: &r)
        let direction = r.keyword(root["direction"], at: "direction", default: FillDirection.up)
        // Lengths relative to the box (amplitude, wavelength, offset, the rider's width) are taken
        // along and across the front, as the box is seen with the water filling upwards.
        let box = geometry.box
        let waveBox = direction.sideways ? Rect(x: box.y, y: box.x, width: box.height, height: box.width) : box
        let layers = decodeLayers(root["layers"], box: waveBox, scale: canvas.scale, reader: &r)
        let (gif, webp, apng) = decodeEncoders(root, reader: &r)
        let rider = decodeRider(root["rider"], box: waveBox, scale: canvas.scale, layerCount: layers.count, images: images, reader: &r)
        let label = decodeLabel(root["label"], box: box, scale: canvas.scale, reader: &r)
        checkDark(root, reader: &r)
        let live = decodeLive(root["live"], reader: &r)

        guard r.problems.isEmpty else { return .failure(WaveError(r.problems)) }
        var config = WaveConfig(
            name: name, description: description, width: canvas.width, height: canvas.height, scale: canvas.scale,
            fps: canvas.fps, duration: canvas.duration, minFrames: canvas.minFrames, maxFrames: canvas.maxFrames,
            speedTolerance: canvas.speedTolerance, loops: canvas.loops, background: backgroundPaint.representativeColor,
            edgeStep: edgeStep, shape: geometry.shape, outline: geometry.outline, border: geometry.border, box: box,
            level: level, layers: layers, gif: gif, webp: webp, apng: apng, rider: rider, label: label)
        config.live = live
        config.backgroundGradient = backgroundPaint.gradient
        config.direction = direction
        return .success(config)
    }

    /// What a preset says about itself: `format`, `generator`, `requires`, `embeddedFonts` (checked
    /// only), and its `name` and `description`.
    private static func decodeHeader(_ root: JSONNode, defaultName: String, reader r: inout PresetReader)
        -> (name: String, description: String) {
        if let format = root["format"] {
            if case let .number(n) = format.value, supportedFormats.contains(where: { Double($0) == n }) {
            } else {
                r.fail("format", "\(r.describe(format)) is not a supported format version (this build reads \(supportedFormats.map(String.init).joined(separator: ", ")))")
            }
        }
        // A packed preset's record of what wrote it, the release it needs (checked as the file is
        // read: PresetLoader.resolve) and where its embedded fonts came from.
        _ = r.string(root["generator"], at: "generator", default: "")
        if let requires = root["requires"], WavegenVersion.parts(r.string(requires, at: "requires", default: "0")) == nil {
            r.fail("requires", "must be a wavegen release such as \"\(WavegenVersion.current)\", got \(r.describe(requires))")
        }
        if let fonts = root["embeddedFonts"] {
            if case let .array(items) = fonts.value {
                for (i, item) in items.enumerated() where r.object(item, at: "embeddedFonts[\(i)]") {
                    r.checkKeys(item, at: "embeddedFonts[\(i)]", allowed: embeddedFontKeys)
                }
            } else {
                r.fail("embeddedFonts", "expected an array, got \(r.describe(fonts))")
            }
        }
        let name = r.string(root["name"], at: "name", default: defaultName)
        let description = r.string(root["description"], at: "description", default: "")
        if let ext = root["extends"], case .string = ext.value {} else if let ext = root["extends"] {
            r.fail("extends", "expected a preset name or path, got \(r.describe(ext))")
        }

        return (name, description)
    }

    /// The canvas and the clock: `size` × `scale` in pixels, `fps`, `duration`, the frame bounds,
    /// `speedTolerance` and `loops`.
    private struct Canvas {
        var width: Int, height: Int, scale: Double, fps: Double, duration: LoopDuration
        var minFrames: Int, maxFrames: Int, speedTolerance: Double, loops: Int
    }

    private static func decodeCanvas(_ root: JSONNode, reader r: inout PresetReader) -> Canvas {
        var size = (128.0, 128.0)
        if let node = root["size"] {
            if case let .array(items) = node.value, items.count == 2 {
                let w = r.integer(items[0], at: "size[0]", default: 128, in: 8...4096)
                let h = r.integer(items[1], at: "size[1]", default: 128, in: 8...4096)
                size = (Double(w), Double(h))
            } else {
                var hint = ""
                if case let .string(text) = node.value {
                    let parts = text.lowercased().split(separator: "x")
                    if parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) { hint = " (write [\(w), \(h)]; on the command line --size \(w)x\(h) says it too)" }
                }
                r.fail("size", "expected [width, height] in whole pixels, got \(r.describe(node))\(hint)")
            }
        }
        let scale = r.number(root["scale"], at: "scale", default: 1, in: 0...16, exclusiveLower: true)
        let width = max(1, Int(saturating: (size.0 * scale).rounded())), height = max(1, Int(saturating: (size.1 * scale).rounded()))
        if max(width, height) > maximumOutputSide {
            r.fail("scale", "the output would be \(width)×\(height) pixels; the largest side allowed is \(maximumOutputSide)")
        } else if min(width, height) < 8 {
            r.fail("scale", "the output would be \(width)×\(height) pixels; the smallest side allowed is 8")
        }
        let fps = r.number(root["fps"], at: "fps", default: 50, in: 0.1...240)
        var duration = LoopDuration.auto
        if let node = root["duration"] {
            if case .string("auto") = node.value {
            } else if case let .number(n) = node.value {
                if n > 0 && n <= 600 { duration = .seconds(n) } else { r.fail("duration", "must be \"auto\" or seconds greater than 0 and at most 600, got \(r.format(n))") }
            } else {
                r.fail("duration", "expected \"auto\" or a number of seconds, got \(r.describe(node))")
            }
        }
        let minFrames = r.integer(root["minFrames"], at: "minFrames", default: 8, in: 1...maximumFrames)
        let maxFrames = r.integer(root["maxFrames"], at: "maxFrames", default: defaultMaxFrames(fps: fps), in: 1...maximumFrames)
        if maxFrames < minFrames { r.fail("maxFrames", "must be at least minFrames (\(minFrames)), got \(maxFrames)") }
        let speedTolerance = r.number(root["speedTolerance"], at: "speedTolerance", default: 0.02, in: 0...0.5)
        let loops = r.integer(root["loops"], at: "loops", default: 0, in: 0...65535)

        return Canvas(width: width, height: height, scale: scale, fps: fps, duration: duration, minFrames: minFrames,
                      maxFrames: maxFrames, speedTolerance: speedTolerance, loops: loops)
    }

    /// Where the water goes: `inset`, `shape`, `cornerRadius` and `border`, giving the outline and
    /// the box the waves fill.
    private struct Geometry {
        var shape: Shape, outline: Rect, border: Border?, box: Rect
    }

    private static func decodeGeometry(_ root: JSONNode, width: Int, height: Int, scale: Double,
                                       reader r: inout PresetReader) -> Geometry {
        // Geometry: canvas → outline (less inset) → box (less border and gap).
        let canvasShort = Double(min(width, height))
        let inset = r.length(root["inset"], at: "inset", default: 0, reference: canvasShort, scale: scale,
                             in: 0...0.45, rangeText: "between 0 and 0.45 of the canvas's shorter side")
        var kind = Shape.Kind.rect
        var pathShape: ShapePath?
        if let node = root["shape"], case .object = node.value {
            pathShape = decodeShapePath(node, reader: &r)
        } else if let node = root["shape"], case .string = node.value {
            kind = r.keyword(node, at: "shape", default: Shape.Kind.rect)
        } else if let node = root["shape"] {
            r.fail("shape", "expected one of \(shapeKeywords.map { "\"\($0)\"" }.joined(separator: ", ")) or an object {\"path\": …}, got \(r.describe(node))")
        }
        if pathShape == nil, kind == .heart { pathShape = .heart }
        if pathShape == nil, kind == .drop { pathShape = .drop }
        let area = Rect(x: 0, y: 0, width: Double(width), height: Double(height)).insetBy(inset)
        var outline = area
        if kind == .circle {
            let side = min(outline.width, outline.height)
            outline = Rect(x: outline.midX - side / 2, y: outline.midY - side / 2, width: side, height: side)
        }
        if let pathShape { outline = pathShape.fitted(in: area) }
        let outlineShort = min(outline.width, outline.height)
        let cornerRadius = r.length(root["cornerRadius"], at: "cornerRadius", default: 0.2, reference: outlineShort,
                                    scale: scale, in: 0...0.5, rangeText: "between 0 and 0.5 of the shape's shorter side")
        if root["cornerRadius"] != nil && (kind != .rounded || pathShape != nil) {
            r.fail("cornerRadius", "only applies to \"shape\": \"rounded\"; leave it out, or drop one inherited from another preset with null (\"cornerRadius\": null, --set cornerRadius=null)")
        }
        let shape: Shape
        if let pathShape {
            if pathShape.segmentCount(in: outline) > ShapePath.maximumSegments {
                r.fail("shape.path", "the outline takes more than \(ShapePath.maximumSegments) straight segments at this size; simplify the path")
                shape = .rect
            } else {
                shape = .path(pathShape)
            }
        } else {
            switch kind {
            case .rect: shape = .rect
            case .rounded: shape = .rounded(cornerRadius: cornerRadius)
            case .circle: shape = .circle
            case .triangle: shape = .triangle
            case .heart: shape = .path(.heart)
            case .drop: shape = .path(.drop)
            }
        }

        var border: Border?
        if let node = root["border"], r.object(node, at: "border") {
            r.checkKeys(node, at: "border", allowed: borderKeys)
            let w = r.length(node["width"], at: "border.width", default: 0.04, reference: outlineShort, scale: scale,
                             in: 0...0.25, rangeText: "between 0 and 0.25 of the shape's shorter side")
            let c = r.color(node["color"], at: "border.color", default: nil)
            let gap = r.length(node["gap"], at: "border.gap", default: 0, reference: outlineShort, scale: scale,
                               in: 0...0.25, rangeText: "between 0 and 0.25 of the shape's shorter side")
            if let c { border = Border(width: w, color: c, gap: gap) }
        }
        let ring = border.map { $0.width + $0.gap } ?? 0
        let box = Shape.waterBox(shape, outline: outline, ring: ring)
        if case .path = shape {
            let bounds = Shape.waterBox(shape, outline: outline, ring: 0)
            // The wave math runs on the path's box: keep it within reach of the canvas.
            let reach = Double(ShapePath.maximumReach * max(width, height))
            if !(abs(bounds.x) <= reach && abs(bounds.y) <= reach && abs(bounds.maxX) <= reach && abs(bounds.maxY) <= reach) {
                r.fail("shape.path", "reaches more than \(ShapePath.maximumReach) canvas sizes beyond the canvas once its viewBox is fitted; give it a viewBox that holds it")
            } else if bounds.maxX <= 0 || bounds.maxY <= 0 || bounds.x >= Double(width) || bounds.y >= Double(height) {
                r.fail("shape.path", "lies outside its viewBox: none of it reaches the canvas (the viewBox is fitted to the canvas)")
            }
        }
        if (box.width < 2 || box.height < 2) && min(width, height) >= 8 {
            r.fail(border == nil ? "inset" : "border", "\(border == nil ? "the inset leaves" : "the border and gap leave") no room for water (\(r.format(box.width))×\(r.format(box.height)) px)")
        }

        return Geometry(shape: shape, outline: outline, border: border, box: box)
    }

    /// The encoders' own sections: `gif`, `webp` and `apng`.
    private static func decodeEncoders(_ root: JSONNode, reader r: inout PresetReader)
        -> (gif: GIFOptions, webp: WebPOptions, apng: APNGOptions) {
        var gif = GIFOptions()
        if let node = root["gif"], r.object(node, at: "gif") {
            r.checkKeys(node, at: "gif", allowed: gifKeys)
            gif.edges = r.keyword(node["edges"], at: "gif.edges", default: GIFOptions.Edges.matte)
            gif.matte = r.color(node["matte"], at: "gif.matte", default: .white) ?? .white
            if gif.matte.a != 255 { r.fail("gif.matte", "must be an opaque color, got \(gif.matte)") }
            gif.lossy = r.integer(node["lossy"], at: "gif.lossy", default: 0, in: 0...GIFOptions.maximumLossy)
            gif.colors = r.integer(node["colors"], at: "gif.colors", default: 256, in: GIFOptions.minimumColors...256)
            if let dither = node["dither"] {
                if case let .bool(on) = dither.value {
                    gif.dither = on ? 1 : 0
                } else {
                    gif.dither = r.number(dither, at: "gif.dither", default: 0, in: 0...1)
                }
            }
        }
        var apng = APNGOptions()
        if let node = root["apng"], r.object(node, at: "apng") {
            r.checkKeys(node, at: "apng", allowed: apngKeys)
            apng.effort = r.integer(node["effort"], at: "apng.effort", default: APNGOptions.defaultEffort, in: 0...3)
        }
        var webp = WebPOptions()
        if let node = root["webp"], r.object(node, at: "webp") {
            r.checkKeys(node, at: "webp", allowed: webpKeys)
            webp.lossless = r.bool(node["lossless"], at: "webp.lossless", default: node["quality"] == nil)
            webp.quality = r.number(node["quality"], at: "webp.quality", default: webp.lossless ? WebPOptions.losslessQuality : WebPOptions.lossyQuality, in: 0...100)
            webp.effort = r.integer(node["effort"], at: "webp.effort", default: 4, in: 0...6)
        }

        return (gif, webp, apng)
    }

    /// A `"shape": {"path": …, "viewBox": [x, y, w, h], "fillRule": …}` object; nil (with the
    /// problems noted) when it is not usable. Without a view box the path's own box is fitted.
    private static func decodeShapePath(_ node: JSONNode, reader r: inout PresetReader) -> ShapePath? {
        r.checkKeys(node, at: "shape", allowed: shapePathKeys)
        let fillRule = r.keyword(node["fillRule"], at: "shape.fillRule", default: ShapePath.FillRule.nonzero)
        guard let pathNode = node["path"] else {
            r.fail("shape.path", "is required: SVG path data such as \"M0 0 L10 0 L5 8 Z\"")
            return nil
        }
        guard case let .string(text) = pathNode.value else {
            r.fail("shape.path", "expected SVG path data as a string, got \(r.describe(pathNode))")
            return nil
        }
        let data: PathData
        do {
            data = try PathData(parsing: text)
        } catch {
            r.fail("shape.path", error.description)
            return nil
        }
        let points = data.controlPoints
        guard !points.isEmpty else {
            r.fail("shape.path", "draws nothing: it needs at least one line or curve after its moveto")
            return nil
        }
        var viewBox: Rect
        if let boxNode = node["viewBox"] {
            guard case let .array(items) = boxNode.value, items.count == 4 else {
                r.fail("shape.viewBox", "expected [x, y, width, height], got \(r.describe(boxNode))")
                return nil
            }
            let v = items.enumerated().map { k, item in
                r.number(item, at: "shape.viewBox[\(k)]", default: k < 2 ? 0 : 1, in: k < 2 ? -1e9...1e9 : 0...1e9, exclusiveLower: k >= 2)
            }
            viewBox = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
        } else {
            // The box of the end and control points holds the path; its own box is found when placed.
            let xs = points.map(\.x), ys = points.map(\.y)
            viewBox = Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
            guard viewBox.width > 0, viewBox.height > 0 else {
                r.fail("shape.path", "encloses no area (all its points lie on one line); give it width and height")
                return nil
            }
        }
        return ShapePath(data: data, viewBox: viewBox, fillRule: fillRule)
    }

    private static func decodeRider(_ node: JSONNode?, box: Rect, scale: Double, layerCount: Int,
                                    images: (String) -> Result<RiderImage, ImageProblem>, reader r: inout PresetReader) -> Rider? {
        guard let node, r.object(node, at: "rider") else { return nil }
        r.checkKeys(node, at: "rider", allowed: riderKeys)
        var image: RiderImage?
        if let path = node["image"] {
            if case let .string(s) = path.value {
                switch images(s) {
                case let .success(i): image = i
                case let .failure(e): r.fail("rider.image", e.message, missingInput: e.missingInput)
                }
            } else {
                r.fail("rider.image", "expected the path of a PNG file, got \(r.describe(path))")
            }
        } else {
            r.fail("rider.image", "is required")
        }
        let width = r.length(node["width"], at: "rider.width", default: 0.3, reference: box.width, scale: scale,
                             in: 0.01...4, rangeText: "between 0.01 and 4 box widths")
        let x = r.number(node["x"], at: "rider.x", default: 0.5, in: 0...1)
        var layer = r.integer(node["layer"], at: "rider.layer", default: -1, in: -16...15)
        if layer < -layerCount || layer >= layerCount {
            r.fail("rider.layer", "there are \(layerCount) layers: expected 0…\(layerCount - 1), or -1…-\(layerCount) counting from the front, got \(layer)")
        }
        if layer < 0 { layer += layerCount }
        var anchor = (x: 0.5, y: 0.85)
        if let a = node["anchor"] {
            if case let .array(items) = a.value, items.count == 2 {
                anchor = (r.number(items[0], at: "rider.anchor[0]", default: 0.5, in: 0...1),
                          r.number(items[1], at: "rider.anchor[1]", default: 0.85, in: 0...1))
            } else {
                r.fail("rider.anchor", "expected [x, y] as fractions of the image, got \(r.describe(a))")
            }
        }
        let tilt = r.number(node["tilt"], at: "rider.tilt", default: 1, in: 0...1)
        let sink = r.length(node["sink"], at: "rider.sink", default: 0, reference: box.height, scale: scale,
                            in: -1...1, rangeText: "between -1 and 1 of the box height")
        guard let image else { return nil }
        return Rider(image: image, width: width, x: x, layer: max(0, min(layerCount - 1, layer)), anchor: anchor, tilt: tilt, sink: sink)
    }

    private static func decodeLabel(_ node: JSONNode?, box: Rect, scale: Double, reader r: inout PresetReader) -> Label? {
        guard let node, r.object(node, at: "label") else { return nil }
        r.checkKeys(node, at: "label", allowed: labelKeys)
        let text = r.string(node["text"], at: "label.text", default: "{percent}%")
        if text.isEmpty { r.fail("label.text", "must not be empty") }
        if text.count > 64 { r.fail("label.text", "is \(text.count) characters long; a label holds at most 64") }
        if let problem = Label.problem(in: text) { r.fail("label.text", problem) }
        let fonts = decodeFonts(node["font"], reader: &r)
        let size = r.length(node["size"], at: "label.size", default: 0.25, reference: box.height, scale: scale,
                            in: 0.01...2, rangeText: "between 0.01 and 2 of the box height")
        let color = r.color(node["color"], at: "label.color", default: RGBA(0x1E, 0x88, 0xE5)) ?? .black
        let onWater = r.color(node["colorOnWater"], at: "label.colorOnWater", default: .white) ?? .white
        let position = r.keyword(node["position"], at: "label.position", default: Label.Position.center)
        // A glyph is at most about one em wide: refuse labels that could not be drawn sensibly.
        if Double(text.count) * size > Double(maximumOutputSide) {
            r.fail("label.size", "the label would be wider than \(maximumOutputSide) pixels; use a smaller label.size or a shorter label.text")
        }
        var strokeWidth = 0.0, strokeColor = RGBA.black
        if let stroke = node["stroke"], r.object(stroke, at: "label.stroke") {
            r.checkKeys(stroke, at: "label.stroke", allowed: strokeKeys)
            strokeWidth = r.length(stroke["width"], at: "label.stroke.width", default: 0.02, reference: box.height, scale: scale,
                                   in: 0...0.2, rangeText: "between 0 and 0.2 of the box height")
            strokeColor = r.color(stroke["color"], at: "label.stroke.color", default: nil) ?? .black
        }
        return Label(template: text, fonts: fonts, size: size, color: color, colorOnWater: onWater, position: position,
                     strokeWidth: strokeWidth, strokeColor: strokeColor)
    }

    /// `label.font`: one font or a list of fallbacks, each a path, a family and style, or a font
    /// embedded as a data URI (decoded here; the loader resolves paths and families).
    private static func decodeFonts(_ node: JSONNode?, reader r: inout PresetReader) -> [LabelFont] {
        guard let node else { return [] }
        let entries: [(JSONNode, String)]
        if case let .array(items) = node.value {
            guard (1...Label.maximumFonts).contains(items.count) else {
                r.fail("label.font", "a list of fonts holds 1 to \(Label.maximumFonts) entries, got \(items.count)")
                return []
            }
            entries = items.enumerated().map { ($0.element, "label.font[\($0.offset)]") }
        } else {
            entries = [(node, "label.font")]
        }
        var fonts: [LabelFont] = []
        for (item, path) in entries {
            guard case let .string(name) = item.value, !name.isEmpty else {
                r.fail(path, "must be a font file's path, a family and style such as \"DejaVu Sans:bold\", an embedded font (data:font/ttf;base64,…) or a list of those")
                continue
            }
            if DataURI.isDataURI(name) {
                switch DataURI.decode(name, typePrefix: "font/", kind: "font") {
                case let .success(bytes): fonts.append(LabelFont(name: name, source: .embedded(bytes)))
                case let .failure(problem): r.fail(path, problem.message)
                }
            } else {
                fonts.append(LabelFont(name: name, source: .file(name)))
            }
        }
        return fonts
    }

    private static func decodeLevel(_ node: JSONNode?, reader r: inout PresetReader) -> LevelAnimation {
        guard let node else { return .still(0.5) }
        if case .number = node.value {
            return .still(r.number(node, at: "level", default: 0.5, in: 0...1))
        }
        guard case let .object(members) = node.value else {
            r.fail("level", "expected a number 0…1 or an object, got \(r.describe(node))")
            return .still(0.5)
        }
        let keys = members.map(\.key).filter { !KeyAdvice.isAnnotation($0) }
        if keys.contains(where: tideLevelKeys.contains) {
            r.checkKeys(node, at: "level", allowed: tideLevelKeys)
            let base = r.number(node["base"], at: "level.base", default: 0.5, in: 0...1)
            let tide = r.number(node["tide"], at: "level.tide", default: 0.1, in: 0...0.5)
            if base - tide < -1e-12 || base + tide > 1 + 1e-12 {
                r.fail("level.tide", "base ± tide must stay within 0…1, got \(r.format(base)) ± \(r.format(tide))")
            }
            return .tide(base: base, tide: tide)
        }
        r.checkKeys(node, at: "level", allowed: rampLevelKeys)
        let from = r.number(node["from"], at: "level.from", default: 0, in: 0...1)
        let to = r.number(node["to"], at: "level.to", default: 1, in: 0...1)
        let ease = r.keyword(node["ease"], at: "level.ease", default: LevelAnimation.Ease.linear)
        let pingpong = r.bool(node["pingpong"], at: "level.pingpong", default: false)
        return .ramp(from: from, to: to, ease: ease, pingpong: pingpong)
    }

    private static func decodeLayers(_ node: JSONNode?, box: Rect, scale: Double, reader r: inout PresetReader) -> [Layer] {
        let defaultLayer = Layer(color: defaultLayerColor, amplitude: 0.05 * box.height, wavelength: box.width)
        guard let node else { return [defaultLayer] }
        guard case let .array(items) = node.value else {
            r.fail("layers", "expected an array of 1 to 16 layers, got \(r.describe(node))")
            return [defaultLayer]
        }
        guard (1...16).contains(items.count) else {
            r.fail("layers", "must hold 1 to 16 layers, got \(items.count)")
            return [defaultLayer]
        }
        return items.enumerated().map { i, item in
            let path = "layers[\(i)]"
            guard r.object(item, at: path) else { return defaultLayer }
            r.checkKeys(item, at: path, allowed: layerKeys)
            let paint = r.paint(item["color"], at: path + ".color", default: nil) ?? .flat(defaultLayerColor)
            let opacity = r.number(item["opacity"], at: path + ".opacity", default: 1, in: 0...1)
            let amplitude = r.length(item["amplitude"], at: path + ".amplitude", default: 0.05, reference: box.height,
                                     scale: scale, in: 0...1, rangeText: "between 0 and 1 of the box height")
            let wavelength = r.length(item["wavelength"], at: path + ".wavelength", default: 1, reference: box.width,
                                      scale: scale, in: 0.01...100, rangeText: "between 0.01 and 100 box widths")
            let phase = r.number(item["phase"], at: path + ".phase", default: 0, in: -1000...1000)
            let speed = r.number(item["speed"], at: path + ".speed", default: 0.5, in: -100...100)
            let offset = r.length(item["offset"], at: path + ".offset", default: 0, reference: box.height,
                                  scale: scale, in: -1...1, rangeText: "between -1 and 1 of the box height")
            var layer = Layer(color: paint.representativeColor, opacity: opacity, amplitude: amplitude,
                              wavelength: max(wavelength, 1e-3), phase: phase, speed: speed, offset: offset)
            layer.gradient = paint.gradient
            return layer
        }
    }
}

/// Why a font named by family and style was not found, in the resolver's words.
public struct FontProblem: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// Why a rider image could not be used (missing, not a PNG, too large…).
public struct ImageProblem: Error, Equatable, Sendable {
    public var message: String
    /// The file is missing or unreadable, as opposed to present but not an image.
    public var missingInput: Bool
    public init(_ message: String, missingInput: Bool = false) {
        self.message = message
        self.missingInput = missingInput
    }
}

extension Shape {
    /// The box holding the water: the outline shrunk by `ring` (border width plus gap).
    static func waterBox(_ shape: Shape, outline: Rect, ring: Double) -> Rect {
        if case .path = shape {
            // The box of the flattened outline, less the ring.
            return OutlineGeometry(shape: shape, box: outline).edges.bounds.insetBy(ring)
        }
        guard ring > 0 else { return outline }
        switch shape {
        case .triangle:
            // The inset triangle is similar to the outline about its incenter.
            let t = TriangleGeometry(outline)
            let k = max(0, (t.inradius - ring) / t.inradius)
            let top = t.incenter.y - (t.incenter.y - outline.y) * k
            let w = outline.width * k, h = outline.height * k
            return Rect(x: outline.midX - w / 2, y: top, width: w, height: h)
        default:
            return outline.insetBy(ring)
        }
    }
}

/// The upward-pointing isosceles triangle inscribed in a box.
struct TriangleGeometry {
    let apex: (x: Double, y: Double)
    let left: (x: Double, y: Double)
    let right: (x: Double, y: Double)
    let inradius: Double
    let incenter: (x: Double, y: Double)

    init(_ box: Rect) {
        apex = (box.midX, box.y)
        left = (box.x, box.maxY)
        right = (box.maxX, box.maxY)
        let side = ((box.width / 2) * (box.width / 2) + box.height * box.height).squareRoot()
        let perimeter = 2 * side + box.width
        let area = box.width * box.height / 2
        inradius = 2 * area / perimeter
        incenter = (box.midX, box.maxY - inradius)
    }
}
