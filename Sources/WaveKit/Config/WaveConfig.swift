import WavePlatform

/// A fully resolved, validated preset: defaults applied and every length converted to pixels at the
/// output scale. Everything after the preset loader reads only this type.
public struct WaveConfig: Equatable, Sendable {
    /// The preset's name (its file name when the file gives none).
    public var name: String
    /// The file (or bundled name) the preset was loaded from, for messages; empty when built in code.
    public var file: String = ""
    public var description: String
    /// Output canvas in pixels (preset size × scale, rounded).
    public var width: Int
    public var height: Int
    /// Output pixels per preset pixel.
    public var scale: Double
    /// Frames per second requested by the preset.
    public var fps: Double
    public var duration: LoopDuration
    /// Bounds on the frame count when `duration` is `.auto`.
    public var minFrames: Int
    public var maxFrames: Int
    /// Largest relative speed change the planner may make to close the loop (0.02 = 2 %).
    public var speedTolerance: Double
    /// Times the animation plays; 0 = forever.
    public var loops: Int
    /// Canvas color; alpha 0 means a transparent background. With `backgroundGradient`, the
    /// gradient's mean color (what stands for it where one color must do).
    public var background: RGBA
    /// A `linear-gradient()` painting the canvas (its box: the whole canvas), or nil.
    public var backgroundGradient: LinearGradient?
    /// Largest difference, in 8-bit levels of any channel, between neighbouring shades of an
    /// anti-aliased edge (the palette's ramp step): larger gives fewer colors and smaller files.
    public var edgeStep: Double
    public var shape: Shape
    /// The shape's outline box in output pixels (canvas less inset; a centered square for circles).
    public var outline: Rect
    public var border: Border?
    /// The box the wave math uses: the outline less the border's width and gap, in output pixels.
    public var box: Rect
    public var level: LevelAnimation
    /// Wave layers, back first.
    public var layers: [Layer]
    public var gif: GIFOptions
    public var webp: WebPOptions
    public var apng: APNGOptions
    /// An image that floats on one layer's surface.
    public var rider: Rider?
    /// Text over the water, such as the level in percent.
    public var label: Label?
    /// The colors of each theme, by theme name ("light", "dark"), when the preset has a dark twin
    /// (`PresetLoader` fills it in, whichever theme the config itself shows); empty without one.
    public var themeColors: [String: ThemeColors] = [:]
    /// How a live output eases to a level the page sets (`"live"`).
    public var live = LiveOptions()
    /// Which side the water fills toward (`"direction"`); `up` draws the waves as ever.
    public var direction = FillDirection.up

    public init(name: String = "wave", description: String = "", width: Int = 128, height: Int = 128,
                scale: Double = 1, fps: Double = 50, duration: LoopDuration = .auto, minFrames: Int = 8,
                maxFrames: Int = 300, speedTolerance: Double = 0.02, loops: Int = 0,
                background: RGBA = .transparent, edgeStep: Double = WaveConfig.defaultEdgeStep, shape: Shape = .rect, outline: Rect? = nil,
                border: Border? = nil, box: Rect? = nil, level: LevelAnimation = .still(0.5),
                layers: [Layer], gif: GIFOptions = GIFOptions(), webp: WebPOptions = WebPOptions(), apng: APNGOptions = APNGOptions(),
                rider: Rider? = nil, label: Label? = nil) {
        self.name = name
        self.description = description
        self.width = width
        self.height = height
        self.scale = scale
        self.fps = fps
        self.duration = duration
        self.minFrames = minFrames
        self.maxFrames = maxFrames
        self.speedTolerance = speedTolerance
        self.loops = loops
        self.background = background
        self.edgeStep = edgeStep
        self.shape = shape
        let outline = outline ?? Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        self.outline = outline
        self.border = border
        self.box = box ?? outline
        self.level = level
        self.layers = layers
        self.gif = gif
        self.webp = webp
        self.apng = apng
        self.rider = rider
        self.label = label
    }
}

extension WaveConfig {
    /// Whether the background or any layer is painted with a gradient, so pixels of one region
    /// differ in color and frames are drawn in true color.
    public var hasGradient: Bool { backgroundGradient != nil || layers.contains { $0.gradient != nil } }

    /// The background's paint.
    public var backgroundPaint: Paint { backgroundGradient.map(Paint.linear) ?? .flat(background) }

    /// The box a layer's gradient spans: the shape's outline box.
    public var layerGradientBox: Rect { outline }

    /// The box the background's gradient spans: the canvas.
    public var canvasBox: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }

    /// The default `edgeStep`: edges as smooth as 8-bit color shows them.
    public static let defaultEdgeStep = 3.0
    /// The range `edgeStep` may take.
    public static let edgeStepRange = 1.0...128.0
}

/// How long one loop lasts.
public enum LoopDuration: Equatable, Sendable {
    /// The shortest seamless loop within the frame bounds.
    case auto
    /// A fixed length in seconds; speeds move to whole cycles per loop.
    case seconds(Double)
}

/// An axis-aligned rectangle in output pixels (y grows downwards).
public struct Rect: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }

    /// The rectangle shrunk by `d` on every side (never below zero size).
    public func insetBy(_ d: Double) -> Rect {
        let w = max(0, width - 2 * d), h = max(0, height - 2 * d)
        return Rect(x: midX - w / 2, y: midY - h / 2, width: w, height: h)
    }
}

/// The outline that holds the water.
public enum Shape: Equatable, Sendable {
    case rect
    /// A rounded rectangle with the corner radius in output pixels.
    case rounded(cornerRadius: Double)
    case circle
    /// An upward-pointing isosceles triangle filling the outline box.
    case triangle
    /// An outline drawn by SVG path data (the built-in `heart` and `drop` are such paths); the
    /// outline box is its view box fitted into the canvas less the inset.
    case path(ShapePath)

    /// The shapes a preset names by a keyword.
    public enum Kind: String, Equatable, Sendable, CaseIterable {
        case rect, rounded, circle, triangle, heart, drop
    }
}

/// A ring drawn along the shape's outline.
public struct Border: Equatable, Sendable {
    /// Ring width in output pixels.
    public var width: Double
    public var color: RGBA
    /// Space between the ring and the water, in output pixels.
    public var gap: Double

    public init(width: Double, color: RGBA, gap: Double = 0) {
        self.width = width
        self.color = color
        self.gap = gap
    }
}

/// The still-water level over one loop, as a fraction of the box height (0 empty, 1 full).
public enum LevelAnimation: Equatable, Sendable {
    case still(Double)
    /// From `from` to `to`; with `pingpong` back again, so the loop closes.
    case ramp(from: Double, to: Double, ease: Ease, pingpong: Bool)
    /// `base + tide × sin(2π × loop fraction)`: rises and falls once per loop.
    case tide(base: Double, tide: Double)

    public enum Ease: String, Equatable, Sendable, CaseIterable {
        case linear
        case easeInOut

        /// The eased progress (0…1) at progress p (0…1).
        public func apply(_ p: Double) -> Double {
            switch self {
            case .linear: return p
            case .easeInOut: return 0.5 - 0.5 * cos(Double.pi * p)
            }
        }
    }

    /// The level at `frame` of a loop of `frameCount` frames.
    public func level(frame: Int, of frameCount: Int) -> Double {
        var p = 1.0
        if case let .ramp(_, _, _, pingpong) = self {
            if pingpong {
                let u = Double(frame) / Double(frameCount)
                p = u < 0.5 ? 2 * u : 2 - 2 * u
            } else if frameCount > 1 {
                p = Double(frame) / Double(frameCount - 1)
            }
        }
        return level(rampProgress: p, tideAngle: 2 * Double.pi * Double(frame) / Double(frameCount))
    }

    /// The level for a ramp's progress `p` (0…1, before easing) or a tide's angle (radians), the
    /// one formula both the per-frame and the continuous level use.
    func level(rampProgress p: Double, tideAngle angle: Double) -> Double {
        switch self {
        case let .still(v): return v
        case let .ramp(from, to, ease, _): return from + (to - from) * ease.apply(p)
        case let .tide(base, tide): return base + tide * sin(angle)
        }
    }

    /// The level shown on a still image or label (the target level).
    public var nominal: Double {
        switch self {
        case let .still(v): return v
        case let .ramp(_, to, _, _): return to
        case let .tide(base, _): return base
        }
    }
}

/// One sine layer: surface(x, t) = y0 + offset − amplitude × sin(2π((x − box.x)/wavelength + phase − speed × t)).
public struct Layer: Equatable, Sendable {
    /// The layer's color; with `gradient`, the gradient's mean color (what stands for it where one
    /// color must do).
    public var color: RGBA
    /// A `linear-gradient()` over the shape's outline box painting the layer, or nil.
    public var gradient: LinearGradient?
    /// 0…1, multiplies the color's own alpha.
    public var opacity: Double
    /// Crest height in output pixels.
    public var amplitude: Double
    /// Wavelength in output pixels.
    public var wavelength: Double
    /// Phase in turns (1 = one wavelength).
    public var phase: Double
    /// Drift in wavelengths per second; positive drifts right.
    public var speed: Double
    /// Shift of this layer's still level in output pixels, positive down.
    public var offset: Double

    public init(color: RGBA, opacity: Double = 1, amplitude: Double, wavelength: Double,
                phase: Double = 0, speed: Double = 0.5, offset: Double = 0) {
        self.color = color
        self.opacity = opacity
        self.amplitude = amplitude
        self.wavelength = wavelength
        self.phase = phase
        self.speed = speed
        self.offset = offset
    }

    /// The layer's paint.
    public var paint: Paint { gradient.map(Paint.linear) ?? .flat(color) }
}

/// GIF-only choices.
public struct GIFOptions: Equatable, Sendable {
    /// What becomes of partly transparent edge pixels over a transparent background.
    public enum Edges: String, Equatable, Sendable, CaseIterable {
        /// Blend against `matte`.
        case matte
        /// Opaque at 50 % coverage or more, transparent below.
        case cut
        /// An ordered (Bayer) dither of coverage.
        case dither
    }

    public var edges: Edges
    public var matte: RGBA
    /// The largest error lossy LZW coding may put on a pixel, in 8-bit levels of any channel of the
    /// color as shown (premultiplied RGBA); flat pixels stay exact. 0 (the default) writes every
    /// pixel exactly.
    public var lossy: Int
    /// The most entries the GIF's color table may hold, the entry that keeps unchanged pixels
    /// included. Below what the scene needs (its flat colors, a rider's and a label's, and the edge
    /// shades `edgeStep` asks for), the edge shades are chosen again where the scene's pixels fall:
    /// fewer entries code shorter. 256 (the default) keeps every shade.
    public var colors: Int
    /// Strength of the ordered dither a gradient scene's colors get before they are matched to the
    /// table, 0 (off, the default) to 1 (`true`: a full step of the table's spacing); scenes
    /// without gradients are not dithered.
    public var dither: Double = 0

    /// The smallest `colors`: the background, the water and the entry that keeps unchanged pixels.
    public static let minimumColors = 3

    /// The largest `lossy`: half the channel range, where every edge pixel may already take the
    /// nearer of the two flat colors it blends.
    public static let maximumLossy = 128

    public init(edges: Edges = .matte, matte: RGBA = .white, lossy: Int = 0, colors: Int = 256) {
        self.edges = edges
        self.matte = matte
        self.lossy = lossy
        self.colors = colors
    }
}

/// WebP-only choices.
public struct WebPOptions: Equatable, Sendable {
    public var lossless: Bool
    /// 0…100; for lossy the visual quality, for lossless the compression effort within `effort`.
    public var quality: Double
    /// 0…6, the encoder's method: higher is smaller and slower; from 4 up the encoder also searches
    /// the animation's frame layouts for the smallest file.
    public var effort: Int

    /// Default quality for lossless (compression effort) and for lossy (visual quality).
    public static let losslessQuality = 75.0
    public static let lossyQuality = 80.0

    public init(lossless: Bool = true, quality: Double = WebPOptions.losslessQuality, effort: Int = 4) {
        self.lossless = lossless
        self.quality = quality
        self.effort = effort
    }
}

/// APNG-only choices.
public struct APNGOptions: Equatable, Sendable {
    /// 0…3: how hard the encoder searches for the smallest file (0 fastest; 3 adds Zopfli).
    public var effort: Int

    public static let defaultEffort = 2

    public init(effort: Int = APNGOptions.defaultEffort) {
        self.effort = effort
    }
}

/// An image riding a layer's surface: it rises, falls and tilts with the swell.
public struct Rider: Equatable, Sendable {
    public var image: RiderImage
    /// Drawn width in output pixels; the height follows the image's aspect.
    public var width: Double
    /// Where it floats, as a fraction of the box width (0 left, 1 right).
    public var x: Double
    /// The index of the layer whose surface it rides; it is drawn after that layer and before the
    /// layers in front of it.
    public var layer: Int
    /// The point of the image that sits on the surface, as fractions of its width and height.
    public var anchor: (x: Double, y: Double)
    /// 0…1: how far it turns with the surface's slope (1 = along the tangent).
    public var tilt: Double
    /// Extra depth below the surface in output pixels.
    public var sink: Double

    public init(image: RiderImage, width: Double, x: Double = 0.5, layer: Int, anchor: (x: Double, y: Double) = (0.5, 0.85),
                tilt: Double = 1, sink: Double = 0) {
        self.image = image
        self.width = width
        self.x = x
        self.layer = layer
        self.anchor = anchor
        self.tilt = tilt
        self.sink = sink
    }

    /// Drawn height in output pixels.
    public var height: Double { width * Double(image.height) / Double(image.width) }

    public static func == (a: Rider, b: Rider) -> Bool {
        a.image == b.image && a.width == b.width && a.x == b.x && a.layer == b.layer && a.anchor == b.anchor
            && a.tilt == b.tilt && a.sink == b.sink
    }
}

/// A decoded image: 8-bit straight-alpha RGBA, row by row.
public struct RiderImage: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var rgba: [UInt8]

    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }
}

/// A font of the label: what the preset's `label.font` names, and where its bytes are.
public struct LabelFont: Equatable, Sendable {
    /// As the preset writes it: a path, a fontconfig name ("DejaVu Sans:bold") or a data URI.
    public var name: String
    public var source: Source

    public enum Source: Equatable, Sendable {
        /// A font file: a path in the preset (resolved against the preset's folder by the loader),
        /// or the file fontconfig found for a family name.
        case file(String)
        /// A font embedded in the preset as a data URI, decoded.
        case embedded([UInt8])
    }

    public init(name: String, source: Source) {
        self.name = name
        self.source = source
    }

    /// What messages call the font: the name as written (a data URI shortened), and the file it
    /// resolved to when that differs: "DejaVu Serif:bold (/usr/share/…/DejaVuSerif-Bold.ttf)".
    public var displayName: String {
        switch source {
        case let .file(path): path == name ? name : "\(name) (\(path))"
        case let .embedded(bytes): "the embedded font (\(bytes.count) bytes)"
        }
    }
}

/// A line of text over the water; the part below the front layer's surface takes `colorOnWater`.
public struct Label: Equatable, Sendable {
    /// The text with `{percent}` and `{level}` still in it.
    public var template: String
    /// The fonts to draw with, in the order `label.font` lists them: each character's glyph comes
    /// from the first that has it. Empty for the default font (DejaVu Sans Bold, built in).
    public var fonts: [LabelFont]
    /// Em size in output pixels.
    public var size: Double
    public var color: RGBA
    public var colorOnWater: RGBA
    public var position: Position
    /// Outline width in output pixels (0 for none) and its color.
    public var strokeWidth: Double
    public var strokeColor: RGBA

    public enum Position: String, Equatable, Sendable, CaseIterable {
        case center, top, bottom
    }

    public init(template: String, fonts: [LabelFont] = [], size: Double, color: RGBA, colorOnWater: RGBA,
                position: Position = .center, strokeWidth: Double = 0, strokeColor: RGBA = .black) {
        self.template = template
        self.fonts = fonts
        self.size = size
        self.color = color
        self.colorOnWater = colorOnWater
        self.position = position
        self.strokeWidth = strokeWidth
        self.strokeColor = strokeColor
    }

    /// Whether a `label.font` value is a file path (it has a '/' or ends in .ttf, .otf or .ttc,
    /// any case) rather than a family and style for fontconfig ("DejaVu Sans:bold").
    public static func isFontPath(_ font: String) -> Bool {
        let lower = font.lowercased()
        return font.contains("/") || [".ttf", ".otf", ".ttc"].contains { lower.hasSuffix($0) }
    }

    /// What messages call the default font: a subset of DejaVu Sans Bold built into wavegen
    /// (scripts/dev/subset-default-font), so a label renders the same with no fonts installed.
    public static let defaultFont = "DejaVu Sans Bold (built in)"

    /// The most fonts `label.font` may list.
    public static let maximumFonts = 8

    /// The text frame `frame` of a loop of `count` frames shows: the text of that frame's level
    /// (`LevelAnimation.level(frame:of:)`). Every output format shows this text on that frame; a
    /// vector format shows it for the frame's time, as the raster formats do.
    public func text(frame: Int, of count: Int, level: LevelAnimation) -> String {
        text(level: level.level(frame: frame, of: count))
    }

    /// The text for a level (0…1): `{percent}` becomes the level × 100 rounded to the nearest whole
    /// number (halves away from zero: 0.125 → 13), `{level}` the level rounded to two decimals
    /// (halves away from zero) and written with both.
    /// `{{` and `}}` are a literal brace.
    public func text(level: Double) -> String {
        let percent = Int((level * 100).rounded())
        let two = (level * 100).rounded() / 100
        var out = ""
        for part in Label.parts(of: template) {
            switch part {
            case let .literal(s): out += s
            case .percent: out += String(percent)
            case .level: out += NumberText.fixed(two, places: 2)
            case .unknown: break
            }
        }
        return out
    }

    /// The placeholders a label text may hold, without their braces.
    public static let placeholders = ["percent", "level"]

    /// A piece of a label text: literal text (with `{{` and `}}` already made single braces), a
    /// placeholder, or something that is neither (a lone brace, an unknown name) for `problem(in:)`.
    enum Part: Equatable {
        case literal(String)
        case percent, level
        case unknown(String)
    }

    /// Splits a label text into literal runs and placeholders, left to right.
    static func parts(of template: String) -> [Part] {
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(template)
        func flush() {
            if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
        }
        while let c = rest.first {
            if rest.hasPrefix("{{") || rest.hasPrefix("}}") {
                literal.append(c)
                rest = rest.dropFirst(2)
            } else if c == "{", let close = rest.firstIndex(of: "}"), !rest[rest.index(after: rest.startIndex)..<close].contains("{") {
                let name = String(rest[rest.index(after: rest.startIndex)..<close])
                flush()
                parts.append(name == "percent" ? .percent : name == "level" ? .level : .unknown("{\(name)}"))
                rest = rest[rest.index(after: close)...]
            } else if c == "{" || c == "}" {
                flush()
                parts.append(.unknown(String(c)))
                rest = rest.dropFirst()
            } else {
                literal.append(c)
                rest = rest.dropFirst()
            }
        }
        flush()
        return parts
    }

    /// Whether `short` is `word` with letters left out, keeping the first ("pct" of "percent").
    static func isAbbreviation(_ short: String, of word: String) -> Bool {
        guard let first = short.first, first == word.first else { return false }
        var rest = Substring(word)
        for c in short {
            guard let i = rest.firstIndex(of: c) else { return false }
            rest = rest[rest.index(after: i)...]
        }
        return true
    }

    /// What is wrong with a label text's placeholders, or nil: an unknown `{name}` (with the
    /// closest known one) or a brace that opens or closes nothing.
    public static func problem(in template: String) -> String? {
        for case let .unknown(token) in parts(of: template) {
            let known = placeholders.map { "{\($0)}" }.joined(separator: " and ")
            if token.count > 1 {
                let name = String(token.dropFirst().dropLast())
                let guess = KeyAdvice.closest(to: name, among: placeholders, ignoringCase: true) { max(2, $0.count / 2) }
                    ?? placeholders.first { Label.isAbbreviation(name.lowercased(), of: $0) }
                return "unknown placeholder \(token)\(guess.map { " (did you mean {\($0)}?)" } ?? ""); the text may hold \(known), and {{ or }} for a literal brace"
            }
            return "a lone \"\(token)\"; the text may hold \(known), and \(token)\(token) for a literal brace"
        }
        return nil
    }
}
